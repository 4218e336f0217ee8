//! How a game ended: a winner (or a draw) and the reason.

use super::piece::Side;
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
/// Why a game ended.
pub enum Reason {
    /// The king reached an escape square.
    KingEscaped,
    /// The king was captured.
    KingCaptured,
    /// The king made an exit fort on the edge.
    ExitFort,
    /// The attackers surrounded every defender.
    Encirclement,
    /// The side to move had no legal move.
    NoMoves,
    /// A position occurred for the third time.
    Repetition,
    /// 2017: the defenders' arrangement recurred three times without a capture.
    DrawFort,
    /// Too many plies without a capture.
    NoCaptures,
    /// The game reached the preset's length limit.
    MoveLimit,
    /// hnefatafl.org's program judged that the king can no longer escape.
    NoEscape,
}

impl Reason {
    /// A short name for tables.
    pub fn label(self) -> &'static str {
        match self {
            Reason::KingEscaped => "king escaped",
            Reason::KingCaptured => "king captured",
            Reason::ExitFort => "exit fort",
            Reason::Encirclement => "encirclement",
            Reason::NoMoves => "no moves",
            Reason::Repetition => "repetition",
            Reason::DrawFort => "draw fort",
            Reason::NoCaptures => "no captures",
            Reason::MoveLimit => "move limit",
            Reason::NoEscape => "no escape",
        }
    }

    /// The reason in words, for people.
    pub fn describe(self) -> &'static str {
        match self {
            // To a corner or, in edge-escape variants, to any edge square.
            Reason::KingEscaped => "the king escaped",
            Reason::KingCaptured => "the king was captured",
            Reason::ExitFort => "the defenders built an exit fort",
            Reason::Encirclement => "the attackers encircled all defenders",
            Reason::NoMoves => "the side to move has no legal move",
            Reason::Repetition => "a position occurred for the third time",
            Reason::DrawFort => "the defenders repeated a draw fort",
            Reason::NoCaptures => "too many moves without a capture",
            Reason::MoveLimit => "the game reached its length limit",
            Reason::NoEscape => "the king can no longer escape",
        }
    }
}

/// The end of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: Reason,
}

impl Outcome {
    /// `winner` won, for `reason`.
    pub const fn win(winner: Side, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw, for `reason`.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} win: {}", self.reason.describe()),
            None => write!(f, "draw: {}", self.reason.describe()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_escape_is_not_said_to_be_to_a_corner() {
        // Sea Battle and the Tablut variants escape at the edges, which have no corners.
        let escaped = Outcome::win(Side::Defenders, Reason::KingEscaped);
        assert_eq!(escaped.to_string(), "defenders win: the king escaped");
    }
}
