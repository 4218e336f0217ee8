//! Move ordering: the table's move, wins and urgent king moves, captures, killers, history.

pub(crate) use super::alphabeta::Histories;
use super::eval::features::escape_sight;
use super::eval::open_escape_lines;
use crate::board::Custodial;
use crate::board::{Bitboard, Board, Move, Rulebook};
use crate::board::{Geometry, MAX_MOVES};

/// What a node knows about the tactics of its position, computed once and shared by ordering,
/// pruning decisions and the quiescence search.
pub struct Tactics<G: Geometry> {
    /// Landing squares that capture custodially, per direction of the victim.
    capture_squares: [Bitboard<G>; 4],
    /// Union of the above.
    pub any_capture: Bitboard<G>,
    /// The squares the king wins on.
    pub escape: Bitboard<G>,
    /// Squares from which the king would see an escape square along an open line.
    pub escape_sight: Bitboard<G>,
    /// Escape squares the king sees now.
    pub open_lines: Bitboard<G>,
    /// Squares between the king and the escape squares he sees: where attackers must block.
    pub block_squares: Bitboard<G>,
}

impl<G: Geometry> Tactics<G> {
    /// The tactics of `board`.
    pub fn new(board: &Board<G>, rulebook: &Rulebook<G>) -> Tactics<G> {
        Tactics::with_open_lines(board, rulebook, open_escape_lines(board, rulebook))
    }

    /// The tactics of `board`, whose open lines ([`open_escape_lines`]) the caller found
    /// first: a node cut by the table or its static eval never needs the rest.
    pub fn with_open_lines(
        board: &Board<G>,
        rulebook: &Rulebook<G>,
        open_lines: Bitboard<G>,
    ) -> Tactics<G> {
        let king = board.king();
        let capture_squares =
            Custodial::of(board, board.side_to_move(), rulebook).landings(!board.occupied());
        let any_capture = capture_squares
            .iter()
            .fold(Bitboard::EMPTY, |all, &s| all | s);
        let escape_sight = escape_sight(board.occupied().without(king), rulebook);
        let mut block_squares = Bitboard::EMPTY;
        for corner in open_lines {
            block_squares |= Bitboard::between(king, corner);
        }
        Tactics {
            capture_squares,
            any_capture,
            escape: rulebook.terrain().escape,
            escape_sight,
            open_lines,
            block_squares,
        }
    }

    /// Pieces the move would capture custodially (shieldwalls not counted).
    pub fn captures(&self, mv: Move<G>) -> u32 {
        self.capture_squares
            .iter()
            .filter(|s| s.contains(mv.to()))
            .count() as u32
    }

    /// Captures, wins and moves that answer or make a king threat.
    #[inline(always)]
    pub fn is_noisy(&self, board: &Board<G>, mv: Move<G>) -> bool {
        let to = mv.to();
        self.any_capture.contains(to)
            || (mv.from() == board.king()
                && (self.escape.contains(to) || self.escape_sight.contains(to)))
            || self.block_squares.contains(to)
    }
}

/// The table's move: first of all.
pub const TT_MOVE: i32 = 1 << 30;
const WIN_MOVE: i32 = 1 << 29;
const BLOCK: i32 = 1 << 27;
const CAPTURE: i32 = 1 << 25;
const KING_THREAT: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;
/// Below this, a move's ordering score is history alone (and a killer's bonus): a quiet move,
/// which the policy may move up or down.
pub const QUIET_CEILING: i32 = KILLER / 2;
/// A side's last move taken back, where the eval swung (`Worker::swung`): after blocks.
pub const MOVE_BACK: i32 = BLOCK - 1;

/// Scores every move of `list` for ordering, best first when sorted descending.
pub(crate) fn score_moves<G: Geometry>(
    board: &Board<G>,
    list: &[Move<G>],
    tactics: &Tactics<G>,
    tt_move: Option<Move<G>>,
    killers: [Option<Move<G>>; 2],
    history: Histories<'_, G>,
    scores: &mut [i32],
) {
    let king = board.king();
    // Most moves land nowhere special: they get history and killer scores only.
    let special = tactics.any_capture | tactics.block_squares;
    for (i, &mv) in list.iter().enumerate() {
        let to = mv.to();
        let from = mv.from();
        scores[i] = if Some(mv) == tt_move {
            TT_MOVE
        } else if from == king && tactics.escape.contains(to) {
            WIN_MOVE
        } else {
            let mut s = history.score(mv);
            if special.contains(to) {
                s += CAPTURE * tactics.captures(mv) as i32;
                if tactics.block_squares.contains(to) {
                    s += BLOCK;
                }
            }
            if from == king && tactics.escape_sight.contains(to) {
                s += KING_THREAT;
            }
            if s < KILLER && (Some(mv) == killers[0] || Some(mv) == killers[1]) {
                s += KILLER - (Some(mv) == killers[1]) as i32;
            }
            s
        };
    }
}

/// Sorts the moves from `i` on by score, best first, in one go: cheaper than picking one by one
/// once a node has turned out to need most of its moves.
pub fn sort_rest<G: Geometry>(list: &mut [Move<G>], scores: &mut [i32], i: usize) {
    let n = list.len();
    let mut packed: arrayvec::ArrayVec<i64, MAX_MOVES> = (i..n)
        .map(|j| (scores[j] as i64) << 16 | list[j].raw() as i64)
        .collect();
    packed.sort_unstable_by(|a, b| b.cmp(a));
    for (j, p) in (i..n).zip(packed) {
        scores[j] = (p >> 16) as i32;
        list[j] = Move::from_raw(p as u16).expect("packed from a move");
    }
}

/// Picks the best remaining move into place `i` (selection sort, one step).
pub fn pick<G: Geometry>(list: &mut [Move<G>], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..list.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    list.swap(i, best);
    scores.swap(i, best);
}
