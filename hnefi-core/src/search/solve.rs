//! An exhaustive solver for short forced wins: does the side to move win within `n` of its
//! own moves, whatever the opponent does? No evaluation and no pruning that could miss a
//! defence; repetition is not considered. Used to build and check `positions/tactics.epd`.

use super::eval::open_escape_lines;
use crate::board::zobrist::Key;
use crate::board::{Board, Move, MoveList, Rulebook};
use crate::board::{Geometry, Rules, Side};
use crate::search::size::Size;
use fxhash::FxHashMap;

/// The solver's work ran out before it could answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfBudget;

/// A proof search with a memory of proved answers and a budget of moves played.
pub struct Solver<G: Geometry> {
    rulebook: Rulebook<G>,
    memo: FxHashMap<(Key, u32), bool>,
    budget: u64,
}

impl<G: Size> Solver<G> {
    /// A solver that gives up after playing `budget` moves.
    pub fn new(rules: Rules, budget: u64) -> Solver<G> {
        Solver {
            rulebook: Rulebook::new(rules),
            memo: FxHashMap::default(),
            budget,
        }
    }

    /// The fewest moves (up to `max`) in which the side to move forces a win, if it can.
    pub fn shortest_win(&mut self, board: &Board<G>, max: u32) -> Result<Option<u32>, OutOfBudget> {
        for n in 1..=max {
            if self.wins(board, n)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// Every first move that wins within `n` moves.
    pub fn winning_moves(&mut self, board: &Board<G>, n: u32) -> Result<Vec<Move<G>>, OutOfBudget> {
        let mut out = Vec::new();
        for mv in ordered_moves(board, &self.rulebook) {
            if self.move_wins(board, mv, n)? {
                out.push(mv);
            }
        }
        Ok(out)
    }

    /// Whether the side to move wins within `n` of its own moves (2n - 1 plies).
    pub fn wins(&mut self, board: &Board<G>, n: u32) -> Result<bool, OutOfBudget> {
        if n == 0 {
            return Ok(false);
        }
        if let Some(&known) = self.memo.get(&(board.key(), n)) {
            return Ok(known);
        }
        let mut result = false;
        for mv in ordered_moves(board, &self.rulebook) {
            if self.move_wins(board, mv, n)? {
                result = true;
                break;
            }
        }
        self.memo.insert((board.key(), n), result);
        Ok(result)
    }

    fn move_wins(&mut self, board: &Board<G>, mv: Move<G>, n: u32) -> Result<bool, OutOfBudget> {
        self.budget = self.budget.checked_sub(1).ok_or(OutOfBudget)?;
        let mut child = *board;
        child.play(mv, &self.rulebook);
        if self.rulebook.mover_win(&child, mv).is_some() {
            return Ok(true);
        }
        let replies = ordered_moves(&child, &self.rulebook);
        if replies.is_empty() {
            let stuck = child.side_to_move();
            return Ok(self.rulebook.no_moves(stuck).winner == Some(stuck.opponent()));
        }
        if n <= 1 {
            return Ok(false);
        }
        // A defender king with an open line answers anything by escaping.
        if child.side_to_move() == Side::Defenders
            && open_escape_lines(&child, &self.rulebook).any()
        {
            return Ok(false);
        }
        for reply in replies {
            let mut after = child;
            after.play(reply, &self.rulebook);
            if self.rulebook.mover_win(&after, reply).is_some() || !self.wins(&after, n - 1)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The moves, the king's and those landing near him first: short wins and the defences
/// against them are found there.
fn ordered_moves<G: Geometry>(board: &Board<G>, rulebook: &Rulebook<G>) -> MoveList<G> {
    let mut list = MoveList::new();
    board.generate_moves(rulebook, &mut list);
    let king = board.king();
    list.sort_by_key(|m| {
        let near = m.to().file().abs_diff(king.file()) + m.to().rank().abs_diff(king.rank());
        (m.from() != king, near)
    });
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_fen;

    fn solver() -> Solver<crate::board::Eleven> {
        Solver::new(Rules::default(), u64::MAX)
    }

    #[test]
    fn open_line_is_a_win_in_one() {
        let b = parse_fen("11/11/11/11/11/11/11/11/11/5a5/1k3a5 d").unwrap();
        assert_eq!(solver().shortest_win(&b, 2), Ok(Some(1)));
        let w = solver().winning_moves(&b, 1).unwrap();
        assert_eq!(
            w.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            ["b1a1"]
        );
    }

    #[test]
    fn two_open_lines_win_in_two() {
        // King c3 sees no corner; moving to a3 or c11 opens two lines at once.
        let b = parse_fen("11/11/11/11/11/11/11/11/2k8/11/5a5 d").unwrap();
        assert_eq!(solver().shortest_win(&b, 2), Ok(Some(2)));
        assert_eq!(solver().shortest_win(&Board::start(), 2), Ok(None));
        assert_eq!(
            Solver::new(Rules::default(), 10).shortest_win(&Board::start(), 2),
            Err(OutOfBudget)
        );
    }
}
