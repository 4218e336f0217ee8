//! Board sizes as types. A [`Geometry`] fixes the side of the board at compile time, with the
//! machine word that holds one bit per square and every mask and table derived from the side,
//! so that the board, its move generator and everything built on them are compiled once per
//! size (monomorphised) and never ask the size at run time.
//!
//! Why types and not a run-time side: the hot paths (sliding moves, captures, perft, search)
//! shift bitboards by the side and mask them with edge files. With the side a constant, those
//! are immediate operands and the words are as small as the board allows: one `u64` for 7x7,
//! a `u128` for 9x9 and 11x11, three words for 13x13's 169 squares.

use super::rules::Preset;
use super::sizes::{AnySize, PerSize};
use super::zobrist::Keys;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

/// The widest board's side.
pub const MAX_SIDE: u8 = super::sizes::LARGEST;

/// The most squares of any board.
pub const MAX_SQUARES: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// Bits as three 64-bit limbs, square 0 the lowest bit of the first: the one form every
/// mask is computed in at compile time before it becomes a geometry's own word.
pub type Limbs = [u64; 3];

/// A machine word with one bit per square.
pub trait Word:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// No bit set.
    const ZERO: Self;
    /// The word of bit `index` alone.
    fn bit(index: usize) -> Self;
    /// The word of the low bits of `limbs`.
    fn from_limbs(limbs: Limbs) -> Self;
    /// Whether no bit is set.
    fn is_zero(self) -> bool;
    /// The lowest 64 bits.
    fn low_u64(self) -> u64;
    /// How many bits are set.
    fn count_ones(self) -> u32;
    /// The index of the lowest set bit; the word is not zero.
    fn lowest(self) -> u32;
    /// The index of the highest set bit; the word is not zero.
    fn highest(self) -> u32;
    /// The word without its lowest set bit.
    fn clear_lowest(self) -> Self;
    /// Calls `f` with the index of every set bit, lowest first.
    fn for_each_bit(self, f: impl FnMut(u32));
    /// The sum as integers, carried across limbs, the carry out of the top bit dropped.
    fn wrapping_add(self, other: Self) -> Self;
}

impl Word for u64 {
    const ZERO: u64 = 0;

    #[inline(always)]
    fn wrapping_add(self, other: u64) -> u64 {
        u64::wrapping_add(self, other)
    }

    #[inline(always)]
    fn bit(index: usize) -> u64 {
        1 << index
    }

    fn from_limbs(limbs: Limbs) -> u64 {
        to_u64(limbs)
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }

    #[inline(always)]
    fn low_u64(self) -> u64 {
        self
    }

    #[inline(always)]
    fn count_ones(self) -> u32 {
        u64::count_ones(self)
    }

    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }

    #[inline(always)]
    fn highest(self) -> u32 {
        63 - self.leading_zeros()
    }

    #[inline(always)]
    fn clear_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }

    #[inline(always)]
    fn for_each_bit(self, mut f: impl FnMut(u32)) {
        let mut bits = self;
        while bits != 0 {
            f(bits.trailing_zeros());
            bits &= bits - 1;
        }
    }
}

/// Each bit of a `u128` alone, by index.
static U128_BITS: [u128; 128] = {
    let mut bits = [0; 128];
    let mut i = 0;
    while i < 128 {
        bits[i] = 1 << i;
        i += 1;
    }
    bits
};

impl Word for u128 {
    const ZERO: u128 = 0;

    #[inline(always)]
    fn wrapping_add(self, other: u128) -> u128 {
        u128::wrapping_add(self, other)
    }

    #[inline(always)]
    fn bit(index: usize) -> u128 {
        // A load: a variable shift of a two-word integer is seven instructions on x86-64.
        U128_BITS[index & 127]
    }

    fn from_limbs(limbs: Limbs) -> u128 {
        to_u128(limbs)
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }

    #[inline(always)]
    fn low_u64(self) -> u64 {
        self as u64
    }

    #[inline(always)]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }

    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }

    #[inline(always)]
    fn highest(self) -> u32 {
        127 - self.leading_zeros()
    }

    #[inline(always)]
    fn clear_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }

    /// Two 64-bit loops: clearing the lowest bit of a `u128` costs a borrow across halves.
    #[inline(always)]
    fn for_each_bit(self, mut f: impl FnMut(u32)) {
        (self as u64).for_each_bit(&mut f);
        ((self >> 64) as u64).for_each_bit(|i| f(64 + i));
    }
}

/// Each bit of a [`Wide`] alone, by index.
static WIDE_BITS: [Wide; 3 * 64] = {
    let mut bits = [Wide([0; 3]); 3 * 64];
    let mut i = 0;
    while i < 3 * 64 {
        bits[i].0[i / 64] = 1 << (i % 64);
        i += 1;
    }
    bits
};

