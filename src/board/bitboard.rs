//! Sets of squares as 121 bits of a `u128`, with shifts that respect the board's edges.

use super::square::{Direction, NUM_SQUARES, SIZE, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares; bit `i` is square index `i`. Bits 121..128 are always zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const fn file_mask(file: u8) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < SIZE {
        m |= 1u128 << (r * SIZE + file);
        r += 1;
    }
    m
}

const fn rank_mask(rank: u8) -> u128 {
    ((1u128 << SIZE) - 1) << (rank * SIZE)
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard((1u128 << NUM_SQUARES) - 1);
    pub const FILE_A: Bitboard = Bitboard(file_mask(0));
    pub const FILE_K: Bitboard = Bitboard(file_mask(SIZE - 1));
    pub const RANK_1: Bitboard = Bitboard(rank_mask(0));
    pub const RANK_11: Bitboard = Bitboard(rank_mask(SIZE - 1));
    pub const EDGE: Bitboard =
        Bitboard(file_mask(0) | file_mask(SIZE - 1) | rank_mask(0) | rank_mask(SIZE - 1));
    pub const CORNERS: Bitboard = Bitboard(1 | 1 << 10 | 1 << 110 | 1 << 120);
    pub const THRONE: Bitboard = Bitboard(1 << 60);
    /// Squares only the king may stop on.
    pub const RESTRICTED: Bitboard = Bitboard(Self::CORNERS.0 | Self::THRONE.0);

    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn any(self) -> bool {
        self.0 != 0
    }

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// The lowest square in the set.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as u8))
        }
    }

    /// Calls `f` with each square of the set, lowest first. For hot loops: each half of the
    /// set is a plain 64-bit loop, about half the work of the 128-bit iterator.
    #[inline(always)]
    pub fn for_each_square(self, mut f: impl FnMut(Square)) {
        let mut low = self.0 as u64;
        while low != 0 {
            f(Square::from_index(low.trailing_zeros() as u8));
            low &= low - 1;
        }
        let mut high = (self.0 >> 64) as u64;
        while high != 0 {
            f(Square::from_index(64 + high.trailing_zeros() as u8));
            high &= high - 1;
        }
    }

    /// The highest square in the set.
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index((127 - self.0.leading_zeros()) as u8))
        }
    }

    /// Every square moved one step in `dir`; squares that would leave the board drop out.
    #[inline(always)]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        match dir {
            Direction::North => Bitboard((self.0 << SIZE) & Self::ALL.0),
            Direction::South => Bitboard(self.0 >> SIZE),
            Direction::East => Bitboard((self.0 & !Self::FILE_K.0) << 1),
            Direction::West => Bitboard((self.0 & !Self::FILE_A.0) >> 1),
        }
    }

    /// The squares next to any square of the set (orthogonally), the set itself excluded
    /// only where no neighbour brings it back.
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        Bitboard(
            self.shift(Direction::North).0
                | self.shift(Direction::South).0
                | self.shift(Direction::East).0
                | self.shift(Direction::West).0,
        )
    }

    /// Everything 4-connected to `self` through `through` (the seed itself included).
    pub fn flood(self, through: Bitboard) -> Bitboard {
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
    pub fn flood_reaches(self, through: Bitboard, goal: Bitboard) -> bool {
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
    /// Kogge-Stone doubling: four steps cover the ten squares of the longest ray.
    #[inline(always)]
    pub const fn slide(self, dir: Direction, empty: Bitboard) -> Bitboard {
        let gen0 = self.0;
        let mut g = gen0;
        let e = empty.0;
        match dir {
            Direction::North => {
                let mut p = e;
                g |= p & (g << 11);
                p &= p << 11;
                g |= p & (g << 22);
                p &= p << 22;
                g |= p & (g << 44);
                p &= p << 44;
                g |= p & (g << 88);
            }
            Direction::South => {
                let mut p = e;
                g |= p & (g >> 11);
                p &= p >> 11;
                g |= p & (g >> 22);
                p &= p >> 22;
                g |= p & (g >> 44);
                p &= p >> 44;
                g |= p & (g >> 88);
            }
            Direction::East => {
                let mut p = e & !Self::FILE_A.0;
                g |= p & (g << 1);
                p &= p << 1;
                g |= p & (g << 2);
                p &= p << 2;
                g |= p & (g << 4);
                p &= p << 4;
                g |= p & (g << 8);
            }
            Direction::West => {
                let mut p = e & !Self::FILE_K.0;
                g |= p & (g >> 1);
                p &= p >> 1;
                g |= p & (g >> 2);
                p &= p >> 2;
                g |= p & (g >> 4);
                p &= p >> 4;
                g |= p & (g >> 8);
            }
        }
        Bitboard(g ^ gen0)
    }

    /// Empty squares a rook on `from` can slide to, given the occupied squares `occupied`.
    #[inline]
    pub fn rook_targets(from: Square, occupied: Bitboard) -> Bitboard {
        Bitboard::rook_attacks(from, occupied) & !occupied
    }

    /// The squares a rook on `from` sees: the empty squares it slides over and the first
    /// occupied square in each direction. Seen from a target square, the pieces among them are
    /// those that can move there.
    #[inline]
    pub fn rook_attacks(from: Square, occupied: Bitboard) -> Bitboard {
        let mut targets = 0u128;
        for dir in Direction::ALL {
            let ray = RAYS[dir.index()][from.index()];
            let blockers = ray & occupied.0;
            targets |= if blockers == 0 {
                ray
            } else {
                let nearest = match dir {
                    Direction::North | Direction::East => blockers.trailing_zeros(),
                    Direction::South | Direction::West => 127 - blockers.leading_zeros(),
                };
                ray & !RAYS[dir.index()][nearest as usize]
            };
        }
        Bitboard(targets)
    }

    /// The squares strictly between two squares of one rank or file (empty otherwise).
    pub fn between(a: Square, b: Square) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for dir in Direction::ALL {
            let ray = Bitboard::ray(a, dir);
            if ray.contains(b) {
                set = ray & Bitboard::ray(b, dir.opposite());
            }
        }
        set
    }

    /// The squares strictly between `from` and the edge in `dir`.
    pub const fn ray(from: Square, dir: Direction) -> Bitboard {
        Bitboard(RAYS[dir.index()][from.index()])
    }
}

