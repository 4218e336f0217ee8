//! The root of the tree: every root move searched with the window of its line, and its score
//! and principal variation kept for the next iteration.

use super::{Step, Worker};
use crate::board::Geometry;
use crate::board::{Bitboard, Board, Move};
use crate::search::score::Score;
use crate::search::size::Size;

/// A root move with the score and line of its last full search.
#[derive(Clone, Debug)]
pub struct RootMove<G: Geometry> {
    pub mv: Move<G>,
    pub score: Score,
    pub pv: Vec<Move<G>>,
    pub seldepth: u32,
}

impl<G: Size> Worker<'_, G> {
    pub(super) fn root_search(
        &mut self,
        board: &Board<G>,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        root_moves: &mut [RootMove<G>],
        first: usize,
    ) -> Score {
        self.count_node();
        let quiet = self.path.quiet_at_root();
        let eval = self.evaluate(board, 0);
        self.swung(0, board, eval, board.side_to_move());
        let mut best = -Score::INFINITE;
        // Odd helper threads take the root moves after the first in reverse order: the two
        // threads then meet in the middle, each finding the other's results in the table.
        let n = root_moves.len();
        let order: Vec<usize> = if self.id % 2 == 1 {
            std::iter::once(first).chain((first + 1..n).rev()).collect()
        } else {
            (first..n).collect()
        };
        for i in order {
            let mv = root_moves[i].mv;
            let mut child = *board;
            let score = match self.step(board, &mut child, mv, 0, quiet, depth >= 2, Bitboard::ALL)
            {
                Step::Refused => continue,
                Step::Won { .. } => {
                    self.pv_len[1] = 0;
                    Score::win_in(1)
                }
                Step::Child { quiet: q, .. } => {
                    let c = &child;
                    let mut s = if i == first {
                        -self.negamax(c, depth - 1, -beta, -alpha, 1, q)
                    } else {
                        let s = -self.negamax(c, depth - 1, -alpha - 1, -alpha, 1, q);
                        if s > alpha && s < beta {
                            -self.negamax(c, depth - 1, -beta, -alpha, 1, q)
                        } else {
                            s
                        }
                    };
                    self.leave();
                    if self.stopped() {
                        return best;
                    }
                    if s.is_decisive() && s.0 > 0 {
                        s = s.min(Score::win_in(1));
                    }
                    s
                }
            };
            let rm = &mut root_moves[i];
            if score > alpha || i == first {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend(self.pv[1][..self.pv_len[1]].iter().flatten());
            } else {
                rm.score = -Score::INFINITE;
            }
            if score > alpha
                && self
                    .root_best
                    .as_ref()
                    .is_none_or(|b| score > b.score || b.mv == mv)
            {
                self.root_best = Some(rm.clone());
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}