/// Three 64-bit limbs: the 169 squares of 13x13.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Wide(pub Limbs);

impl Word for Wide {
    const ZERO: Wide = Wide([0; 3]);

    #[inline(always)]
    fn wrapping_add(self, other: Wide) -> Wide {
        let (a, b) = (self.0, other.0);
        let (l0, c0) = a[0].overflowing_add(b[0]);
        let (l1, c1) = a[1].overflowing_add(b[1]);
        let (l1, c1c) = l1.overflowing_add(c0 as u64);
        let l2 = a[2].wrapping_add(b[2]).wrapping_add((c1 | c1c) as u64);
        Wide([l0, l1, l2])
    }

    #[inline(always)]
    fn bit(index: usize) -> Wide {
        // A load, as for `u128`: no bounds check, no limb chosen at run time.
        WIDE_BITS[index % (3 * 64)]
    }

    fn from_limbs(limbs: Limbs) -> Wide {
        Wide(limbs)
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0 == [0; 3]
    }

    #[inline(always)]
    fn low_u64(self) -> u64 {
        self.0[0]
    }

    #[inline(always)]
    fn count_ones(self) -> u32 {
        self.0.iter().map(|l| l.count_ones()).sum()
    }

    #[inline(always)]
    fn lowest(self) -> u32 {
        let [a, b, c] = self.0;
        if a != 0 {
            a.trailing_zeros()
        } else if b != 0 {
            64 + b.trailing_zeros()
        } else {
            128 + c.trailing_zeros()
        }
    }

    #[inline(always)]
    fn highest(self) -> u32 {
        let [a, b, c] = self.0;
        if c != 0 {
            191 - c.leading_zeros()
        } else if b != 0 {
            127 - b.leading_zeros()
        } else {
            63 - a.leading_zeros()
        }
    }

    #[inline(always)]
    fn clear_lowest(self) -> Wide {
        let mut limbs = self.0;
        for limb in &mut limbs {
            if *limb != 0 {
                *limb &= *limb - 1;
                break;
            }
        }
        Wide(limbs)
    }

    #[inline(always)]
    fn for_each_bit(self, mut f: impl FnMut(u32)) {
        for (i, limb) in self.0.into_iter().enumerate() {
            limb.for_each_bit(|b| f(64 * i as u32 + b));
        }
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for Wide {
            type Output = Wide;
            #[inline(always)]
            fn $f(self, rhs: Wide) -> Wide {
                let (a, b) = (self.0, rhs.0);
                Wide([a[0] $op b[0], a[1] $op b[1], a[2] $op b[2]])
            }
        }
    };
}
wide_op!(BitAnd, bitand, &);
wide_op!(BitOr, bitor, |);
wide_op!(BitXor, bitxor, ^);

impl Not for Wide {
    type Output = Wide;
    #[inline(always)]
    fn not(self) -> Wide {
        Wide(self.0.map(|l| !l))
    }
}

impl Shl<u32> for Wide {
    type Output = Wide;
    /// Towards higher squares; `by` below 192.
    #[inline(always)]
    fn shl(self, by: u32) -> Wide {
        let (words, bits) = ((by / 64) as usize, by % 64);
        let mut out = [0; 3];
        for (i, limb) in out.iter_mut().enumerate().skip(words) {
            let src = i - words;
            *limb = self.0[src] << bits;
            if bits > 0 && src > 0 {
                *limb |= self.0[src - 1] >> (64 - bits);
            }
        }
        Wide(out)
    }
}

impl Shr<u32> for Wide {
    type Output = Wide;
    /// Towards lower squares; `by` below 192.
    #[inline(always)]
    fn shr(self, by: u32) -> Wide {
        let (words, bits) = ((by / 64) as usize, by % 64);
        let mut out = [0; 3];
        for (i, limb) in out.iter_mut().enumerate().take(3 - words) {
            let src = i + words;
            *limb = self.0[src] >> bits;
            if bits > 0 && src + 1 < 3 {
                *limb |= self.0[src + 1] << (64 - bits);
            }
        }
        Wide(out)
    }
}

