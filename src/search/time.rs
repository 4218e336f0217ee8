//! Time management: a soft limit after which no new iteration starts, and a hard limit at
//! which the search stops wherever it is. Both keep the move overhead in reserve, so that the
//! engine never loses on time.

use super::Limits;
use crate::board::Side;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct TimeManager {
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// Moves to plan for when the host gives no `movestogo`: tafl games last about 40-60 moves a
/// side, and the middle of the game deserves the most.
const DEFAULT_MOVES_TO_GO: u64 = 30;

impl TimeManager {
    pub fn new(limits: &Limits, side: Side, overhead: Duration) -> TimeManager {
        let start = Instant::now();
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let (time, inc) = match side {
            Side::Attackers => (limits.attackers_time, limits.attackers_inc),
            Side::Defenders => (limits.defenders_time, limits.defenders_inc),
        };
        let Some(time) = time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        let inc = inc.unwrap_or_default();
        let left = time.saturating_sub(overhead);
        let mtg = limits
            .movestogo
            .map_or(DEFAULT_MOVES_TO_GO, |m| (m as u64).clamp(1, 100));
        let share = left / mtg as u32 + inc * 3 / 4;
        let soft = share.min(left / 2);
        let hard = (share * 3).min(left * 4 / 5);
        TimeManager {
            start,
            soft: Some(soft.max(Duration::from_millis(1))),
            hard: Some(hard.max(Duration::from_millis(1))),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether to start another iteration.
    pub fn soft_exceeded(&self) -> bool {
        self.soft.is_some_and(|s| self.elapsed() >= s)
    }

    pub fn hard_exceeded(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let limits = Limits {
            attackers_time: Some(Duration::from_millis(10_000)),
            attackers_inc: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Side::Attackers, Duration::from_millis(50));
        let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
        assert!(soft <= hard && hard < Duration::from_millis(10_000));
        assert!(soft > Duration::from_millis(100));
        // Almost no time left: still a positive budget below the remaining time.
        let limits = Limits {
            defenders_time: Some(Duration::from_millis(30)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Side::Defenders, Duration::from_millis(50));
        assert!(tm.hard.unwrap() <= Duration::from_millis(1));
        // No clock for the side to move: no limit.
        let tm = TimeManager::new(&limits, Side::Attackers, Duration::ZERO);
        assert!(tm.hard.is_none());
    }
}
