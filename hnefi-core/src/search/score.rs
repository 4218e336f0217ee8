//! Scores in centi-pawns from the side to move's point of view, with wins and losses that
//! count plies to the end of the game.

use crate::board::{Outcome, Side};
use std::fmt;
use std::ops::{Add, Neg, Sub};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default, Hash)]
/// A score in centipawns for the side to move; wins and losses count plies to the end.
pub struct Score(pub i32);

impl Score {
    /// Even.
    pub const ZERO: Score = Score(0);
    /// A draw.
    pub const DRAW: Score = Score(0);
    /// A win right now; a win `n` plies away is `WIN - n`.
    pub const WIN: Score = Score(30_000);
    /// Beyond every score: the bounds of a full window.
    pub const INFINITE: Score = Score(31_000);
    /// Scores beyond this are wins or losses.
    const DECISIVE: i32 = 29_000;

    /// A win `plies` away.
    pub const fn win_in(plies: u32) -> Score {
        Score(Self::WIN.0 - plies as i32)
    }

    /// A loss `plies` away.
    pub const fn loss_in(plies: u32) -> Score {
        Score(-Self::WIN.0 + plies as i32)
    }

    /// This score of `to_move`'s, from the attackers' view.
    pub fn for_attackers(self, to_move: Side) -> Score {
        match to_move {
            Side::Attackers => self,
            Side::Defenders => -self,
        }
    }

    /// A finished game, for `side`, `ply` plies from the root.
    pub fn of_outcome(outcome: Outcome, side: Side, ply: u32) -> Score {
        match outcome.winner {
            None => Score::DRAW,
            Some(winner) if winner == side => Score::win_in(ply),
            Some(_) => Score::loss_in(ply),
        }
    }

    /// Whether the score is a win or a loss.
    pub const fn is_decisive(self) -> bool {
        self.0 > Self::DECISIVE || self.0 < -Self::DECISIVE
    }

    /// Plies to the end for a decisive score.
    pub const fn plies_to_end(self) -> Option<u32> {
        if self.is_decisive() {
            Some((Self::WIN.0 - self.0.abs()) as u32)
        } else {
            None
        }
    }

    /// For the transposition table: decisive scores relative to the node, not the root.
    pub const fn to_tt(self, ply: u32) -> Score {
        if self.0 > Self::DECISIVE {
            Score(self.0 + ply as i32)
        } else if self.0 < -Self::DECISIVE {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// From the transposition table: decisive scores relative to the root at `ply`.
    pub const fn from_tt(self, ply: u32) -> Score {
        if self.0 > Self::DECISIVE {
            Score(self.0 - ply as i32)
        } else if self.0 < -Self::DECISIVE {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add<i32> for Score {
    type Output = Score;
    fn add(self, rhs: i32) -> Score {
        Score(self.0 + rhs)
    }
}

impl Sub<i32> for Score {
    type Output = Score;
    fn sub(self, rhs: i32) -> Score {
        Score(self.0 - rhs)
    }
}

impl Score {
    /// For people, in the unit of the evaluation's terms: `+125 cp`, or `win in 3` /
    /// `loss in 2` (plies).
    pub fn centipawns(self) -> String {
        match self.plies_to_end() {
            Some(_) => self.to_string(),
            None => format!("{:+} cp", self.0),
        }
    }
}

/// `+1.25`, or `win in 3` / `loss in 2` (plies).
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end() {
            Some(n) if self.0 > 0 => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {n}"),
            None => write!(f, "{:+.2}", self.0 as f64 / 100.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisive_scores() {
        assert!(Score::win_in(3).is_decisive());
        assert_eq!(Score::win_in(3).plies_to_end(), Some(3));
        assert_eq!((-Score::win_in(3)).plies_to_end(), Some(3));
        assert!(Score::win_in(1) > Score::win_in(3));
        assert_eq!(Score::win_in(5).to_tt(2).from_tt(2), Score::win_in(5));
        assert_eq!(Score::win_in(5).to_tt(2), Score::win_in(3));
        assert!(!Score(2500).is_decisive());
        assert_eq!(Score(125).to_string(), "+1.25");
        assert_eq!(Score(-275).centipawns(), "-275 cp");
        assert_eq!(Score::win_in(3).centipawns(), "win in 3");
        assert_eq!(Score(125).for_attackers(Side::Defenders), Score(-125));
        assert_eq!(Score(125).for_attackers(Side::Attackers), Score(125));
    }
}