/// A board size: its side, its word, and the masks and tables every position of that size
/// shares. Implemented by the four sizes below and nothing else.
pub trait Geometry: Copy + Eq + Ord + Hash + Default + Debug + Send + Sync + 'static {
    /// Squares along an edge: 7, 9, 11 or 13.
    const SIDE: u8;
    /// `SIDE * SIDE`.
    const SQUARES: usize;
    /// Bits a square takes in a packed move: 7 up to 11x11, 8 for 13x13.
    const SQUARE_BITS: u32;
    /// How a size is named to people: `11x11`.
    const NAME: &'static str;
    /// The rules a host means when it names only this size.
    const PRESET: Preset;
    /// The rules OpenTafl takes for a rules string of this size that names no variant.
    const OPENTAFL_PRESET: Preset;
    /// The machine word with a bit a square.
    type Word: Word;
    /// Every square.
    const ALL: Self::Word;
    /// The first file, `a`.
    const FILE_A: Self::Word;
    /// The last file (`k` on 11x11).
    const FILE_LAST: Self::Word;
    /// The first rank.
    const RANK_1: Self::Word;
    /// The last rank (11 on 11x11).
    const RANK_LAST: Self::Word;
    /// The squares of the edge.
    const EDGE: Self::Word;
    /// The four corner squares.
    const CORNERS: Self::Word;
    /// The centre square, the throne.
    const CENTRE: Self::Word;
    /// The corners and the centre: the squares of the classic boards only the king may stop on.
    const RESTRICTED: Self::Word;

    /// The squares a rook-like slide from a square passes, per direction (see
    /// [`super::square::Direction::index`]), to the edge.
    fn rays() -> &'static [[Self::Word; MAX_SQUARES]; 4];

    /// The Zobrist keys of this size.
    fn keys() -> &'static Keys;

    /// `value`, held as the [`AnySize`] of this size.
    fn hold<F: PerSize>(value: F::Of<Self>) -> AnySize<F>;

    /// What `any` holds if it holds this size, else `None`.
    fn unhold<F: PerSize>(any: AnySize<F>) -> Option<F::Of<Self>>;
}

/// The squares of a board of `side` for which `member(file, rank)` holds, as limbs.
const fn limbs_where(side: u8, kind: MaskKind) -> Limbs {
    let mut limbs = [0u64; 3];
    let last = side - 1;
    let mut rank = 0;
    while rank < side {
        let mut file = 0;
        while file < side {
            let member = match kind {
                MaskKind::All => true,
                MaskKind::FileA => file == 0,
                MaskKind::FileLast => file == last,
                MaskKind::Rank1 => rank == 0,
                MaskKind::RankLast => rank == last,
                MaskKind::Edge => file == 0 || rank == 0 || file == last || rank == last,
                MaskKind::Corners => (file == 0 || file == last) && (rank == 0 || rank == last),
                MaskKind::Centre => file == side / 2 && rank == side / 2,
                MaskKind::Restricted => {
                    ((file == 0 || file == last) && (rank == 0 || rank == last))
                        || (file == side / 2 && rank == side / 2)
                }
            };
            if member {
                let i = (rank as usize) * (side as usize) + file as usize;
                limbs[i / 64] |= 1 << (i % 64);
            }
            file += 1;
        }
        rank += 1;
    }
    limbs
}

#[derive(Clone, Copy)]
enum MaskKind {
    All,
    FileA,
    FileLast,
    Rank1,
    RankLast,
    Edge,
    Corners,
    Centre,
    Restricted,
}

/// Per direction and square, the squares up to the edge, as limbs.
const fn ray_limbs(side: u8) -> [[Limbs; MAX_SQUARES]; 4] {
    let mut rays = [[[0u64; 3]; MAX_SQUARES]; 4];
    let squares = side as usize * side as usize;
    let mut dir = 0;
    while dir < 4 {
        let mut sq = 0;
        while sq < squares {
            let (mut file, mut rank) = ((sq % side as usize) as i32, (sq / side as usize) as i32);
            // North, East, South, West: the order of `Direction::ALL`.
            let (df, dr) = match dir {
                0 => (0, 1),
                1 => (1, 0),
                2 => (0, -1),
                _ => (-1, 0),
            };
            loop {
                file += df;
                rank += dr;
                if file < 0 || rank < 0 || file >= side as i32 || rank >= side as i32 {
                    break;
                }
                let i = (rank * side as i32 + file) as usize;
                rays[dir][sq][i / 64] |= 1 << (i % 64);
            }
            sq += 1;
        }
        dir += 1;
    }
    rays
}

const fn to_u64(l: Limbs) -> u64 {
    l[0]
}

const fn to_u128(l: Limbs) -> u128 {
    l[0] as u128 | (l[1] as u128) << 64
}

const fn to_wide(l: Limbs) -> Wide {
    Wide(l)
}

