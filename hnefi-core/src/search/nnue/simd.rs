//! The network's integer kernels: AVX2 where the processor has it, chosen at run time because
//! the binary's baseline is x86-64-v2; WebAssembly's simd128 where the module is built with it
//! (chosen when it is built: a WebAssembly host validates a module whole); and otherwise
//! portable loops that the compiler vectorises for the baseline. All compute the same integers
//! (no step can overflow, so the order of the sums does not matter): a search is the same node
//! for node on any (web/test/scalar.test.js runs the bench on both WebAssembly builds).

use super::{HIDDEN, QA};

/// One row of the feature transformer, or an accumulator.
pub type Row = [i16; HIDDEN];

/// Which kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    Portable,
    Avx2,
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

impl Kernels {
    /// The fastest kernels this processor runs. std caches the processor's answer, so asking
    /// costs a load and a test.
    #[inline(always)]
    pub fn detected() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernels::Avx2;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return Kernels::Simd128;
        #[allow(unreachable_code)]
        Kernels::Portable
    }

    /// Every set of kernels this processor runs, for the tests that compare them.
    #[cfg(test)]
    pub fn available() -> Vec<Kernels> {
        let mut all = vec![Kernels::Portable];
        if Kernels::detected() == Kernels::Avx2 {
            all.push(Kernels::Avx2);
        }
        all
    }
}

