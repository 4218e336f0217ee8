//! The one clock the search reads: `std::time::Instant` where the system has one, and the
//! host's millisecond clock in WebAssembly for the web (`wasm32-unknown-unknown`), where
//! `Instant::now` panics. There the module that instantiates the engine provides the import
//! `hnefi.now_ms`, a clock in milliseconds that never goes back (`performance.now()` in a page,
//! a Worker or Node.js); `web/hnefi.js` does.

use std::time::Duration;

/// A moment of the search's clock.
#[derive(Clone, Copy, Debug)]
pub struct Instant(Inner);

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
type Inner = std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
type Inner = f64;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[link(wasm_import_module = "hnefi")]
unsafe extern "C" {
    /// Milliseconds since some fixed moment, never less than a value read before.
    fn now_ms() -> f64;
}

impl Instant {
    /// Now.
    pub fn now() -> Instant {
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        return Instant(std::time::Instant::now());
        // SAFETY: the import takes nothing and returns a number; it touches no Rust memory.
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        return Instant(unsafe { now_ms() });
    }

    /// The time since this moment (zero if the clock went back).
    pub fn elapsed(&self) -> Duration {
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        return self.0.elapsed();
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        return Duration::from_secs_f64((Instant::now().0 - self.0).max(0.0) / 1000.0);
    }
}

/// A number unlike the last, for a draw nobody seeded: the system's randomness and the time
/// where there are such, the host's clock and a count of calls in WebAssembly for the web.
pub fn fresh_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        use std::hash::{BuildHasher, RandomState};
        RandomState::new().hash_one((std::time::SystemTime::now(), call))
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        // SplitMix64's finaliser over the clock's bits and the count.
        let mut z = Instant::now().0.to_bits() ^ call.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_goes_forward() {
        let start = Instant::now();
        std::thread::sleep(Duration::from_millis(5));
        assert!(start.elapsed() >= Duration::from_millis(5));
    }

    #[test]
    fn fresh_seeds_differ() {
        assert_ne!(fresh_seed(), fresh_seed());
    }
}
