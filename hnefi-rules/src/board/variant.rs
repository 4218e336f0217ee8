//! Rules as people and records name them: a preset by name, or an OpenTafl rules string,
//! which carries its own start. The command line's `--rules`, the match runner and the game
//! records read them here, so that a record names its rules the way the command line takes them.

use crate::board::opentafl::{RulesStringError, parse_rules_string};
use crate::board::{Board, NotationError};
use crate::board::{Geometry, Preset, Rules, UnknownPreset};
use std::fmt;
use std::str::FromStr;

/// Rules and the start position they are played from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedRules {
    /// The rules.
    pub rules: Rules,
    /// The start: a FEN, or an OpenTafl position string and the side to move.
    pub start: String,
    /// How the rules are named: the preset's name, or the rules string as given.
    pub name: String,
}

/// Text that names no rules Hnefi plays.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesNameError {
    #[error("{0}; or give an OpenTafl rules string ('dim:9 esc:e ... start:/.../')")]
    /// Neither a preset's name nor a rules string.
    Preset(#[from] UnknownPreset),
    #[error("rules string: {0}")]
    /// A rules string Hnefi cannot play.
    RulesString(#[from] RulesStringError),
}

impl NamedRules {
    /// The rules of `preset`, named by it, from its start.
    pub fn preset(preset: Preset) -> NamedRules {
        NamedRules {
            rules: Rules::preset(preset),
            start: preset.start_fen().to_string(),
            name: preset.name().to_string(),
        }
    }

    /// The start board, on the board of `G` (the rules' size).
    pub fn start_board<G: Geometry>(&self) -> Result<Board<G>, NotationError<G>> {
        Board::from_position(&self.start)
    }

    /// Whether these are the Copenhagen preset, which the community's records mean when they
    /// name no rules.
    pub fn is_default(&self) -> bool {
        self.name == Preset::Copenhagen.name()
    }
}

impl Default for NamedRules {
    fn default() -> NamedRules {
        NamedRules::preset(Preset::Copenhagen)
    }
}

impl FromStr for NamedRules {
    type Err = RulesNameError;

    /// A preset's name, or an OpenTafl rules string (told apart by its `key:value` words).
    fn from_str(text: &str) -> Result<NamedRules, RulesNameError> {
        let text = text.trim();
        if text.contains(':') {
            let variant = parse_rules_string(text)?;
            let side = variant.rules.first.letter();
            return Ok(NamedRules {
                rules: variant.rules,
                start: format!("{} {side}", variant.start),
                name: text.to_string(),
            });
        }
        Ok(NamedRules::preset(text.parse()?))
    }
}

impl fmt::Display for NamedRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Nine, Seven, Thirteen};

    #[test]
    fn presets_and_rules_strings_name_their_rules_and_start() {
        let brandubh: NamedRules = " brandubh ".parse().unwrap();
        assert_eq!(brandubh.rules, Rules::preset(Preset::Brandubh));
        assert_eq!(brandubh.to_string(), "brandubh");
        assert!(brandubh.start_board::<Seven>().is_ok());
        assert!(brandubh.start_board::<Nine>().is_err());
        let thirteen: NamedRules = "copenhagen-13".parse().unwrap();
        assert!(thirteen.start_board::<Thirteen>().is_ok());
        let text =
            "dim:9 name:Tablut esc:e start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        let tablut: NamedRules = text.parse().unwrap();
        assert_eq!(tablut.rules.width, 9);
        assert_eq!(tablut.name, text);
        let board = tablut.start_board::<Nine>().unwrap();
        assert_eq!(board.attackers().count(), 16);
        assert!(NamedRules::default().is_default() && !tablut.is_default());
        let e = "chess".parse::<NamedRules>().unwrap_err().to_string();
        assert!(e.contains("unknown rules preset 'chess'") && e.contains("rules string"));
        let e = "dim:8 start:/8/"
            .parse::<NamedRules>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("board size"), "{e}");
    }
}