macro_rules! geometry {
    ([] $($name:ident $side:literal $doc:literal ($bits:literal, $word:ty, $conv:ident)
        $preset:ident $opentafl:ident),* $(,)?) => {
        $(
        #[doc = $doc]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
        pub struct $name;

        // A square is packed into a move in `$bits` bits, a bitboard is one `$word` and every
        // table is `MAX_SQUARES` long: a size that outgrew one would corrupt moves, not fail.
        const _: () = assert!(
            $side * $side <= 1 << $bits
                && $side * $side <= 8 * std::mem::size_of::<$word>()
                && $side * $side <= MAX_SQUARES
        );

        impl Geometry for $name {
            const SIDE: u8 = $side;
            const SQUARES: usize = $side * $side;
            const SQUARE_BITS: u32 = $bits;
            const NAME: &'static str = concat!($side, "x", $side);
            const PRESET: Preset = Preset::$preset;
            const OPENTAFL_PRESET: Preset = Preset::$opentafl;
            type Word = $word;
            const ALL: $word = $conv(limbs_where($side, MaskKind::All));
            const FILE_A: $word = $conv(limbs_where($side, MaskKind::FileA));
            const FILE_LAST: $word = $conv(limbs_where($side, MaskKind::FileLast));
            const RANK_1: $word = $conv(limbs_where($side, MaskKind::Rank1));
            const RANK_LAST: $word = $conv(limbs_where($side, MaskKind::RankLast));
            const EDGE: $word = $conv(limbs_where($side, MaskKind::Edge));
            const CORNERS: $word = $conv(limbs_where($side, MaskKind::Corners));
            const CENTRE: $word = $conv(limbs_where($side, MaskKind::Centre));
            const RESTRICTED: $word = $conv(limbs_where($side, MaskKind::Restricted));

            #[inline(always)]
            fn rays() -> &'static [[$word; MAX_SQUARES]; 4] {
                static RAYS: [[$word; MAX_SQUARES]; 4] = {
                    let limbs = ray_limbs($side);
                    let mut rays = [[<$word as Word>::ZERO; MAX_SQUARES]; 4];
                    let mut d = 0;
                    while d < 4 {
                        let mut s = 0;
                        while s < MAX_SQUARES {
                            rays[d][s] = $conv(limbs[d][s]);
                            s += 1;
                        }
                        d += 1;
                    }
                    rays
                };
                &RAYS
            }

            #[inline(always)]
            fn keys() -> &'static Keys {
                static KEYS: Keys = Keys::generate($side * $side);
                &KEYS
            }

            fn hold<F: PerSize>(value: F::Of<Self>) -> AnySize<F> {
                AnySize::$name(value)
            }

            fn unhold<F: PerSize>(any: AnySize<F>) -> Option<F::Of<Self>> {
                match any {
                    AnySize::$name(value) => Some(value),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        }
    )*
        /// The size types, for a glob import of them alone.
        pub mod types {
            $(pub use super::$name;)*
        }
    };
}

// The size types, one a row of the size table.
crate::size_table!([geometry]);

#[cfg(test)]
mod tests {
    use super::*;

    fn wide_of(bits: &[usize]) -> Wide {
        bits.iter().fold(Wide::ZERO, |w, &i| w | Wide::bit(i))
    }

    #[test]
    fn wide_shifts_carry_across_limbs() {
        let w = wide_of(&[0, 63, 64, 127, 150]);
        assert_eq!(w << 13, wide_of(&[13, 76, 77, 140, 163]));
        assert_eq!(w >> 13, wide_of(&[50, 51, 114, 137]));
        assert_eq!(w << 104, wide_of(&[104, 167, 168]));
        assert_eq!(w >> 104, wide_of(&[23, 46]));
        assert_eq!(w << 0, w);
    }

    #[test]
    fn wide_bit_queries() {
        let w = wide_of(&[3, 70, 168]);
        assert_eq!((w.lowest(), w.highest(), w.count_ones()), (3, 168, 3));
        assert_eq!(w.clear_lowest(), wide_of(&[70, 168]));
        let mut seen = Vec::new();
        w.for_each_bit(|i| seen.push(i));
        assert_eq!(seen, [3, 70, 168]);
    }

    fn counts<G: Geometry>() -> [u32; 5] {
        [
            G::ALL.count_ones(),
            G::EDGE.count_ones(),
            G::CORNERS.count_ones(),
            G::CENTRE.count_ones(),
            G::FILE_A.count_ones(),
        ]
    }

    #[test]
    fn masks_per_size() {
        let expected = [
            (7, [49, 24, 4, 1, 7]),
            (9, [81, 32, 4, 1, 9]),
            (11, [121, 40, 4, 1, 11]),
            (13, [169, 48, 4, 1, 13]),
        ];
        for (side, counted) in expected {
            assert_eq!(
                crate::with_size!(side, counts()),
                Ok(counted),
                "{side}x{side}"
            );
        }
        assert_eq!(Eleven::CENTRE, 1 << 60);
        assert_eq!(Thirteen::CENTRE, Wide::bit(84));
    }
}
