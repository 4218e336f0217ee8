//! The quiescence search past the horizon: captures, blocks of the king's open lines, moves
//! near a capturable king, the king's runs towards the corners and the edge, and the
//! defenders' last piece of an exit fort.

use super::{Step, Worker};
use crate::board::{Bitboard, Board, Move, MoveList};
use crate::board::{MAX_MOVES, Piece, Side};
use crate::search::eval::open_escape_lines;
use crate::search::ordering::{Tactics, pick, score_moves};
use crate::search::params::{MAX_PLY, QSEARCH_EDGE_PLIES};
use crate::search::score::Score;
use crate::search::size::Size;
use arrayvec::ArrayVec;

impl<G: Size> Worker<'_, G> {
    pub(super) fn qsearch(
        &mut self,
        b: &Board<G>,
        mut alpha: Score,
        beta: Score,
        ply: u32,
        qply: u32,
        quiet: u16,
    ) -> Score {
        // Past the horizon the rules that look back still end games; the horizon node itself
        // was judged by negamax.
        if qply > 0
            && let Some(end) = self.judge(b, ply, quiet).end
        {
            return Score::of_outcome(end, b.side_to_move(), ply);
        }
        self.count_node();
        if self.stopped() {
            return Score::ZERO;
        }
        self.seldepth = self.seldepth.max(ply);
        let p = ply as usize;
        self.pv_len[p.min(MAX_PLY)] = 0;
        let side = b.side_to_move();
        let open_lines = open_escape_lines(b, &self.rulebook);
        if side == Side::Defenders && open_lines.any() {
            return Score::win_in(ply + 1);
        }
        let threat = side == Side::Attackers && open_lines.any();
        if threat
            && open_lines.count() >= 2
            && !self.king_capturable(b)
            && self.rulebook.has_legal_move(b, &self.past(ply, quiet))
        {
            return Score::loss_in(ply + 2);
        }
        let eval = self.evaluate(b, ply);
        let swung = self.swung(ply, b, eval, side);
        if p >= MAX_PLY - 2 || qply >= self.params.qsearch_max_ply as u32 {
            return eval;
        }
        let mut best = if threat {
            Score::loss_in(ply + 2)
        } else {
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            eval
        };
        if side == Side::Defenders && qply < QSEARCH_EDGE_PLIES && self.fort_in_one(b, ply, quiet) {
            return Score::win_in(ply + 1);
        }
        let tactics = Tactics::with_open_lines(b, &self.rulebook, open_lines);
        let king = b.king();
        let king_zone = Bitboard::from_square(king).neighbours();
        let capturable = side == Side::Attackers && self.king_capturable(b);
        let mut targets = tactics.any_capture | tactics.block_squares;
        if capturable {
            targets |= king_zone;
        }
        let mut list = MoveList::new();
        b.generate_moves_to(targets, &self.rulebook, &mut list);
        if side == Side::Defenders {
            // King moves to an escape square or, near the horizon, to a square that sees one.
            let terrain = self.rulebook.terrain();
            let reach = if terrain.classic_moves {
                Bitboard::rook_targets(king, b.occupied())
            } else {
                terrain.targets(Piece::King, king, b.occupied())
            };
            // Near the horizon also moves that see an escape, and moves to the edge (forts).
            let wanted = if qply < QSEARCH_EDGE_PLIES {
                tactics.escape | tactics.escape_sight | Bitboard::EDGE
            } else {
                tactics.escape
            };
            for to in reach & wanted & !targets {
                list.push(Move::new(king, to));
            }
        }
        // A capture that stepped off a cliff of the evaluation is judged with the way back.
        if swung.ours
            && let Some(back) = self.move_back(ply)
            && !targets.contains(back.to())
            && b.check_move_under(back, &self.rulebook).is_ok()
            && !list.contains(&back)
        {
            list.push(back);
        }
        let mut scores: ArrayVec<i32, MAX_MOVES> = std::iter::repeat_n(0, list.len()).collect();
        let hist = self.heuristics.histories(side, None);
        let first = score_moves(b, &list, &tactics, None, [None; 2], hist, &mut scores);
        let mut allowed = 0;
        for i in 0..list.len() {
            if i == 0 {
                list.swap(0, first);
                scores.swap(0, first);
            } else {
                pick(&mut list, &mut scores, i);
            }
            let mut child = *b;
            let score =
                match self.step(b, &mut child, list[i], ply, quiet, false, tactics.capturing) {
                    Step::Refused => continue,
                    Step::Won { .. } => Score::win_in(ply + 1),
                    Step::Child { quiet: q, .. } => {
                        let c = &child;
                        let s = -self.qsearch(c, -beta, -alpha, ply + 1, qply + 1, q);
                        self.leave();
                        s
                    }
                };
            allowed += 1;
            if self.stopped() {
                return Score::ZERO;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if allowed == 0 && !self.rulebook.has_legal_move(b, &self.past(ply, quiet)) {
            return self.no_moves_score(side, ply);
        }
        best
    }

    /// Whether a defender soldier can shut an exit fort around the king on the edge with one
    /// move. The king's own steps to the edge are quiescence moves already; without this, a
    /// search whose last full ply is the attackers' never sees the wall's last piece put in,
    /// and they let the fort be built (issue 46: most stuck rings were lost so).
    fn fort_in_one(&self, b: &Board<G>, ply: u32, quiet: u16) -> bool {
        let king = b.king();
        if !self.rulebook.rules().exit_fort || !king.is_edge() {
            return false;
        }
        // The last piece of a wall lands within two steps of the king.
        let step = Bitboard::from_square(king).neighbours();
        let mut list = MoveList::new();
        b.generate_moves_to(step | step.neighbours(), &self.rulebook, &mut list);
        let past = self.past(ply, quiet);
        list.iter().filter(|m| m.from() != king).any(|&mv| {
            let mut child = *b;
            self.rulebook
                .play_allowed_on(&mut child, mv, &past)
                .is_some()
                && self.rulebook.mover_win(&child, mv).is_some()
        })
    }
}
