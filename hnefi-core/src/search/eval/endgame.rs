//! What the search adds to the evaluation (the hand one or the network) in endings the fitted
//! evaluation cannot tell apart.
//!
//! The lone king: once the defenders are down to their king, the attackers' lead scores
//! thousands of cp wherever they stand, so nothing in the score leads them on, and a search of
//! match speed does not see a win many moves away. In 100 games at 10 ms a move between a0001b0
//! and 9c57bee, 34 of the 35 draws were a lone king running free for hundreds of plies in front
//! of 14 to 23 attackers. A king on the edge is never captured: the attackers win by shutting
//! him in a room with no way to the edge (encirclement) or with no move at all. So each square of
//! the board the king can no longer reach, and each move he no longer has, counts for them.
//! The hand evaluation's squeeze (`features::SQUEEZE`) counts the room as well, but only while
//! the king stands three moves or more from every corner, and that was not enough.
//!
//! A single soldier kept standing switched the term off: so the king counts as alone while at
//! most `LoneKingSoldiers` soldiers stand (1 beat 0 by 28 Elo, docs/history/strength-log.md).

use crate::board::Geometry;
use crate::board::square::Direction;
use crate::board::{Bitboard, Board};
use crate::search::eval::MAX_EVAL;
use crate::search::params::{LONE_KING_BEYOND_DIVISOR, LONE_KING_MAX};

/// The lone king's ending, in cp for the attackers: `room_cp` for every square of the board
/// outside the king's room (the squares he reaches step by step past no attacker) and
/// `move_cp` for every move he lacks of the most a king can have. Zero while more than
/// `soldiers` defender soldiers stand, and never negative, so taking one never looks bad.
#[inline]
pub fn lone_king<G: Geometry>(board: &Board<G>, soldiers: i32, room_cp: i32, move_cp: i32) -> i32 {
    if board.defenders().count() as i32 > soldiers {
        return 0;
    }
    let king = Bitboard::from_square(board.king());
    let room = king.flood(!board.attackers());
    let empty = !board.occupied();
    let moves: u32 = Direction::ALL
        .iter()
        .map(|&dir| king.slide(dir, empty).count())
        .sum();
    let most_moves = 2 * (i32::from(G::SIDE) - 1);
    room_cp * (G::SQUARES as i32 - room.count() as i32) + move_cp * (most_moves - moves as i32)
}

/// The evaluation of a lone king's ending: `fitted` (at most `MAX_EVAL`, 20,000) and `lone`
/// ([`lone_king`]) on top, both from the same side's view. Above `MAX_EVAL` the sum counts
/// half: clamped there, as before, a won ring scored the cap whatever the attackers did, and
/// they moved one piece to and fro for the rest of the game (issue 46's stuck positions). Half
/// keeps the largest room the default parameters give (14,000) below [`LONE_KING_MAX`].
#[inline]
pub fn with_lone_king(fitted: i32, lone: i32) -> i32 {
    let sum = fitted.saturating_add(lone);
    let beyond = (sum.abs() - MAX_EVAL).max(0);
    let halved = sum.signum() * (MAX_EVAL.min(sum.abs()) + beyond / LONE_KING_BEYOND_DIVISOR);
    halved.clamp(-LONE_KING_MAX, LONE_KING_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Eleven;

    fn board(fen: &str) -> Board<Eleven> {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn counts_only_once_the_king_stands_alone() {
        assert_eq!(lone_king(&Board::<Eleven>::start(), 0, 10, 10), 0);
        let one_defender = board("3aaaaa3/5a5/11/a3d5a/a9a/aa3k3aa/a9a/a9a/11/5a5/3aaaaa3 a");
        assert_eq!(lone_king(&one_defender, 0, 10, 10), 0);
        // Unless one soldier still counts as alone: the soldier's square is the king's room.
        assert_eq!(lone_king(&one_defender, 1, 1, 0), 24);
        assert_eq!(lone_king(&Board::<Eleven>::start(), 11, 10, 10), 0);
    }

    #[test]
    fn the_room_shows_above_the_fitted_evaluations_cap() {
        use crate::search::score::Score;
        // The stuck game's ring: the network scores it 9,194 and the room adds 11,600. One
        // square less of the king's room must still be worth more, for either side's view.
        let less_room = with_lone_king(9_194, 11_700);
        assert!(less_room > with_lone_king(9_194, 11_600));
        assert!(-less_room < with_lone_king(-9_194, -11_600));
        // The same where the fitted evaluation is at its own cap, and the largest room the
        // default parameters give.
        assert!(with_lone_king(MAX_EVAL, 14_000) > with_lone_king(MAX_EVAL, 13_900));
        // Below the knee nothing changes; a lone king never scores less than the fitted
        // evaluation alone.
        assert_eq!(with_lone_king(5_000, 3_000), 8_000);
        assert_eq!(with_lone_king(MAX_EVAL, 0), MAX_EVAL);
        // Never a decisive score, whatever the parameters.
        assert!(!Score(with_lone_king(MAX_EVAL, i32::MAX / 2)).is_decisive());
        assert!(!Score(with_lone_king(-MAX_EVAL, -(i32::MAX / 2))).is_decisive());
    }

    #[test]
    fn a_king_shut_in_is_worth_more_than_a_free_one() {
        // Alone on the throne among 24 attackers: all other squares are his room, and he has
        // 12 of a king's 20 moves.
        let free = board("3aaaaa3/5a5/11/a9a/a9a/aa3k3aa/a9a/a9a/11/5a5/3aaaaa3 a");
        assert_eq!(lone_king(&free, 0, 1, 0), 24);
        assert_eq!(lone_king(&free, 0, 0, 1), 8);
        // Boxed in on the throne by four more: a room of one square, no move.
        let boxed = board("3aaaaa3/5a5/11/a9a/a4a4a/aa2aka2aa/a4a4a/a9a/11/5a5/3aaaaa3 a");
        assert!(boxed.defenders().is_empty());
        assert_eq!(lone_king(&boxed, 0, 0, 1), 20);
        assert_eq!(lone_king(&boxed, 0, 1, 0), 121 - 1);
        assert!(lone_king(&boxed, 0, 20, 20) > lone_king(&free, 0, 20, 20));
    }
}
