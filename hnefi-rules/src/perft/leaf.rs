//! perft's last two plies fused, on the classic boards (Copenhagen's moves and captures).
//!
//! At a node two plies above the leaves, each child's moves are counted from the node's own,
//! line by line: a move that captures nothing changes the board on the rank and the file of
//! its two squares alone, so the child's count is the node's count for the side that will
//! move there, less those three lines' old counts, plus their new ones. A line's count is a
//! few operations on a 13-bit pattern instead of four slides over the whole board, and the
//! child is never made whole: which moves capture is read for all the node's moves at once
//! from the squares where a landing closes a capture. Moves that capture, and the shieldwall
//! on the edge, take the full make and count.

use crate::board::captures::Custodial;
use crate::board::geometry::{Geometry, Word};
use crate::board::moves::MoveList;
use crate::board::position::{Board, WayOut};
use crate::board::rulebook::Rulebook;
use crate::board::{Bitboard, Side, Square};

/// Whether [`leaf_parents`] counts under `rulebook`: the classic boards' moves (men stop on
/// no restricted square, pass the empty throne, the king goes anywhere) and captures.
pub(super) fn applies<G: Geometry>(rulebook: &Rulebook<G>) -> bool {
    let terrain = rulebook.terrain();
    let rules = rulebook.rules();
    terrain.classic_moves
        && terrain.classic_captures
        && rules.king_hammer
        && rules.king_anvil
        && !rules.linnaean
        && !rules.shieldwall_any_move
        && G::SIDE <= 13
}

/// The leaves two plies below `board`, whose moves are `list` and whose defenders' way out
/// (where the attackers are to move) is `way_out`: the same count as making each child and
/// counting its moves. Only where [`applies`] holds.
pub(super) fn leaf_parents<G: Geometry>(
    board: &Board<G>,
    list: &MoveList<G>,
    rulebook: &Rulebook<G>,
    way_out: Option<&WayOut<G>>,
) -> u64 {
    let mover = board.side_to_move();
    let rules = rulebook.rules();
    let lines = Lines::new(board, mover.opponent());
    // Where a landing may capture: a custodial capture's landings, and where the rules have
    // shieldwalls, the edge squares beside an enemy on the edge (a shieldwall starts there).
    let empty = !board.occupied();
    let landings = Custodial::of(board, mover, rulebook)
        .landings(empty)
        .into_iter()
        .fold(Bitboard::EMPTY, |all, l| all | l);
    let capturing = rulebook.capture_squares(board, landings);
    // The moves that capture nothing and may still win, which the rulebook judges on the
    // child: the attackers' landings beside the king (his capture) or on the defenders' way
    // out (an encirclement; every landing where none was found); the king's own moves (his
    // escape), and every move where the defenders have exit forts and the king is on the edge.
    let king = board.king();
    let (judge_all, judged) = match mover {
        Side::Attackers => {
            let encircles = rules.encirclement;
            (
                encircles && way_out.is_none(),
                Bitboard::from_square(king).neighbours()
                    | way_out
                        .filter(|_| encircles)
                        .map_or(Bitboard::EMPTY, |w| w.path()),
            )
        }
        Side::Defenders => (rules.exit_fort && king.is_edge(), Bitboard::EMPTY),
    };
    let mut total = 0;
    for &mv in list {
        let (from, to) = (mv.from(), mv.to());
        let mut child = *board;
        if capturing.contains(to) {
            child.play(mv, rulebook);
            if rulebook.mover_win_past(&child, mv, way_out).is_none() {
                total += u64::from(child.count_moves(rulebook));
            }
            continue;
        }
        if judge_all || judged.contains(to) || from == king {
            child.play_quiet(mv);
            if rulebook.mover_win_past(&child, mv, way_out).is_some() {
                continue;
            }
        }
        total += u64::from(lines.after(from, to));
    }
    total
}

/// The longest line: 13x13's.
const MAX_LINE: usize = 13;

/// `MAX_LINE` bits reversed, for every pattern: a line read from its other end, so that the
/// sum that finds the squares above a piece finds those below it too.
static REVERSED: [u16; 1 << MAX_LINE] = reversed();

const fn reversed() -> [u16; 1 << MAX_LINE] {
    let mut table = [0; 1 << MAX_LINE];
    let mut pattern = 0;
    while pattern < 1 << MAX_LINE {
        let mut bit = 0;
        while bit < MAX_LINE {
            if pattern & (1 << bit) != 0 {
                table[pattern] |= 1 << (MAX_LINE - 1 - bit);
            }
            bit += 1;
        }
        pattern += 1;
    }
    table
}

