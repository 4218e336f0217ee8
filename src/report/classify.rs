//! Judging moves by what they cost the side that played them, on the scale of
//! [`super::scale`], and finding the turning points of a game.
//!
//! The thresholds, in the mover's chance of winning lost by the move, like set against like so
//! that the score's swing with the side to move is no loss: the position after the engine's
//! choice against the position after the move played (both with the opponent to move), and the
//! mover's chance at its next turn against its chance at this one (both with the mover to
//! move); the smaller of the two:
//!
//! | loss | judgement |
//! |---|---|
//! | at least 0.10 | inaccuracy `?!` |
//! | at least 0.20 | mistake `?` |
//! | at least 0.30 | blunder `??` |
//!
//! A tenth of the game's chance is about what a loose move costs; a third turns a won game into
//! a lost one. Only a move other than the engine's choice is judged: where the engine would
//! have played the same move, the loss is its own search noise, not the player's fault.

use std::fmt;

/// Least loss, in the mover's chance of winning, for each judgement.
pub const INACCURACY: f64 = 0.10;
pub const MISTAKE: f64 = 0.20;
pub const BLUNDER: f64 = 0.30;

/// Leading by this much (a chance of 0.5 plus or minus it) makes a side the leader.
pub const LEAD: f64 = 0.10;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The judgement for a move that lost `loss` of the mover's chance of winning.
    pub fn of_loss(loss: f64) -> Option<Judgement> {
        if loss >= BLUNDER {
            Some(Judgement::Blunder)
        } else if loss >= MISTAKE {
            Some(Judgement::Mistake)
        } else if loss >= INACCURACY {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// The annotation glyph of chess and tafl commentary.
    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

impl Judgement {
    pub fn plural(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracies",
            Judgement::Mistake => "mistakes",
            Judgement::Blunder => "blunders",
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The plies (indices into `chances`, the attackers' chance after each ply with the start at
/// 0) after which the lead passed from one side to the other. A side leads once its chance
/// reaches 0.5 + [`LEAD`], and keeps the lead until the other side's does: wobbles around an
/// even position are not turns, and neither is the first lead of a game, which the engine's
/// view of the opening often gives at once.
pub fn turning_points(chances: &[f64]) -> Vec<usize> {
    let mut leader: Option<bool> = None;
    let mut turns = Vec::new();
    for (ply, &p) in chances.iter().enumerate() {
        let now = if p >= 0.5 + LEAD {
            Some(true)
        } else if p <= 0.5 - LEAD {
            Some(false)
        } else {
            leader
        };
        if leader.is_some() && now != leader {
            turns.push(ply);
        }
        leader = now;
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_and_turning_points() {
        // The attackers' chance along a made-up game: even, then the defenders' second move
        // (ply 2) hands the attackers a won position.
        let attackers = [0.5, 0.52, 0.90, 0.88];
        let defenders_loss = (1.0 - attackers[1]) - (1.0 - attackers[2]);
        assert_eq!(Judgement::of_loss(defenders_loss), Some(Judgement::Blunder));
        assert_eq!(Judgement::of_loss(0.02), None);
        assert_eq!(Judgement::of_loss(-0.5), None);
        assert_eq!(Judgement::of_loss(INACCURACY), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(0.25), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(BLUNDER), Some(Judgement::Blunder));
        // Taking the lead from an even game is no turn; passing it to the other side is.
        assert_eq!(turning_points(&attackers), Vec::<usize>::new());
        assert_eq!(
            turning_points(&[0.5, 0.3, 0.55, 0.7, 0.65, 0.2]),
            vec![3, 5]
        );
        assert_eq!(turning_points(&[0.8, 0.7, 0.55]), Vec::<usize>::new());
    }
}
