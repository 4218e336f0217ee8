//! Game clocks: the one shape in which every protocol, the search's time manager and the match
//! runner keep time. Arithmetic saturates, so that a host's clock of any size is played, never
//! overflowed.

use crate::board::Side;
use std::time::Duration;

/// One side's clock: the time it has left and the increment it gains after each move (a
/// Fischer clock). As a time control, `left` is the main time a game starts with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideClock {
    /// Time left.
    pub left: Duration,
    /// Time added after each move.
    pub inc: Duration,
}

impl SideClock {
    /// A clock with `left`, adding `inc` a move.
    pub const fn new(left: Duration, inc: Duration) -> SideClock {
        SideClock { left, inc }
    }

    /// The clock after a move that took `used`.
    pub fn after_move(self, used: Duration) -> SideClock {
        SideClock {
            left: self.left.saturating_sub(used).saturating_add(self.inc),
            inc: self.inc,
        }
    }
}

/// Both sides' clocks, attackers first; a side without one plays untimed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock([Option<SideClock>; 2]);

impl Clock {
    /// Neither side has a clock.
    pub const NONE: Clock = Clock([None, None]);

    /// The clocks of both sides, `None` for a side without one.
    pub const fn new(attackers: Option<SideClock>, defenders: Option<SideClock>) -> Clock {
        Clock([attackers, defenders])
    }

    /// The same clock for both sides.
    pub const fn both(clock: SideClock) -> Clock {
        Clock([Some(clock), Some(clock)])
    }

    /// `side`'s clock, if it has one.
    pub fn side(&self, side: Side) -> Option<SideClock> {
        self.0[side.index()]
    }

    /// `side` moved, taking `used`: its time goes down by that and up by its increment.
    pub fn spend(&mut self, side: Side, used: Duration) {
        if let Some(c) = &mut self.0[side.index()] {
            *c = c.after_move(used);
        }
    }

    /// The clock as a host shows it to `side` when asking it for a move: `None` when `side`
    /// plays untimed. The protocols have no words for "no clock", so an opponent without one
    /// is shown `side`'s own.
    pub fn shown_to(&self, side: Side) -> Option<Clock> {
        let own = self.side(side)?;
        Some(Clock(self.0.map(|c| Some(c.unwrap_or(own)))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_spend_and_gain_saturating() {
        let s = Duration::from_secs;
        let mut clock = Clock::new(Some(SideClock::new(s(10), s(2))), None);
        clock.spend(Side::Attackers, s(3));
        assert_eq!(
            clock.side(Side::Attackers),
            Some(SideClock::new(s(9), s(2)))
        );
        clock.spend(Side::Attackers, s(100));
        assert_eq!(clock.side(Side::Attackers).unwrap().left, s(2));
        clock.spend(Side::Defenders, s(1));
        assert_eq!(clock.side(Side::Defenders), None);
        let mut huge = Clock::both(SideClock::new(Duration::MAX, Duration::MAX));
        huge.spend(Side::Defenders, Duration::ZERO);
        assert_eq!(huge.side(Side::Defenders).unwrap().left, Duration::MAX);
    }

    #[test]
    fn an_untimed_opponent_is_shown_the_movers_clock() {
        let own = SideClock::new(Duration::from_secs(5), Duration::from_secs(1));
        let clock = Clock::new(None, Some(own));
        assert_eq!(clock.shown_to(Side::Attackers), None);
        assert_eq!(clock.shown_to(Side::Defenders), Some(Clock::both(own)));
        assert_eq!(Clock::NONE.shown_to(Side::Defenders), None);
    }
}