/// One side's moves on a board by line: for each rank (`0..SIDE`) and then each file
/// (`SIDE..2 * SIDE`), the squares taken, the side's men and its king as bit patterns along
/// the line (a rank's bit `i` is file `i`, a file's bit `i` rank `i`), and the side's moves
/// along it.
struct Lines<G: Geometry> {
    occupied: [u16; 2 * MAX_LINE],
    /// The side's pieces, the king included, and the same read from the line's other end.
    pieces: [u16; 2 * MAX_LINE],
    pieces_back: [u16; 2 * MAX_LINE],
    /// The king where he is on the line and it has restricted squares, which he alone may
    /// stop on; else nothing.
    king: [u16; 2 * MAX_LINE],
    /// The restricted squares of the line: the corners at both ends of the edge lines, the
    /// throne in the middle of the centre lines (the same read from either end).
    restricted: [u16; 2 * MAX_LINE],
    moves: [u32; 2 * MAX_LINE],
    total: u32,
    _size: std::marker::PhantomData<G>,
}

impl<G: Geometry> Lines<G> {
    const SIDE: usize = G::SIDE as usize;
    const FULL: u16 = (1 << G::SIDE) - 1;

    /// The moves of `side` on `board`, whoever is to move there.
    fn new(board: &Board<G>, side: Side) -> Lines<G> {
        let mut lines = Lines {
            occupied: [0; 2 * MAX_LINE],
            pieces: [0; 2 * MAX_LINE],
            pieces_back: [0; 2 * MAX_LINE],
            king: [0; 2 * MAX_LINE],
            restricted: [0; 2 * MAX_LINE],
            moves: [0; 2 * MAX_LINE],
            total: 0,
            _size: std::marker::PhantomData,
        };
        let side_len = Self::SIDE;
        let set = |patterns: &mut [u16; 2 * MAX_LINE], squares: Bitboard<G>| {
            for (rank, pattern) in patterns[..side_len].iter_mut().enumerate() {
                *pattern = ((squares.0 >> (rank * side_len) as u32).low_u64() as u16) & Self::FULL;
            }
            squares.0.for_each_bit(|index| {
                let (rank, file) = (index as usize / side_len, index as usize % side_len);
                patterns[side_len + file] |= 1 << rank;
            });
        };
        set(&mut lines.occupied, board.occupied());
        set(&mut lines.pieces, board.pieces(side));
        if side == Side::Defenders {
            set(&mut lines.king, Bitboard::from_square(board.king()));
        }
        for line in 0..2 * side_len {
            let along = line % side_len;
            lines.restricted[line] = if along == 0 || along == side_len - 1 {
                1 | 1 << (side_len - 1)
            } else if along == side_len / 2 {
                1 << (side_len / 2)
            } else {
                0
            };
            if lines.restricted[line] == 0 {
                lines.king[line] = 0;
            }
            lines.pieces_back[line] = reverse::<G>(lines.pieces[line]);
            lines.moves[line] = lines.count(line, lines.occupied[line]);
            lines.total += lines.moves[line];
        }
        lines
    }

    /// The side's moves along `line` were its squares taken `occupied`.
    #[inline(always)]
    fn count(&self, line: usize, occupied: u16) -> u32 {
        let empty = !occupied & Self::FULL;
        let empty_back = reverse::<G>(empty);
        let restricted = self.restricted[line];
        let mut moves = (slide_up::<G>(self.pieces[line], empty) & !restricted).count_ones()
            + (slide_up::<G>(self.pieces_back[line], empty_back) & !restricted).count_ones();
        let king = self.king[line];
        if king != 0 {
            moves += (slide_up::<G>(king, empty) & restricted).count_ones()
                + (slide_up::<G>(reverse::<G>(king), empty_back) & restricted).count_ones();
        }
        moves
    }

