//! How long the bot thinks: the server's clock, read from `resume_game_json`, turned into the
//! engine's limits.
//!
//! The server reports each side's time left as of `last_move`, which its ticker moves to the
//! present every 250 ms while a side thinks, with the mover's increment already added. The
//! bot takes off the age of that report (by its own clock, never less than nothing) and the
//! time since it arrived, keeps back a reserve for the way to the server and back, and gives
//! the rest to the engine's time manager as a Fischer clock. The server ends a game on time
//! within about half a second after a clock reaches zero; the reserve keeps the bot's moves
//! well before that.

use super::record::{GameRecord, unix_millis};
use crate::board::{Geometry, Side};
use crate::search::Go;
use crate::search::clock::{Clock, SideClock};
use crate::search::params::SearchParams;
use crate::search::time::TimeManager;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Kept back from every clock: one tick of the server's clock (250 ms) plus room for the move
/// to reach it. The measured round trip to the server is kept back as well.
pub const RESERVE: Duration = Duration::from_millis(400);

/// Time per move when the game has no clock and `--movetime` sets none: about what the
/// site's own bots take.
pub const UNTIMED_MOVE: Duration = Duration::from_secs(4);

/// A game's clocks as the server last reported them.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    attackers: Duration,
    defenders: Duration,
    pub increment: Duration,
    /// When the report arrived, and how old it already was then.
    received: Instant,
    age: Duration,
}

impl Clocks {
    /// The clocks of `record`, received at `received`; `None` for an untimed game.
    pub fn of(record: &GameRecord, received: Instant) -> Option<Clocks> {
        let control = record.time_control.as_ref()?;
        let remaining = record.time_remaining_ms.as_ref()?;
        let millis = |ms: i64| Duration::from_millis(ms.max(0) as u64);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let age = unix_millis(&remaining.last_move).map_or(0, |then| now.saturating_sub(then));
        Some(Clocks {
            attackers: millis(remaining.attackers),
            defenders: millis(remaining.defenders),
            increment: Duration::from_secs(control.increment_length.max(0) as u64),
            received,
            age: millis(age),
        })
    }

    /// The time `side` has left now, as far as the bot can tell.
    pub fn left(&self, side: Side) -> Duration {
        let reported = match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        reported
            .saturating_sub(self.age)
            .saturating_sub(self.received.elapsed())
    }
}

/// The bot's thinking-time settings.
#[derive(Clone, Copy, Debug)]
pub struct ClockPolicy {
    /// The most time any move may take (`--movetime`), whatever the clock allows; also the
    /// time per move of untimed games.
    pub cap: Option<Duration>,
}

impl ClockPolicy {
    /// The limits for a search of `side` under `clocks` (`None`: untimed), with `round_trip`
    /// the time a line takes to the server and back, and `moves_left` the moves `side` still
    /// has to play before the server's move limit, this one included.
    ///
    /// A tenth of the time left is kept back besides the reserve: on a loaded machine the
    /// record's round trip and the search's stop were seen to take a second more than planned,
    /// which lost a game on time with 1.8 s left. The move limit spreads the clock over the
    /// whole game: planned for 30 more moves, a 1:00+1 clock was spent by move 35 of 70.
    pub fn limits<G: Geometry>(
        &self,
        clocks: Option<&Clocks>,
        side: Side,
        round_trip: Duration,
        moves_left: Option<u32>,
    ) -> Go<G> {
        let Some(clocks) = clocks else {
            return Go {
                movetime: Some(self.cap.unwrap_or(UNTIMED_MOVE)),
                ..Go::default()
            };
        };
        let left = clocks.left(side);
        let left = (left - left / 10)
            .saturating_sub(RESERVE)
            .saturating_sub(round_trip);
        let limits = Go {
            clock: Clock::both(SideClock::new(left, clocks.increment)),
            movestogo: moves_left,
            ..Go::default()
        };
        // The default split of the clock: the cap only asks whether a move could take longer
        // than it allows.
        let split = SearchParams::default();
        match self.cap {
            Some(cap)
                if TimeManager::new(&limits, side, Duration::ZERO, &split).hard > Some(cap) =>
            {
                Go {
                    movetime: Some(cap),
                    ..Go::default()
                }
            }
            _ => limits,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::size::Standard;

    fn clocks(attackers_ms: u64, age_ms: u64) -> Clocks {
        Clocks {
            attackers: Duration::from_millis(attackers_ms),
            defenders: Duration::from_secs(60),
            increment: Duration::from_secs(1),
            received: Instant::now(),
            age: Duration::from_millis(age_ms),
        }
    }

    fn hard(limits: &Go<Standard>) -> Duration {
        TimeManager::new(
            limits,
            Side::Attackers,
            Duration::ZERO,
            &SearchParams::default(),
        )
        .hard
        .unwrap()
    }

    #[test]
    fn a_move_stays_well_inside_the_clock() {
        let policy = ClockPolicy { cap: None };
        for left in [60_000, 10_000, 1_000, 500, 100, 0] {
            let limits = policy.limits(
                Some(&clocks(left, 0)),
                Side::Attackers,
                Duration::ZERO,
                None,
            );
            let budget = Duration::from_millis(left).saturating_sub(RESERVE);
            assert!(
                hard(&limits) <= budget.max(Duration::from_millis(1)),
                "{left}"
            );
        }
        // The age of the report and the round trip come off too.
        let old = policy.limits(
            Some(&clocks(10_000, 9_000)),
            Side::Attackers,
            Duration::from_millis(200),
            None,
        );
        assert!(hard(&old) <= Duration::from_millis(400));
    }

    #[test]
    fn the_move_limit_spreads_the_clock() {
        let policy = ClockPolicy { cap: None };
        let at = |moves_left| {
            hard(&policy.limits(
                Some(&clocks(60_000, 0)),
                Side::Attackers,
                Duration::ZERO,
                moves_left,
            ))
        };
        // 70 moves to go plan less a move than the default 30, and one move to go may take
        // most of the clock, never all of it.
        assert!(at(Some(70)) < at(None));
        assert!(at(Some(1)) > at(None) && at(Some(1)) < Duration::from_secs(54));
    }

    #[test]
    fn the_cap_and_untimed_games() {
        let capped = ClockPolicy {
            cap: Some(Duration::from_millis(300)),
        };
        let limits = capped.limits::<Standard>(
            Some(&clocks(60_000, 0)),
            Side::Attackers,
            Duration::ZERO,
            None,
        );
        assert_eq!(limits.movetime, Some(Duration::from_millis(300)));
        // A clock shorter than the cap keeps the clock.
        let short =
            capped.limits::<Standard>(Some(&clocks(700, 0)), Side::Attackers, Duration::ZERO, None);
        assert_eq!(short.movetime, None);
        let untimed = ClockPolicy { cap: None }.limits::<Standard>(
            None,
            Side::Defenders,
            Duration::ZERO,
            None,
        );
        assert_eq!(untimed.movetime, Some(UNTIMED_MOVE));
        assert_eq!(
            capped
                .limits::<Standard>(None, Side::Defenders, Duration::ZERO, None)
                .movetime,
            Some(Duration::from_millis(300))
        );
    }
}
