//! Static evaluation: material, the king's way to the corners, the attackers' ring, corner
//! guards, pressure on the king and mobility. Computed for the attackers and then turned to
//! the side to move; each term can be shown on its own.

use super::params::*;
use super::score::Score;
use crate::board::square::Direction;
use crate::board::{Bitboard, Board, Side};

/// The evaluation's terms, in the order [`terms`] returns them.
pub const TERM_NAMES: [&str; 9] = [
    "material",
    "corner distance",
    "king freedom",
    "edge control",
    "open edge / ring",
    "corner guards",
    "king pressure",
    "mobility",
    "tempo",
];

/// Squares beside the corners' approaches where attackers block the king: b3, c2 and mirrors.
const GUARD_SQUARES: Bitboard =
    Bitboard(1 << 13 | 1 << 23 | 1 << 19 | 1 << 31 | 1 << 89 | 1 << 97 | 1 << 107 | 1 << 101);

/// King moves needed to reach a corner on this board (1 = an open line), capped at 4.
pub fn corner_distance(board: &Board) -> usize {
    let occupied = board.occupied();
    let reach = Bitboard::rook_targets(board.king(), occupied);
    if (reach & Bitboard::CORNERS).any() {
        return 1;
    }
    // Squares that see a corner along an open line: one move from it.
    let mut sight = Bitboard::EMPTY;
    for corner in Bitboard::CORNERS {
        sight |= Bitboard::rook_targets(corner, occupied);
    }
    if (reach & sight).any() {
        return 2;
    }
    let empty = !occupied;
    let mut two = reach;
    for dir in Direction::ALL {
        two |= reach.slide(dir, empty);
    }
    if (two & sight).any() { 3 } else { 4 }
}

/// The corners the king could enter right now, along an open line.
pub fn open_corner_lines(board: &Board) -> Bitboard {
    Bitboard::rook_targets(board.king(), board.occupied()) & Bitboard::CORNERS
}

/// Every term, in cp for the attackers (negative favours the defenders).
pub fn terms(board: &Board) -> [i32; 9] {
    let attackers = board.attackers();
    let defenders = board.defenders();
    let king = board.king();
    let occupied = board.occupied();

    // Counted from the start's 24 and 12, so that material reads 0 when nothing is taken.
    let material = (attackers.count() as i32 - 24) * ATTACKER_VALUE
        - (defenders.count() as i32 - 12) * DEFENDER_VALUE;
    let corner = -CORNER_DISTANCE_BONUS[corner_distance(board)];
    let king_reach = Bitboard::rook_targets(king, occupied);
    let freedom = -(king_reach.count() as i32) * KING_FREEDOM;
    let edges = [
        Bitboard::RANK_1,
        Bitboard::RANK_11,
        Bitboard::FILE_A,
        Bitboard::FILE_K,
    ];
    let edge_control =
        -(edges.iter().filter(|&&e| (king_reach & e).any()).count() as i32) * KING_EDGE_ACCESS;

    let region = board.pieces(Side::Defenders).flood(!attackers);
    let open_edge = (region & Bitboard::EDGE).count() as i32;
    let ring = if open_edge == 0 {
        RING_CLOSED
    } else {
        -open_edge * OPEN_EDGE
    };

    let guards = (attackers & GUARD_SQUARES).count() as i32 * CORNER_GUARD;
    let pressure =
        (attackers & Bitboard::from_square(king).neighbours()).count() as i32 * KING_PRESSURE;

    let (att_moves, def_moves) = match board.side_to_move() {
        Side::Attackers => (
            board.count_moves(),
            board.with_side_to_move(Side::Defenders).count_moves(),
        ),
        Side::Defenders => (
            board.with_side_to_move(Side::Attackers).count_moves(),
            board.count_moves(),
        ),
    };
    let mobility = (att_moves as i32 - def_moves as i32) * MOBILITY;
    let tempo = match board.side_to_move() {
        Side::Attackers => TEMPO,
        Side::Defenders => -TEMPO,
    };
    [
        material,
        corner,
        freedom,
        edge_control,
        ring,
        guards,
        pressure,
        mobility,
        tempo,
    ]
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(board: &Board) -> Score {
    let total: i32 = terms(board).iter().sum();
    match board.side_to_move() {
        Side::Attackers => Score(total),
        Side::Defenders => Score(-total),
    }
}

/// A table of the terms, for people: one line per term, the attackers' view.
pub fn breakdown(board: &Board) -> String {
    let t = terms(board);
    let mut out = String::from("term               attackers' view (cp)\n");
    for (name, v) in TERM_NAMES.iter().zip(t) {
        out.push_str(&format!("{name:<18} {v:>+6}\n"));
    }
    let total: i32 = t.iter().sum();
    out.push_str(&format!("{:<18} {total:>+6}\n", "total"));
    out.push_str(&format!(
        "side to move ({}): {}\n",
        board.side_to_move(),
        evaluate(board)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::board::notation::parse_fen;

    #[test]
    fn guard_squares() {
        let names: Vec<String> = GUARD_SQUARES.map(|s: Square| s.to_string()).collect();
        for s in ["b3", "c2", "j3", "i2", "b9", "c10", "j9", "i10"] {
            assert!(names.contains(&s.to_string()), "{s} in {names:?}");
        }
    }

    #[test]
    fn start_is_symmetric_and_balanced() {
        let b = Board::start();
        assert_eq!(corner_distance(&b), 4);
        assert!(open_corner_lines(&b).is_empty());
        let s = evaluate(&b).0;
        assert!(s.abs() < 400, "{s}");
        assert!(breakdown(&b).contains("material"));
    }

    #[test]
    fn open_line_counts_as_distance_one() {
        let b = parse_fen("11/11/11/11/11/11/11/11/11/5a5/1k3a5 d").unwrap();
        assert_eq!(corner_distance(&b), 1);
        assert_eq!(open_corner_lines(&b).count(), 1);
        let b2 = parse_fen("11/11/11/11/11/11/11/11/11/5a5/1ka2a5 d").unwrap();
        assert!(open_corner_lines(&b2).count() == 1);
        assert!(evaluate(&b).0 > evaluate(&b2.with_side_to_move(Side::Defenders)).0 - 2000);
    }
}
