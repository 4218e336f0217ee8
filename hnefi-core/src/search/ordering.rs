//! Move ordering: the table's move, wins and urgent king moves, captures, killers, history.

pub(crate) use super::alphabeta::Histories;
use super::eval::features::escape_sight;
use super::eval::open_escape_lines;
use crate::board::Custodial;
use crate::board::{Bitboard, Board, Move, Rulebook};
use crate::board::{Geometry, MAX_MOVES, MoveList, Piece, Side};

/// What a node knows about the tactics of its position, computed once and shared by ordering,
/// pruning decisions and the quiescence search.
pub struct Tactics<G: Geometry> {
    /// Landing squares that capture custodially, per direction of the victim.
    capture_squares: [Bitboard<G>; 4],
    /// Union of the above.
    pub any_capture: Bitboard<G>,
    /// Where a move may capture at all, shieldwalls included
    /// ([`Rulebook::capture_squares`]): a move landing elsewhere is played without looking.
    pub capturing: Bitboard<G>,
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
            capturing: rulebook.capture_squares(board, any_capture),
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

/// Scores every move of `list` for ordering, best first when sorted descending, and returns
/// the place of the first of the best: [`pick`]'s choice, found on the way.
pub(crate) fn score_moves<G: Geometry>(
    board: &Board<G>,
    list: &[Move<G>],
    tactics: &Tactics<G>,
    tt_move: Option<Move<G>>,
    killers: [Option<Move<G>>; 2],
    history: Histories<'_, G>,
    scores: &mut [i32],
) -> usize {
    let king = board.king();
    // Most moves land nowhere special: they get history and killer scores only.
    let special = tactics.any_capture | tactics.block_squares;
    let (mut best, mut top) = (0, i32::MIN);
    for (i, &mv) in list.iter().enumerate() {
        let to = mv.to();
        let from = mv.from();
        let score = if Some(mv) == tt_move {
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
        scores[i] = score;
        if score > top {
            (best, top) = (i, score);
        }
    }
    best
}

/// Appends a node's moves of one stage to `list`: the search lists them in two, and the
/// second only where the first did not cut. The first (`quiet` `None`): the moves that land on
/// a capture or a block, the king's moves that win or see an escape square, and those of
/// `candidates` (the killers, the move back) that are legal here, which are also put in
/// `extras`; every one of them outranks every quiet move in [`score_moves`]. The second
/// (`quiet` the squares to list them on): the other moves. `tt_move`, searched before
/// either, is in neither.
#[allow(clippy::too_many_arguments)]
pub(crate) fn generate_stage<G: Geometry>(
    board: &Board<G>,
    rulebook: &Rulebook<G>,
    tactics: &Tactics<G>,
    quiet: Option<Bitboard<G>>,
    tt_move: Option<Move<G>>,
    candidates: [Option<Move<G>>; 3],
    extras: &mut arrayvec::ArrayVec<Move<G>, 3>,
    list: &mut MoveList<G>,
) {
    let start = list.len();
    let special = tactics.any_capture | tactics.block_squares;
    let king_goals = tactics.escape | tactics.escape_sight;
    if let Some(within) = quiet {
        let (men_to, king_to) = (within & !special, within & !(special | king_goals));
        board.generate_moves_within(rulebook, men_to, king_to, list);
        drop_from(list, start, |m| Some(m) == tt_move || extras.contains(&m));
        return;
    }
    board.generate_moves_to(special, rulebook, list);
    if board.side_to_move() == Side::Defenders {
        let king = board.king();
        let reach = rulebook
            .terrain()
            .targets(Piece::King, king, board.occupied());
        for to in reach & king_goals & !special {
            list.push(Move::new(king, to));
        }
    }
    drop_from(list, start, |m| Some(m) == tt_move);
    for m in candidates.into_iter().flatten() {
        if Some(m) != tt_move
            && !list[start..].contains(&m)
            && board.check_move_under(m, rulebook).is_ok()
        {
            list.push(m);
            extras.push(m);
        }
    }
}

/// Drops the moves of `list` from `start` on that `drop` names, keeping the others' order.
fn drop_from<G: Geometry>(
    list: &mut MoveList<G>,
    start: usize,
    mut drop: impl FnMut(Move<G>) -> bool,
) {
    let mut kept = start;
    for r in start..list.len() {
        if !drop(list[r]) {
            list[kept] = list[r];
            kept += 1;
        }
    }
    list.truncate(kept);
}

/// Puts the best `count` of the moves from `i` on in order, best first, at `i..i + count`,
/// and returns where the ordered run ends; the moves after it keep no order. Cheaper than
/// picking one by one once a node has turned out to need more than a few moves, and than
/// sorting them all where pruning will skip most of the rest. Ties go to the greater
/// [`Move::raw`], so that the moves come in the same order however they are cut into runs.
pub fn sort_best<G: Geometry>(
    list: &mut [Move<G>],
    scores: &mut [i32],
    i: usize,
    count: usize,
) -> usize {
    let n = list.len();
    let count = count.min(n - i);
    let mut packed: arrayvec::ArrayVec<i64, MAX_MOVES> = (i..n)
        .map(|j| (scores[j] as i64) << 16 | list[j].raw() as i64)
        .collect();
    if count < packed.len() {
        if count > 0 {
            packed.select_nth_unstable_by(count - 1, |a, b| b.cmp(a));
        }
        packed[..count].sort_unstable_by(|a, b| b.cmp(a));
    } else {
        packed.sort_unstable_by(|a, b| b.cmp(a));
    }
    for (j, p) in (i..n).zip(packed) {
        scores[j] = (p >> 16) as i32;
        list[j] = Move::from_raw(p as u16).expect("packed from a move");
    }
    i + count
}

/// Keeps of the moves from `i` on only those `keep` says, in their order, and returns how
/// many remain in all: what is left to search once pruning drops every other move.
pub fn retain_from<G: Geometry>(
    list: &mut MoveList<G>,
    scores: &mut arrayvec::ArrayVec<i32, MAX_MOVES>,
    i: usize,
    mut keep: impl FnMut(Move<G>) -> bool,
) -> usize {
    let mut w = i;
    for r in i..list.len() {
        if keep(list[r]) {
            list[w] = list[r];
            scores[w] = scores[r];
            w += 1;
        }
    }
    list.truncate(w);
    scores.truncate(w);
    w
}

/// Picks the best remaining move into place `i` (selection sort, one step): the first of
/// the best, as a scan that keeps the first greater score would. The maximum is found first
/// (the compiler's vector code) and then its place: a scan with a branch per move guessed
/// wrong too often to be cheaper.
pub fn pick<G: Geometry>(list: &mut [Move<G>], scores: &mut [i32], i: usize) {
    let rest = &scores[i..];
    let Some(&top) = rest.iter().max() else {
        return;
    };
    let best = i + rest.iter().position(|&s| s == top).unwrap_or(0);
    list.swap(i, best);
    scores.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Eleven;
    use crate::splitmix::SplitMix64;

    /// A list of distinct moves with scores drawn from a few values, so that ties abound.
    fn scored(rng: &mut SplitMix64, n: usize) -> (MoveList<Eleven>, Vec<i32>) {
        let mut list = MoveList::new();
        let mut raw = 1 + rng.below(50) as u16;
        while list.len() < n {
            raw += 1 + rng.below(40) as u16;
            if let Some(m) = Move::<Eleven>::from_raw(raw) {
                list.push(m);
            }
        }
        let scores = (0..n).map(|_| rng.below(7) as i32 * 1000 - 3000).collect();
        (list, scores)
    }

    #[test]
    fn pick_takes_the_first_of_the_best() {
        let mut rng = SplitMix64::new(5);
        for n in 1..40 {
            let (mut list, mut scores) = scored(&mut rng, n);
            let (first, top) =
                scores
                    .iter()
                    .enumerate()
                    .fold(
                        (0, i32::MIN),
                        |(bi, bs), (j, &s)| if s > bs { (j, s) } else { (bi, bs) },
                    );
            let mv = list[first];
            pick(&mut list, &mut scores, 0);
            assert_eq!((list[0], scores[0]), (mv, top));
        }
    }

    #[test]
    fn runs_and_retained_moves_come_in_the_order_of_one_sort() {
        let mut rng = SplitMix64::new(9);
        for n in [1, 2, 5, 30, 120] {
            let (list, scores) = scored(&mut rng, n);
            let mut whole = (list.clone(), scores.clone());
            sort_best(&mut whole.0, &mut whole.1, 0, MAX_MOVES);
            let order: Vec<_> = whole
                .0
                .iter()
                .zip(&whole.1)
                .map(|(&m, &s)| (m, s))
                .collect();
            assert!(order.windows(2).all(|w| w[0].1 >= w[1].1));
            // Cut into runs of random lengths, with moves dropped at a random point.
            for _ in 0..20 {
                let (mut l, s) = (list.clone(), scores.clone());
                let mut s: arrayvec::ArrayVec<i32, MAX_MOVES> = s.into_iter().collect();
                let drop_at = rng.below(n + 1);
                let dropped = |m: Move<Eleven>| m.raw().is_multiple_of(3);
                let (mut i, mut ordered) = (0, 0);
                let mut retained = false;
                let mut got = Vec::new();
                while i < l.len() {
                    if i >= drop_at && !retained {
                        retained = true;
                        retain_from(&mut l, &mut s, i, |m| !dropped(m));
                        ordered = i;
                        continue;
                    }
                    if i >= ordered {
                        ordered = sort_best(&mut l, &mut s, i, 1 + rng.below(8));
                    }
                    got.push((l[i], s[i]));
                    i += 1;
                }
                let want: Vec<_> = order
                    .iter()
                    .enumerate()
                    .filter(|&(k, &(m, _))| k < drop_at || !dropped(m))
                    .map(|(_, &x)| x)
                    .collect();
                assert_eq!(got, want, "n {n}, dropped from {drop_at}");
            }
        }
    }
}
