//! Time management: a soft limit after which no new iteration starts, and a hard limit at
//! which the search stops wherever it is. Both keep the move overhead in reserve, so that the
//! engine never loses on time. All clock arithmetic saturates: a host may send any clock, up
//! to hundreds of millions of years, and no planned time can overflow.

use super::instant::Instant;
use super::params::{
    HARD_CAP_KEEP, MAX_HARD, MAX_SOFT, MOVETIME_RESERVE_DIVISOR, SOFT_CAP_DIVISOR, SearchParams,
};
use super::{Go, SideClock};
use crate::board::Side;
use std::time::Duration;

#[derive(Clone, Debug)]
/// The time of one search: when it started, and when it should and must stop.
pub struct TimeManager {
    /// When the search started.
    pub start: Instant,
    /// No new iteration starts past this.
    pub soft: Option<Duration>,
    /// The search stops past this.
    pub hard: Option<Duration>,
}

impl TimeManager {
    /// The limits of a search of `side` under `limits`, the clock split as `params` say
    /// (`moves_to_go`, `increment_share`, `soft_factor`, `hard_factor`).
    pub fn new<G: crate::board::Geometry>(
        limits: &Go<G>,
        side: Side,
        overhead: Duration,
        params: &SearchParams,
    ) -> TimeManager {
        let start = Instant::now();
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = limits.movetime {
            // A fixed time a move is the host's own measure: keep back the overhead, but never
            // more than a tenth of it. A whole 30 ms overhead would leave a 33 ms move 3 ms, a
            // tenth of what the host gave, where the search stops within about a millisecond.
            let t = mt
                .saturating_sub(overhead.min(mt / MOVETIME_RESERVE_DIVISOR))
                .max(Duration::from_millis(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(SideClock { left: time, inc }) = limits.clock.side(side) else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        let left = time.saturating_sub(overhead);
        let mtg = limits
            .movestogo
            .map_or(params.moves_to_go as u64, |m| (m as u64).clamp(1, 100));
        // A share saturated at hundreds of millions of years is cut to the caps below anyway.
        let percent = |d: Duration, p: i32| d.saturating_mul(p as u32) / 100;
        // The increment comes after the move, so it only enlarges the share, never the cap of
        // a fraction of the time left now.
        let share = (left / mtg as u32).saturating_add(percent(inc, params.increment_share));
        let soft = percent(share, params.soft_factor)
            .min(left / SOFT_CAP_DIVISOR)
            .min(MAX_SOFT);
        let hard = percent(share, params.hard_factor)
            .min(left - left / HARD_CAP_KEEP)
            .min(MAX_HARD);
        TimeManager {
            start,
            soft: Some(soft.max(Duration::from_millis(1))),
            hard: Some(hard.max(Duration::from_millis(1))),
        }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether to start another iteration.
    pub fn soft_exceeded(&self) -> bool {
        self.soft.is_some_and(|s| self.elapsed() >= s)
    }

    /// Whether the hard limit has passed.
    pub fn hard_exceeded(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Eleven;
    use crate::search::Clock;

    fn attackers(left: Duration, inc: Duration) -> Clock {
        Clock::new(Some(SideClock::new(left, inc)), None)
    }

    fn defenders(left: Duration, inc: Duration) -> Clock {
        Clock::new(None, Some(SideClock::new(left, inc)))
    }

    #[test]
    fn a_short_move_time_keeps_back_at_most_a_tenth_for_the_overhead() {
        let params = SearchParams::default();
        let at = |ms: u64| {
            let limits = Go::<crate::board::Eleven> {
                movetime: Some(Duration::from_millis(ms)),
                ..Go::default()
            };
            let tm = TimeManager::new(&limits, Side::Attackers, Duration::from_millis(30), &params);
            assert_eq!(tm.soft, tm.hard);
            tm.hard.unwrap().as_micros()
        };
        assert_eq!(at(10), 9_000);
        assert_eq!(at(33), 29_700);
        assert_eq!(at(100), 90_000);
        // From 300 ms on, the whole overhead.
        assert_eq!(at(300), 270_000);
        assert_eq!(at(1000), 970_000);
        // Never below a millisecond.
        assert_eq!(at(1), 1_000);
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        let limits: Go<Eleven> = Go::<Eleven> {
            clock: attackers(Duration::from_millis(10_000), Duration::from_millis(100)),
            ..Go::default()
        };
        let tm = TimeManager::new(
            &limits,
            Side::Attackers,
            Duration::from_millis(50),
            &SearchParams::default(),
        );
        let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
        assert!(soft <= hard && hard < Duration::from_millis(10_000));
        assert!(soft > Duration::from_millis(100));
        // Almost no time left: still a positive budget below the remaining time.
        let limits: Go<Eleven> = Go::<Eleven> {
            clock: defenders(Duration::from_millis(30), Duration::ZERO),
            ..Go::default()
        };
        let tm = TimeManager::new(
            &limits,
            Side::Defenders,
            Duration::from_millis(50),
            &SearchParams::default(),
        );
        assert!(tm.hard.unwrap() <= Duration::from_millis(1));
        // No clock for the side to move: no limit.
        let tm = TimeManager::new(
            &limits,
            Side::Attackers,
            Duration::ZERO,
            &SearchParams::default(),
        );
        assert!(tm.hard.is_none());
    }

    #[test]
    fn the_split_follows_its_tunables() {
        let limits: Go<Eleven> = Go::<Eleven> {
            clock: attackers(Duration::from_secs(60), Duration::from_secs(2)),
            ..Go::default()
        };
        let split = |params: &SearchParams| {
            let tm = TimeManager::new(&limits, Side::Attackers, Duration::ZERO, params);
            (tm.soft.unwrap(), tm.hard.unwrap())
        };
        let defaults = SearchParams::default();
        // 60 s over 30 moves, and three quarters of the 2 s increment; three times that.
        assert_eq!(
            split(&defaults),
            (Duration::from_millis(3500), Duration::from_millis(10_500))
        );
        let other = SearchParams {
            moves_to_go: 20,
            increment_share: 50,
            soft_factor: 200,
            hard_factor: 400,
            ..defaults
        };
        assert_eq!(
            split(&other),
            (Duration::from_secs(8), Duration::from_secs(16))
        );
    }

    #[test]
    fn huge_clocks_saturate_and_are_capped() {
        let huge = [
            Duration::MAX,
            Duration::from_secs(u64::MAX / 60 * 60),
            Duration::from_millis(u64::MAX),
            Duration::from_secs(1_000_000_000),
        ];
        for time in huge {
            for inc in [Duration::ZERO, Duration::from_secs(7), Duration::MAX] {
                for movestogo in [None, Some(1), Some(u32::MAX)] {
                    let limits: Go<Eleven> = Go::<Eleven> {
                        clock: attackers(time, inc),
                        movestogo,
                        ..Go::default()
                    };
                    let tm = TimeManager::new(
                        &limits,
                        Side::Attackers,
                        Duration::from_secs(5),
                        &SearchParams::default(),
                    );
                    let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
                    assert!(soft <= hard, "{time:?} {inc:?} {movestogo:?}");
                    assert!(soft <= MAX_SOFT && hard <= MAX_HARD);
                    // Still a real think, not an instant move.
                    assert!(soft >= Duration::from_secs(60), "{soft:?}");
                }
            }
        }
        // A long realistic clock gives a move about as much as the cap.
        let two_hours: Go<Eleven> = Go::<Eleven> {
            clock: defenders(Duration::from_secs(2 * 3600), Duration::from_secs(30)),
            ..Go::default()
        };
        let tm = TimeManager::new(
            &two_hours,
            Side::Defenders,
            Duration::ZERO,
            &SearchParams::default(),
        );
        assert!(tm.soft.unwrap() > MAX_SOFT / 2 && tm.soft.unwrap() <= MAX_SOFT);
        // A huge increment with little time left: never more than the time left.
        let limits: Go<Eleven> = Go::<Eleven> {
            clock: attackers(Duration::from_secs(10), Duration::MAX),
            ..Go::default()
        };
        let tm = TimeManager::new(
            &limits,
            Side::Attackers,
            Duration::ZERO,
            &SearchParams::default(),
        );
        assert!(tm.soft.unwrap() <= Duration::from_secs(5));
        assert!(tm.hard.unwrap() <= Duration::from_secs(8));
        // A huge movetime is the host's explicit wish and is kept.
        let limits: Go<Eleven> = Go::<Eleven> {
            movetime: Some(Duration::MAX),
            ..Go::default()
        };
        let tm = TimeManager::new(
            &limits,
            Side::Attackers,
            Duration::from_secs(5000),
            &SearchParams::default(),
        );
        assert!(tm.hard.unwrap() > Duration::from_secs(1 << 40));
    }
}
