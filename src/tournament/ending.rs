//! How a game of a match ended: by the rules, or by one engine's forfeit.

use super::player::Forfeit;
use crate::board::{Outcome, Side};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules, or by the match's length limit.
    Rules(Outcome),
    /// The engine `name`, playing `side`, lost by `kind`.
    Forfeit {
        side: Side,
        name: String,
        kind: Forfeit,
    },
}

impl Ending {
    /// The side that won, `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match self {
            Ending::Rules(o) => o.winner,
            Ending::Forfeit { side, .. } => Some(side.opponent()),
        }
    }
}

/// The words the report and the JSON summary count endings by: `attackers won: king
/// escaped`, `draw: repetition`, `NAME lost by time loss`.
impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Rules(o) => match o.winner {
                Some(w) => write!(f, "{w} won: {}", o.reason.label()),
                None => write!(f, "draw: {}", o.reason.label()),
            },
            Ending::Forfeit { name, kind, .. } => write!(f, "{name} lost by {}", kind.label()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Reason;

    #[test]
    fn endings_name_the_winner_and_read_as_before() {
        let escaped = Ending::Rules(Outcome::win(Side::Defenders, Reason::KingEscaped));
        assert_eq!(escaped.winner(), Some(Side::Defenders));
        assert_eq!(escaped.to_string(), "defenders won: king escaped");
        let drawn = Ending::Rules(Outcome::draw(Reason::Repetition));
        assert_eq!(
            (drawn.winner(), drawn.to_string().as_str()),
            (None, "draw: repetition")
        );
        let lost = Ending::Forfeit {
            side: Side::Attackers,
            name: "bad".into(),
            kind: Forfeit::TimeLoss,
        };
        assert_eq!(lost.winner(), Some(Side::Defenders));
        assert_eq!(lost.to_string(), "bad lost by time loss");
    }
}
