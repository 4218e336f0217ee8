//! Sets of squares, one bit a square in the geometry's word, with shifts that respect the
//! board's edges.

use super::geometry::{Geometry, Word};
use super::square::{Direction, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares; bit `i` is square index `i`. Bits from `G::SQUARES` up are always zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<G: Geometry>(pub G::Word);

impl<G: Geometry> Bitboard<G> {
    /// No square.
    pub const EMPTY: Self = Bitboard(G::Word::ZERO);
    /// Every square of the board.
    pub const ALL: Self = Bitboard(G::ALL);
    /// The first file, `a`.
    pub const FILE_A: Self = Bitboard(G::FILE_A);
    /// The last file (`k` on 11x11).
    pub const FILE_LAST: Self = Bitboard(G::FILE_LAST);
    /// The first rank.
    pub const RANK_1: Self = Bitboard(G::RANK_1);
    /// The last rank (11 on 11x11).
    pub const RANK_LAST: Self = Bitboard(G::RANK_LAST);
    /// The squares of the edge.
    pub const EDGE: Self = Bitboard(G::EDGE);
    /// The four corners.
    pub const CORNERS: Self = Bitboard(G::CORNERS);
    /// The centre square, the throne.
    pub const THRONE: Self = Bitboard(G::CENTRE);
    /// Squares only the king may stop on.
    /// Squares only the king may stop on.
    pub const RESTRICTED: Self = Bitboard(G::RESTRICTED);

    #[inline(always)]
    /// The set of `sq` alone.
    pub fn from_square(sq: Square<G>) -> Self {
        Bitboard(G::Word::bit(sq.index()))
    }

    #[inline(always)]
    /// Whether the set has no square.
    pub fn is_empty(self) -> bool {
        self.0.is_zero()
    }

    #[inline(always)]
    /// Whether the set has a square.
    pub fn any(self) -> bool {
        !self.0.is_zero()
    }

    #[inline(always)]
    /// How many squares the set has.
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline(always)]
    /// Whether `sq` is in the set.
    pub fn contains(self, sq: Square<G>) -> bool {
        !(self.0 & G::Word::bit(sq.index())).is_zero()
    }

    #[inline(always)]
    /// The set with `sq` added.
    pub fn with(self, sq: Square<G>) -> Self {
        Bitboard(self.0 | G::Word::bit(sq.index()))
    }

    #[inline(always)]
    /// The set with `sq` taken out.
    pub fn without(self, sq: Square<G>) -> Self {
        Bitboard(self.0 & !G::Word::bit(sq.index()))
    }

    /// The lowest square in the set.
    #[inline(always)]
    pub fn first(self) -> Option<Square<G>> {
        if self.0.is_zero() {
            None
        } else {
            Some(Square::from_index(self.0.lowest() as u8))
        }
    }

    /// Calls `f` with each square of the set, lowest first. For hot loops: a `u128` is walked
    /// as two plain 64-bit loops, about half the work of the iterator.
    #[inline(always)]
    pub fn for_each_square(self, mut f: impl FnMut(Square<G>)) {
        self.0.for_each_bit(|i| f(Square::from_index(i as u8)));
    }

    /// The highest square in the set.
    #[inline(always)]
    pub fn last(self) -> Option<Square<G>> {
        if self.0.is_zero() {
            None
        } else {
            Some(Square::from_index(self.0.highest() as u8))
        }
    }

    /// Every square moved one step in `dir`; squares that would leave the board drop out.
    #[inline(always)]
    pub fn shift(self, dir: Direction) -> Self {
        let side = G::SIDE as u32;
        match dir {
            Direction::North => Bitboard((self.0 << side) & G::ALL),
            Direction::South => Bitboard(self.0 >> side),
            Direction::East => Bitboard((self.0 & !G::FILE_LAST) << 1),
            Direction::West => Bitboard((self.0 & !G::FILE_A) >> 1),
        }
    }

    /// The squares next to any square of the set (orthogonally), the set itself excluded
    /// only where no neighbour brings it back. Always inlined: on 13x13's three-word boards
    /// the compiler left it a call, taken at every step of every flood fill.
    #[inline(always)]
    pub fn neighbours(self) -> Self {
        self.shift(Direction::North)
            | self.shift(Direction::South)
            | self.shift(Direction::East)
            | self.shift(Direction::West)
    }

    /// Everything 4-connected to `self` through `through` (the seed itself included).
    pub fn flood(self, through: Self) -> Self {
        let mut reached = self;
        loop {
            let next = reached | (reached.neighbours() & through);
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// Like [`Bitboard::flood`], but stops as soon as the fill touches `goal`.
    pub fn flood_reaches(self, through: Self, goal: Self) -> bool {
        let mut reached = self;
        loop {
            if (reached & goal).any() {
                return true;
            }
            let next = reached | (reached.neighbours() & through);
            if next == reached {
                return false;
            }
            reached = next;
        }
    }

    /// The squares each piece of `self` reaches sliding in `dir` through `empty`, without the
    /// pieces themselves. Rays of different pieces in one direction never overlap, because a
    /// piece stops the ray of the piece behind it, so a popcount counts moves exactly.
    /// East, towards higher bits along a rank, is one addition; the others Kogge-Stone
    /// doubling, whose four steps cover the twelve squares of 13x13's longest ray.
    #[inline(always)]
    pub fn slide(self, dir: Direction, empty: Self) -> Self {
        let gen0 = self.0;
        let (step, mut p, north) = match dir {
            Direction::East => {
                // A piece's bit added to the run of empty squares above it carries through
                // the run to its end, so the bits that flip are the run. File a is no run's:
                // a carry out of a rank's last file stops there, or, landing on a piece,
                // leaves that piece's own carry as it was.
                let e = empty.0 & !G::FILE_A & !gen0;
                let runs = e | gen0;
                return Bitboard((runs.wrapping_add(gen0) ^ runs) & e);
            }
            Direction::North => (G::SIDE as u32, empty.0, true),
            Direction::South => (G::SIDE as u32, empty.0, false),
            Direction::West => (1, empty.0 & !G::FILE_LAST, false),
        };
        let mut g = gen0;
        if north {
            g = g | (p & (g << step));
            p = p & (p << step);
            g = g | (p & (g << (2 * step)));
            p = p & (p << (2 * step));
            g = g | (p & (g << (4 * step)));
            p = p & (p << (4 * step));
            g = g | (p & (g << (8 * step)));
        } else {
            g = g | (p & (g >> step));
            p = p & (p >> step);
            g = g | (p & (g >> (2 * step)));
            p = p & (p >> (2 * step));
            g = g | (p & (g >> (4 * step)));
            p = p & (p >> (4 * step));
            g = g | (p & (g >> (8 * step)));
        }
        Bitboard(g ^ gen0)
    }

    /// Empty squares a rook on `from` can slide to, given the occupied squares `occupied`.
    #[inline]
    pub fn rook_targets(from: Square<G>, occupied: Self) -> Self {
        Bitboard::rook_attacks(from, occupied) & !occupied
    }

    /// The squares a rook on `from` sees: the empty squares it slides over and the first
    /// occupied square in each direction. Seen from a target square, the pieces among them are
    /// those that can move there.
    #[inline]
    pub fn rook_attacks(from: Square<G>, occupied: Self) -> Self {
        let rays = G::rays();
        let mut targets = G::Word::ZERO;
        for dir in Direction::ALL {
            let ray = rays[dir.index()][from.index()];
            let blockers = ray & occupied.0;
            targets = targets
                | if blockers.is_zero() {
                    ray
                } else {
                    let nearest = match dir {
                        Direction::North | Direction::East => blockers.lowest(),
                        Direction::South | Direction::West => blockers.highest(),
                    };
                    ray & !rays[dir.index()][nearest as usize]
                };
        }
        Bitboard(targets)
    }

    /// The squares strictly between two squares of one rank or file (empty otherwise).
    pub fn between(a: Square<G>, b: Square<G>) -> Self {
        let mut set = Self::EMPTY;
        for dir in Direction::ALL {
            let ray = Bitboard::ray(a, dir);
            if ray.contains(b) {
                set = ray & Bitboard::ray(b, dir.opposite());
            }
        }
        set
    }

    /// The squares strictly between `from` and the edge in `dir`.
    #[inline(always)]
    pub fn ray(from: Square<G>, dir: Direction) -> Self {
        Bitboard(G::rays()[dir.index()][from.index()])
    }
}

impl<G: Geometry> Iterator for Bitboard<G> {
    type Item = Square<G>;

    #[inline]
    fn next(&mut self) -> Option<Square<G>> {
        let sq = self.first()?;
        self.0 = self.0.clear_lowest();
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl<G: Geometry> ExactSizeIterator for Bitboard<G> {}

impl<G: Geometry> FromIterator<Square<G>> for Bitboard<G> {
    fn from_iter<I: IntoIterator<Item = Square<G>>>(iter: I) -> Self {
        iter.into_iter().fold(Self::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<G: Geometry> $tr for Bitboard<G> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl<G: Geometry> $atr for Bitboard<G> {
            #[inline(always)]
            fn $af(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<G: Geometry> Not for Bitboard<G> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Bitboard(!self.0 & G::ALL)
    }
}

impl<G: Geometry> std::fmt::Debug for Bitboard<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for rank in (0..G::SIDE).rev() {
            for file in 0..G::SIDE {
                let sq = Square::from_coords(file, rank).expect("on board");
                write!(f, "{}", if self.contains(sq) { 'X' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::{Eleven, Seven, Thirteen};

    /// Runs a test body once per board size.
    macro_rules! each_size {
        ($body:ident) => {
            for side in crate::board::SIDES {
                crate::with_size!(side, $body()).unwrap();
            }
        };
    }

    /// Pseudo-random sets of squares of a size.
    fn random_sets<G: Geometry>(count: usize) -> Vec<Bitboard<G>> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..count)
            .map(|_| {
                let density = next() % 4;
                Square::<G>::all()
                    .filter(|_| next() % 4 <= density)
                    .collect()
            })
            .collect()
    }

    fn iteration_agrees<G: Geometry>() {
        for set in random_sets::<G>(200)
            .into_iter()
            .chain([Bitboard::ALL, Bitboard::EMPTY])
        {
            let mut seen = Vec::new();
            set.for_each_square(|sq| seen.push(sq));
            assert_eq!(seen, set.collect::<Vec<_>>());
            assert_eq!(seen.len(), set.count() as usize);
            assert_eq!(seen.first().copied(), set.first());
            assert_eq!(seen.last().copied(), set.last());
        }
    }

    #[test]
    fn for_each_square_visits_what_the_iterator_yields() {
        each_size!(iteration_agrees);
    }

    fn sq(s: &str) -> Square<Eleven> {
        Square::parse(s).unwrap()
    }

    #[test]
    fn constants() {
        type B = Bitboard<Eleven>;
        assert_eq!(B::ALL.count(), 121);
        assert_eq!(B::EDGE.count(), 40);
        assert!(B::THRONE.contains(sq("f6")));
        assert_eq!(B::CORNERS.count(), 4);
        for c in ["a1", "k1", "a11", "k11"] {
            assert!(B::CORNERS.contains(sq(c)));
        }
        let m13 = Square::<Thirteen>::parse("m13").unwrap();
        assert!(Bitboard::<Thirteen>::CORNERS.contains(m13));
        assert!(Bitboard::<Seven>::THRONE.contains(Square::parse("d4").unwrap()));
    }

    fn shifts_stay_on_the_board<G: Geometry>() {
        for s in Square::<G>::all() {
            let b = Bitboard::from_square(s);
            for dir in Direction::ALL {
                assert_eq!(b.shift(dir).first(), s.step(dir), "{s} {dir:?}");
                assert_eq!(b.shift(dir).count(), s.step(dir).is_some() as u32);
            }
        }
    }

    #[test]
    fn shifts_do_not_wrap() {
        each_size!(shifts_stay_on_the_board);
    }

    /// The set-wise slide equals the per-piece ray scan, and the ray scan equals stepping.
    fn slides_agree<G: Geometry>() {
        let sets = random_sets::<G>(400);
        for pair in sets.chunks(2) {
            let (occ, pieces) = (pair[0] | pair[1], pair[1]);
            let empty = !occ;
            let mut setwise = 0;
            for dir in Direction::ALL {
                setwise += pieces.slide(dir, empty).count();
            }
            let per_piece: u32 = pieces.map(|p| Bitboard::rook_targets(p, occ).count()).sum();
            assert_eq!(setwise, per_piece);
            for from in pieces {
                let mut stepped = Bitboard::EMPTY;
                for dir in Direction::ALL {
                    let mut cur = from;
                    while let Some(next) = cur.step(dir) {
                        stepped = stepped.with(next);
                        if occ.contains(next) {
                            break;
                        }
                        cur = next;
                    }
                }
                assert_eq!(Bitboard::rook_attacks(from, occ), stepped);
            }
        }
    }

    #[test]
    fn slide_matches_rook_targets() {
        each_size!(slides_agree);
    }

    /// Every direction's slide is the squares stepped onto from each piece through `empty`,
    /// the pieces left out, also where pieces stand on squares called empty (a king's
    /// reach sliding on) and on the last file beside pieces on the next rank's first.
    fn slides_step<G: Geometry>() {
        let sets = random_sets::<G>(600);
        for three in sets.chunks(3) {
            let pieces = three[0] | (three[1] & Bitboard(G::FILE_A | G::FILE_LAST));
            for empty in [!three[2], !three[2] | pieces, !(three[2] | pieces)] {
                for dir in Direction::ALL {
                    let mut stepped = Bitboard::EMPTY;
                    for from in pieces {
                        let mut cur = from;
                        while let Some(next) = cur.step(dir).filter(|&n| empty.contains(n)) {
                            stepped = stepped.with(next);
                            cur = next;
                        }
                    }
                    assert_eq!(pieces.slide(dir, empty), stepped & !pieces, "{dir:?}");
                }
            }
        }
    }

    #[test]
    fn slides_step_through_the_empty_squares() {
        each_size!(slides_step);
    }

    #[test]
    fn rook_targets_on_empty_board() {
        assert_eq!(
            Bitboard::rook_targets(sq("a1"), Bitboard::EMPTY).count(),
            20
        );
        let occ = Bitboard::from_square(sq("a3")) | Bitboard::from_square(sq("c1"));
        let t = Bitboard::rook_targets(sq("a1"), occ);
        assert_eq!(
            t,
            Bitboard::from_square(sq("a2")) | Bitboard::from_square(sq("b1"))
        );
        let g7 = Square::<Thirteen>::parse("g7").unwrap();
        assert_eq!(Bitboard::rook_targets(g7, Bitboard::EMPTY).count(), 24);
    }

    #[test]
    fn flood() {
        let walls = !Bitboard::from_square(sq("b1")) & !Bitboard::from_square(sq("a2"));
        let inside = Bitboard::from_square(sq("a1")).flood(!walls);
        assert_eq!(inside.count(), 3);
        assert!(!Bitboard::from_square(sq("a1")).flood_reaches(!walls, Bitboard::THRONE));
    }
}
