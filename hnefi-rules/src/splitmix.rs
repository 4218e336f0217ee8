//! splitmix64 (Steele, Lea and Flood, 2014), the library's one pseudo-random generator.
//!
//! Written out rather than taken from `rand`, whose `StdRng` may change its algorithm between
//! releases: what a seed gives here (Zobrist keys and with them `bench`, self-play games,
//! held-out splits, fuzz lines) stays the same whatever crates are linked. `const`, so that
//! tables such as the Zobrist keys are built by the compiler.

/// The golden-ratio increment of the state.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The generator: its whole state is one word.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose numbers `seed` fixes.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next number.
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix(self.0)
    }

    /// Uniform in `0..n` for `n > 0` (multiply-shift: the bias is below `n / 2^64`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform in `0..1`, on the 2^53 doubles that step evenly through it.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// splitmix64's output function: a bijection of `u64` that scatters neighbouring inputs, on
/// its own a good hash of a number.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `x` scaled by the golden ratio, for combining a seed with a counter before [`mix`].
pub const fn spread(x: u64) -> u64 {
    x.wrapping_mul(GAMMA)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_and_stays_below_its_bound() {
        // The first outputs of splitmix64 seeded 0, as in Vigna's reference code.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut rng = SplitMix64::new(9);
        assert!((0..1000).all(|_| rng.below(7) < 7));
        assert!((0..1000).all(|_| (0.0..1.0).contains(&rng.next_f64())));
    }
}