const fn make_rays() -> [[u128; NUM_SQUARES]; 4] {
    let mut rays = [[0u128; NUM_SQUARES]; 4];
    let mut d = 0;
    while d < 4 {
        let dir = Direction::ALL[d];
        let mut s = 0;
        while s < NUM_SQUARES {
            let mut cur = Square::from_index(s as u8);
            let mut m = 0u128;
            while let Some(next) = cur.step(dir) {
                m |= 1u128 << next.index();
                cur = next;
            }
            rays[d][s] = m;
            s += 1;
        }
        d += 1;
    }
    rays
}

static RAYS: [[u128; NUM_SQUARES]; 4] = make_rays();

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for rank in (0..SIZE).rev() {
            for file in 0..SIZE {
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

    #[test]
    fn for_each_square_visits_what_the_iterator_yields() {
        for bits in [
            0u128,
            1,
            1 << 63,
            1 << 64,
            (1 << 121) - 1,
            0x1234_5678_9abc_def0_0fed_cba9_8765_4321 & ((1 << 121) - 1),
        ] {
            let mut seen = Vec::new();
            Bitboard(bits).for_each_square(|sq| seen.push(sq));
            assert_eq!(seen, Bitboard(bits).collect::<Vec<_>>());
        }
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn constants() {
        assert_eq!(Bitboard::ALL.count(), 121);
        assert_eq!(Bitboard::EDGE.count(), 40);
        assert!(Bitboard::THRONE.contains(sq("f6")));
        assert_eq!(Bitboard::CORNERS.count(), 4);
        for c in ["a1", "k1", "a11", "k11"] {
            assert!(Bitboard::CORNERS.contains(sq(c)));
        }
    }

    #[test]
    fn shifts_do_not_wrap() {
        for s in Square::all() {
            let b = Bitboard::from_square(s);
            for dir in Direction::ALL {
                assert_eq!(b.shift(dir).first(), s.step(dir), "{s} {dir:?}");
            }
        }
    }

    #[test]
    fn slide_matches_rook_targets() {
        // Pseudo-random boards: the set-wise slide equals the per-piece ray scan.
        let mut x = 0x9E3779B97F4A7C15u128;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & Bitboard::ALL.0 & (x >> 3));
            let pieces = Bitboard(occ.0 & (x >> 40));
            let empty = !occ;
            let mut setwise = 0;
            for dir in Direction::ALL {
                setwise += pieces.slide(dir, empty).count();
            }
            let per_piece: u32 = pieces.map(|p| Bitboard::rook_targets(p, occ).count()).sum();
            assert_eq!(setwise, per_piece);
        }
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
    }

    #[test]
    fn flood() {
        let walls = !Bitboard::from_square(sq("b1")) & !Bitboard::from_square(sq("a2"));
        let inside = Bitboard::from_square(sq("a1")).flood(!walls);
        assert_eq!(inside.count(), 3);
        assert!(!Bitboard::from_square(sq("a1")).flood_reaches(!walls, Bitboard::THRONE));
    }
}
