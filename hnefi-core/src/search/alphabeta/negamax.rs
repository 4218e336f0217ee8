//! The principal variation search below the root: the rules' verdict, mate distance pruning,
//! the table, reverse futility and null move pruning, then the moves in order with late move
//! reductions.

use super::heuristics::Continuation;
use super::{Step, Worker, net_squares};
use crate::board::{Bitboard, Board, Move, MoveList};
use crate::board::{MAX_MOVES, Side};
use crate::search::eval;
use crate::search::eval::features::KingRoutes;
use crate::search::ordering::{
    MOVE_BACK, QUIET_CEILING, Tactics, generate_stage, pick, retain_from, score_moves, sort_best,
};
use crate::search::params::{BREADCRUMB_PLIES, DANGER_ESCAPE_DISTANCE, MAX_PLY};
use crate::search::policy::LOGIT_UNIT;
use crate::search::score::Score;
use crate::search::size::Size;
use crate::search::tt::{Bound, Entry};
use arrayvec::ArrayVec;

impl<G: Size> Worker<'_, G> {
    pub(super) fn negamax(
        &mut self,
        b: &Board<G>,
        mut depth: i32,
        mut alpha: Score,
        beta: Score,
        ply: u32,
        quiet: u16,
    ) -> Score {
        let p = ply as usize;
        self.pv_len[p] = 0;
        // Before the horizon, so that a move that ends the game this way (a losing third
        // repetition, a draw fort, a counted draw) ends it at depth 1 too, as the referee would.
        let verdict = self.judge(b, ply, quiet);
        if let Some(end) = verdict.end {
            return Score::of_outcome(end, b.side_to_move(), ply);
        }
        if let Some(s) = self.repeated_in_path(b.side_to_move(), &verdict, ply) {
            return s;
        }
        if depth <= 0 || p >= MAX_PLY - 8 {
            return self.qsearch(b, alpha, beta, ply, 0, quiet);
        }
        self.count_node();
        if self.stopped() {
            return Score::ZERO;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta.0 - alpha.0 > 1;
        let side = b.side_to_move();

        // Mate distance pruning.
        let lo = alpha.max(Score::loss_in(ply));
        let hi = beta.min(Score::win_in(ply + 1));
        if lo >= hi {
            return lo;
        }

        let open_lines = eval::open_escape_lines(b, &self.rulebook);
        if side == Side::Defenders && open_lines.any() {
            return Score::win_in(ply + 1);
        }
        // Two open lines are lost in two plies, unless the attackers are stuck: then the game is
        // over now, which the check for moves below finds.
        if side == Side::Attackers
            && open_lines.count() >= 2
            && !self.king_capturable(b)
            && self.rulebook.has_legal_move(b, &self.past(ply, quiet))
        {
            return Score::loss_in(ply + 2);
        }
        let threat = side == Side::Attackers && open_lines.any();
        if threat {
            depth += 1;
        }

        let key = b.key();
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.and_then(|e| e.mv);
        if let Some(e) = tt
            && !pv_node
            && e.depth >= depth
        {
            let s = e.score.from_tt(ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }

        // The table's move, if legal here, is tried before the others are generated: it often
        // cuts at once. A legal one also proves the side has a move.
        let tt_move = tt_move.filter(|&m| b.check_move_under(m, &self.rulebook).is_ok());
        if tt_move.is_none() && !b.has_moves(&self.rulebook) {
            return self.no_moves_score(side, ply);
        }
        let eval = tt.map_or_else(|| self.evaluate(b, ply), |e| e.eval);
        let swung = self.swung(ply, b, eval, side);

        let may_prune = !pv_node
            && !threat
            && !swung.theirs
            && !beta.is_decisive()
            && ((depth <= self.params.rfp_max_depth
                && eval.0 - self.params.rfp_margin * depth >= beta.0)
                || (depth >= self.params.nmp_min_depth && eval >= beta && p > 0));
        // Worked out at most once, and only where pruning asks.
        let mut danger = None;
        if may_prune && !*danger.get_or_insert_with(|| self.danger(b)) {
            if depth <= self.params.rfp_max_depth
                && eval.0 - self.params.rfp_margin * depth >= beta.0
            {
                return eval;
            }
            if depth >= self.params.nmp_min_depth && eval >= beta && p > 0 {
                let r = self.params.nmp_base_reduction + depth / self.params.nmp_depth_divisor;
                let null = b.with_side_to_move(side.opponent());
                let null_quiet = self.enter(b, &null, None, ply, quiet);
                let s = -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, null_quiet);
                self.leave();
                if self.stopped() {
                    return Score::ZERO;
                }
                if s >= beta {
                    return if s.is_decisive() { beta } else { s };
                }
            }
        }

        let tactics = Tactics::with_open_lines(b, &self.rulebook, open_lines);
        let mut list = MoveList::new();
        // Only the scores in use are written: zeroing a whole list's worth at every node costs
        // more than scoring.
        let mut scores = ArrayVec::<i32, MAX_MOVES>::new();
        if let Some(m) = tt_move {
            list.push(m);
            scores.push(0);
        }

        let (others_here, marked) = if self.threads > 1 && ply < BREADCRUMB_PLIES {
            self.shared.breadcrumbs.visit(key, self.id)
        } else {
            (false, false)
        };
        // Late move pruning and futility pruning: far from the principal variation and near the
        // horizon, the quiet moves late in the order, and those the static eval says cannot
        // reach alpha, are not searched. Never while the king threatens to get out, which the
        // static eval misses; with the king in the net, never the moves that may take him.
        let prune_quiets = !pv_node
            && !threat
            && !beta.is_decisive()
            && (depth <= self.params.lmp_max_depth || depth <= self.params.futility_max_depth)
            && !*danger.get_or_insert_with(|| self.danger(b));
        let late_moves = self.params.lmp_base + self.params.lmp_per_depth_squared * depth * depth;
        let futile = depth <= self.params.futility_max_depth
            && eval.0 + self.params.futility_margin * depth <= alpha.0;
        // After the attackers' own swing, only the move back up the cliff is kept from pruning:
        // sparing every quiet move there costs the depth that finds the way back.
        let back = if swung.ours {
            self.move_back(ply)
        } else {
            None
        };
        let net = if prune_quiets && side == Side::Attackers {
            net_squares(b, &self.rulebook)
        } else {
            Bitboard::EMPTY
        };
        let cont = Continuation::new(side, b.king(), self.moves[p]);
        let original_alpha = alpha;
        let mut best = -Score::INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried = MoveList::new();
        let sort_after = self.params.sort_after as usize;
        let mut ordered_to = 0;
        let mut first_best = None;
        let mut i = 0;
        // After the table's move the moves come in two stages (`generate_stage`). Half the
        // nodes that list moves are cut by their first, nearly always of the first stage.
        let mut extras = ArrayVec::<Move<G>, 3>::new();
        let mut stage = 0;
        loop {
            // Only once a move that does not lose is in hand: pruning the moves of a side whose
            // every move so far loses would hide its one defence and make a false win. Once
            // on, it stays on: `searched` and `best` only grow.
            let pruning = prune_quiets
                && searched > 0
                && !(best.is_decisive() && best.0 < 0)
                && ((depth <= self.params.lmp_max_depth && searched as i32 >= late_moves)
                    || futile);
            if i == list.len() {
                let start = i;
                if stage == 2 {
                    break;
                }
                let killers = self.heuristics.killers(p);
                generate_stage(
                    b,
                    &self.rulebook,
                    &tactics,
                    // Where pruning is on already, only the quiet moves it spares.
                    (stage == 1).then_some(if pruning { net } else { Bitboard::ALL }),
                    tt_move,
                    [killers[0], killers[1], back],
                    &mut extras,
                    &mut list,
                );
                stage += 1;
                scores.extend(std::iter::repeat_n(0, list.len() - scores.len()));
                let hist = self.heuristics.histories(side, Some(cont));
                let first = score_moves(
                    b,
                    &list[start..],
                    &tactics,
                    None,
                    killers,
                    hist,
                    &mut scores[start..],
                );
                first_best = Some(start + first);
                if depth >= self.params.policy_min_depth
                    && self.order_by_policy(b, ply, &list[start..], &mut scores[start..])
                {
                    first_best = None;
                }
                if let Some(back) = back
                    && let Some(j) = list[start..].iter().position(|&m| m == back)
                {
                    scores[start + j] = scores[start + j].max(MOVE_BACK);
                    first_best = None;
                }
                // An empty stage brings on the next.
                continue;
            }
            // The first stage is listed at move 0 or 1, so from `sort_after` (at least 1) on
            // each stage's moves come in runs put in order at once: where pruning will skip
            // the quiet moves past `late_moves`, a run of those still to be searched, and once
            // it skips them, the moves it spares alone. The order is the same as sorting all at
            // once.
            if i < sort_after {
                // Scoring found the first pick after generation.
                match first_best.take() {
                    Some(j) => {
                        list.swap(i, j);
                        scores.swap(i, j);
                    }
                    None => pick(&mut list, &mut scores, i),
                }
            } else if i >= ordered_to {
                if pruning {
                    retain_from(&mut list, &mut scores, i, |m| {
                        Some(m) == tt_move
                            || Some(m) == back
                            || tactics.is_noisy(b, m)
                            || net.contains(m.to())
                    });
                    if i == list.len() {
                        break;
                    }
                    ordered_to = sort_best(&mut list, &mut scores, i, MAX_MOVES);
                } else {
                    let left = late_moves - searched as i32;
                    let run = if prune_quiets && depth <= self.params.lmp_max_depth && left > 0 {
                        left as usize
                    } else {
                        MAX_MOVES
                    };
                    ordered_to = sort_best(&mut list, &mut scores, i, run);
                }
            }
            let mv = list[i];
            i += 1;
            if pruning
                && Some(mv) != tt_move
                && Some(mv) != back
                && !tactics.is_noisy(b, mv)
                && !net.contains(mv.to())
            {
                continue;
            }
            let mut child = *b;
            let (score, noisy) =
                match self.step(b, &mut child, mv, ply, quiet, depth >= 2, tactics.capturing) {
                    Step::Refused => continue,
                    Step::Won { captured } => {
                        self.pv_len[p + 1] = 0;
                        (
                            Score::win_in(ply + 1),
                            captured.any() || tactics.is_noisy(b, mv),
                        )
                    }
                    Step::Child { captured, quiet: q } => {
                        let noisy = captured.any() || tactics.is_noisy(b, mv);
                        let c = &child;
                        let s = if searched == 0 {
                            -self.negamax(c, depth - 1, -beta, -alpha, ply + 1, q)
                        } else {
                            let mut r = 0;
                            if depth >= self.params.lmr_min_depth
                                && searched >= self.params.lmr_full_moves as usize
                                && !noisy
                                && !threat
                                && Some(mv) != tt_move
                            {
                                r = self.heuristics.reduction(depth, searched);
                                if pv_node {
                                    r -= 1;
                                }
                                if others_here {
                                    r += 1;
                                }
                                r = r.clamp(0, depth - 2);
                            }
                            let mut s =
                                -self.negamax(c, depth - 1 - r, -alpha - 1, -alpha, ply + 1, q);
                            if s > alpha && r > 0 {
                                s = -self.negamax(c, depth - 1, -alpha - 1, -alpha, ply + 1, q);
                            }
                            if s > alpha && s < beta {
                                s = -self.negamax(c, depth - 1, -beta, -alpha, ply + 1, q);
                            }
                            s
                        };
                        self.leave();
                        (s, noisy)
                    }
                };
            searched += 1;
            if self.stopped() {
                if marked {
                    self.shared.breadcrumbs.release(key);
                }
                return Score::ZERO;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(p, mv);
                    if score >= beta {
                        if !noisy {
                            self.heuristics
                                .reward(side, p, mv, depth, &quiets_tried, cont);
                        }
                        break;
                    }
                }
            }
            if !noisy {
                quiets_tried.push(mv);
            }
        }
        if marked {
            self.shared.breadcrumbs.release(key);
        }
        if searched == 0 {
            return self.no_moves_score(side, ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move,
                score: best.to_tt(ply),
                eval,
                depth,
                bound,
            },
        );
        best
    }

    /// Adds the policy's word to the ordering scores of `moves`, the moves of `b` at `ply`:
    /// quiet moves alone, whose history it joins; the tactical ones keep their places. Returns
    /// whether there was a policy to ask.
    fn order_by_policy(
        &self,
        b: &Board<G>,
        ply: u32,
        moves: &[Move<G>],
        scores: &mut [i32],
    ) -> bool {
        let (Some(policy), Some(_)) = (self.shared.policy, self.shared.net) else {
            return false;
        };
        let mut logits = [0i32; MAX_MOVES];
        let logits = &mut logits[..moves.len()];
        policy.logits(&self.accumulators[ply as usize], b, moves, logits);
        let weight = i64::from(self.params.policy_order);
        for (s, &l) in scores.iter_mut().zip(logits.iter()) {
            if *s < QUIET_CEILING {
                *s += (i64::from(l) * weight / i64::from(LOGIT_UNIT)) as i32;
            }
        }
        true
    }

    /// Threats the static eval cannot see: a king on or next to the edge may build a fort
    /// with his next move, and a king two moves from a corner may make a double threat,
    /// which a position the eval already calls won would otherwise never look for. Worked
    /// out only where pruning would otherwise happen. (The king in the net has
    /// [`net_squares`].)
    fn danger(&self, b: &Board<G>) -> bool {
        if b.side_to_move() != Side::Attackers {
            return false;
        }
        let reach = Bitboard::rook_targets(b.king(), b.occupied());
        (self.rulebook.rules().exit_fort && (reach.with(b.king()) & Bitboard::EDGE).any())
            || KingRoutes::within(b, &self.rulebook, reach, DANGER_ESCAPE_DISTANCE)
    }
}