/// `out = src + add - sub`: a piece's move, from its parent's accumulator, in one pass.
#[inline(always)]
pub fn add_sub(k: Kernels, out: &mut Row, src: &Row, add: &Row, sub: &Row) {
    match k {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Avx2` is chosen only where the processor has AVX2.
        Kernels::Avx2 => unsafe { avx2::add_sub(out, src, add, sub) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernels::Simd128 => simd128::add_sub(out, src, add, sub),
        _ => {
            for (((o, s), a), d) in out.iter_mut().zip(src).zip(add).zip(sub) {
                *o = s + a - d;
            }
        }
    }
}

/// `acc += row`.
#[inline(always)]
pub fn add(k: Kernels, acc: &mut Row, row: &Row) {
    match k {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `add_sub`.
        Kernels::Avx2 => unsafe { avx2::add(acc, row) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernels::Simd128 => simd128::add(acc, row),
        _ => {
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }
}

/// `acc -= row`.
#[inline(always)]
pub fn sub(k: Kernels, acc: &mut Row, row: &Row) {
    match k {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `add_sub`.
        Kernels::Avx2 => unsafe { avx2::sub(acc, row) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernels::Simd128 => simd128::sub(acc, row),
        _ => {
            for (a, w) in acc.iter_mut().zip(row) {
                *a -= w;
            }
        }
    }
}

/// The output layer's sum: `sum of clamp(acc, 0, QA) * weights`. It stays within `i32`
/// (`HIDDEN * QA * 2^15`, asserted beside the network).
#[inline(always)]
pub fn crelu_dot(k: Kernels, acc: &Row, weights: &Row) -> i32 {
    match k {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `add_sub`.
        Kernels::Avx2 => unsafe { avx2::crelu_dot(acc, weights) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernels::Simd128 => simd128::crelu_dot(acc, weights),
        _ => acc
            .iter()
            .zip(weights)
            .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
            .sum(),
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use super::{HIDDEN, QA, Row};
    use std::arch::wasm32::*;

    /// i16 lanes in a 128-bit register.
    const LANES: usize = 8;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));

    /// The `i`-th register of a row.
    #[inline(always)]
    fn load(row: &Row, i: usize) -> v128 {
        debug_assert!(i + LANES <= HIDDEN);
        // SAFETY: the 8 lanes from `i` lie inside the row; v128 loads need no alignment.
        unsafe { v128_load(row.as_ptr().add(i).cast()) }
    }

    #[inline(always)]
    fn store(row: &mut Row, i: usize, v: v128) {
        debug_assert!(i + LANES <= HIDDEN);
        // SAFETY: as in `load`.
        unsafe { v128_store(row.as_mut_ptr().add(i).cast(), v) }
    }

    #[inline(always)]
    pub fn add_sub(out: &mut Row, src: &Row, add: &Row, sub: &Row) {
        for i in (0..HIDDEN).step_by(LANES) {
            store(
                out,
                i,
                i16x8_sub(i16x8_add(load(src, i), load(add, i)), load(sub, i)),
            );
        }
    }

    #[inline(always)]
    pub fn add(acc: &mut Row, row: &Row) {
        for i in (0..HIDDEN).step_by(LANES) {
            store(acc, i, i16x8_add(load(acc, i), load(row, i)));
        }
    }

    #[inline(always)]
    pub fn sub(acc: &mut Row, row: &Row) {
        for i in (0..HIDDEN).step_by(LANES) {
            store(acc, i, i16x8_sub(load(acc, i), load(row, i)));
        }
    }

    #[inline(always)]
    pub fn crelu_dot(acc: &Row, weights: &Row) -> i32 {
        let zero = i16x8_splat(0);
        let top = i16x8_splat(QA as i16);
        let mut sum = i32x4_splat(0);
        for i in (0..HIDDEN).step_by(LANES) {
            let a = i16x8_min(i16x8_max(load(acc, i), zero), top);
            // Pairs of products, each at most 255 * 2^15, summed into i32 lanes.
            sum = i32x4_add(sum, i32x4_dot_i16x8(a, load(weights, i)));
        }
        i32x4_extract_lane::<0>(sum)
            + i32x4_extract_lane::<1>(sum)
            + i32x4_extract_lane::<2>(sum)
            + i32x4_extract_lane::<3>(sum)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{HIDDEN, QA, Row};
    use std::arch::x86_64::*;

    /// i16 lanes in a 256-bit register.
    const LANES: usize = 16;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));

    /// The `i`-th register of a row.
    #[inline(always)]
    fn load(row: &Row, i: usize) -> __m256i {
        debug_assert!(i + LANES <= HIDDEN);
        // SAFETY: the 16 lanes from `i` lie inside the row; unaligned loads need no alignment.
        unsafe { _mm256_loadu_si256(row.as_ptr().add(i).cast()) }
    }

    #[inline(always)]
    fn store(row: &mut Row, i: usize, v: __m256i) {
        debug_assert!(i + LANES <= HIDDEN);
        // SAFETY: as in `load`.
        unsafe { _mm256_storeu_si256(row.as_mut_ptr().add(i).cast(), v) }
    }

    #[target_feature(enable = "avx2")]
    pub fn add_sub(out: &mut Row, src: &Row, add: &Row, sub: &Row) {
        for i in (0..HIDDEN).step_by(LANES) {
            let v = _mm256_sub_epi16(_mm256_add_epi16(load(src, i), load(add, i)), load(sub, i));
            store(out, i, v);
        }
    }

    #[target_feature(enable = "avx2")]
    pub fn add(acc: &mut Row, row: &Row) {
        for i in (0..HIDDEN).step_by(LANES) {
            let v = _mm256_add_epi16(load(acc, i), load(row, i));
            store(acc, i, v);
        }
    }

    #[target_feature(enable = "avx2")]
    pub fn sub(acc: &mut Row, row: &Row) {
        for i in (0..HIDDEN).step_by(LANES) {
            let v = _mm256_sub_epi16(load(acc, i), load(row, i));
            store(acc, i, v);
        }
    }

    #[target_feature(enable = "avx2")]
    pub fn crelu_dot(acc: &Row, weights: &Row) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(LANES) {
            let a = _mm256_min_epi16(_mm256_max_epi16(load(acc, i), zero), top);
            // Pairs of products, each at most 255 * 2^15, summed into i32 lanes.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(a, load(weights, i)));
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
        let pair = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b01>(quarter));
        _mm_cvtsi128_si32(pair)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitmix::SplitMix64;

    fn random_row(rng: &mut SplitMix64, spread: i32) -> Row {
        let mut row = [0; HIDDEN];
        for v in &mut row {
            *v = (rng.below(2 * spread as usize + 1) as i32 - spread) as i16;
        }
        row
    }

    /// Each kernel gives the portable loop's integers, on rows near the bounds the network
    /// keeps (accumulators past both clips, weights up to `i16`'s ends).
    #[test]
    fn every_kernel_computes_what_the_portable_loop_does() {
        let mut rng = SplitMix64::new(5);
        for _ in 0..200 {
            let (src, add_row, sub_row) = (
                random_row(&mut rng, 8000),
                random_row(&mut rng, 8000),
                random_row(&mut rng, 8000),
            );
            let weights = random_row(&mut rng, i16::MAX as i32);
            let acc = random_row(&mut rng, 600);
            let mut want = [0; HIDDEN];
            add_sub(Kernels::Portable, &mut want, &src, &add_row, &sub_row);
            for k in Kernels::available() {
                let mut got = [0; HIDDEN];
                add_sub(k, &mut got, &src, &add_row, &sub_row);
                assert_eq!(got, want, "{k:?}");
                let mut a = src;
                add(k, &mut a, &add_row);
                sub(k, &mut a, &sub_row);
                assert_eq!(a, want, "{k:?}");
                assert_eq!(
                    crelu_dot(k, &acc, &weights),
                    crelu_dot(Kernels::Portable, &acc, &weights),
                    "{k:?}"
                );
            }
        }
    }

    #[test]
    fn avx2_is_chosen_where_the_processor_has_it() {
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            Kernels::detected() == Kernels::Avx2,
            std::arch::is_x86_feature_detected!("avx2")
        );
        assert_eq!(Kernels::available()[0], Kernels::Portable);
    }
}