    /// The side's moves after a move of the other side from `from` to `to` that captured
    /// nothing.
    #[inline(always)]
    fn after(&self, from: Square<G>, to: Square<G>) -> u32 {
        let side = Self::SIDE;
        let (from_rank, from_file) = (usize::from(from.rank()), usize::from(from.file()));
        let (to_rank, to_file) = (usize::from(to.rank()), usize::from(to.file()));
        // The line the piece moved along, and the two it crossed.
        let (along, along_occupied, left, left_occupied, entered, entered_occupied) =
            if from_rank == to_rank {
                (
                    from_rank,
                    self.occupied[from_rank] ^ (1 << from_file) ^ (1 << to_file),
                    side + from_file,
                    self.occupied[side + from_file] & !(1 << from_rank),
                    side + to_file,
                    self.occupied[side + to_file] | 1 << to_rank,
                )
            } else {
                (
                    side + from_file,
                    self.occupied[side + from_file] ^ (1 << from_rank) ^ (1 << to_rank),
                    from_rank,
                    self.occupied[from_rank] & !(1 << from_file),
                    to_rank,
                    self.occupied[to_rank] | 1 << to_file,
                )
            };
        self.total - self.moves[along] - self.moves[left] - self.moves[entered]
            + self.count(along, along_occupied)
            + self.count(left, left_occupied)
            + self.count(entered, entered_occupied)
    }
}

/// A line's pattern read from its other end.
#[inline(always)]
fn reverse<G: Geometry>(pattern: u16) -> u16 {
    REVERSED[usize::from(pattern)] >> (MAX_LINE - G::SIDE as usize)
}

/// The empty squares of a line that `pieces` reach going up the line (towards its higher
/// bits) through `empty`: adding a bit just above each piece to the empty squares carries up
/// each run of empty squares that starts there, and stops at the first square taken (or at
/// the line's last square, which is left out of the sum so that no carry leaves the line).
#[inline(always)]
fn slide_up<G: Geometry>(pieces: u16, empty: u16) -> u16 {
    let full: u16 = (1 << G::SIDE) - 1;
    let runs = empty & !(1 << (G::SIDE - 1));
    let starts = (pieces << 1) & full;
    ((runs + starts) ^ runs) & empty
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Eleven, Preset, Rules, Seven, Thirteen};
    use crate::splitmix::SplitMix64;

    /// The leaves two plies down, each child made and counted whole.
    fn made<G: Geometry>(
        board: &Board<G>,
        list: &MoveList<G>,
        rulebook: &Rulebook<G>,
        way_out: Option<&WayOut<G>>,
    ) -> u64 {
        list.iter()
            .map(|&mv| {
                let mut child = *board;
                child.play(mv, rulebook);
                match rulebook.mover_win_past(&child, mv, way_out) {
                    Some(_) => 0,
                    None => u64::from(child.count_moves(rulebook)),
                }
            })
            .sum()
    }

    /// Every node of random games of `preset`: the fused count is the made one. Returns the
    /// nodes compared.
    fn fused_agrees<G: Geometry>(preset: Preset, seed: u64) -> usize {
        let rulebook = Rulebook::<G>::new(Rules::preset(preset));
        assert!(
            applies(&rulebook),
            "{preset} has the classic moves and captures"
        );
        let mut rng = SplitMix64::new(seed);
        let mut nodes = 0;
        for _ in 0..30 {
            let mut board = Board::<G>::from_position(preset.start_fen()).unwrap();
            for _ in 0..400 {
                let mut list = MoveList::new();
                board.generate_moves(&rulebook, &mut list);
                if list.is_empty() {
                    break;
                }
                let way_out = (board.side_to_move() == Side::Attackers
                    && rulebook.rules().encirclement)
                    .then(|| board.way_out())
                    .flatten();
                assert_eq!(
                    leaf_parents(&board, &list, &rulebook, way_out.as_ref()),
                    made(&board, &list, &rulebook, way_out.as_ref()),
                    "{board:?}"
                );
                nodes += 1;
                let mv = list[rng.below(list.len())];
                board.play(mv, &rulebook);
                if rulebook.mover_win(&board, mv).is_some() {
                    break;
                }
            }
        }
        nodes
    }

    #[test]
    fn children_counted_by_line_are_counted_as_made() {
        // Random play reaches the rings, the captures, the shieldwalls and the forts that the
        // start's perft does not, on every size with a classic preset.
        assert!(fused_agrees::<Eleven>(Preset::Copenhagen, 1) > 1000);
        assert!(fused_agrees::<Seven>(Preset::Brandubh, 2) > 300);
        assert!(fused_agrees::<Thirteen>(Preset::Copenhagen13, 3) > 1000);
    }

    #[test]
    fn a_reversed_line_reads_from_its_other_end() {
        assert_eq!(REVERSED[0b1], 1 << 12);
        assert_eq!(REVERSED[0b110], 0b011 << 10);
        assert!((0..1 << MAX_LINE).all(|p| usize::from(REVERSED[usize::from(REVERSED[p])]) == p));
    }
}
