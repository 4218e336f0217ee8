//! OpenTafl rules strings (`dim:11 name:Copenhagen atkf:y tfr:w ... start:/.../`): what Hnefi
//! can play of them, and the string a host sends for Hnefi's rules.

use crate::board::NotationError;
use crate::board::notation::{parse_opentafl, to_opentafl};
use crate::board::rules::Repetition;
use crate::board::{Board, Rules, Side};

/// Why Hnefi cannot play a rules string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("'{0}' is not key:value")]
    NotKeyValue(String),
    #[error("board size {0} (only 11)")]
    BoardSize(String),
    #[error("defenders moving first")]
    DefendersFirst,
    #[error("edge escape")]
    EdgeEscape,
    #[error("king strength '{0}'")]
    KingStrength(String),
    #[error("threefold repetition rule '{0}'")]
    Repetition(String),
    #[error("start: {0}")]
    Start(NotationError),
    #[error("no start position")]
    NoStart,
}

/// Reads an OpenTafl rules string into Hnefi's rules and the start board.
pub fn parse_rules(text: &str) -> Result<(Rules, Board), RulesError> {
    // OpenTafl's defaults for keys left out.
    let mut rules = Rules {
        shieldwall: false,
        exit_fort: false,
        repetition: Repetition::ThirdIsDraw,
        ..Rules::default()
    };
    let mut start = None;
    let mut copenhagen = false;
    for field in text.split_whitespace() {
        let Some((key, value)) = field.split_once(':') else {
            return Err(RulesError::NotKeyValue(field.to_string()));
        };
        match key {
            "dim" if value != "11" => return Err(RulesError::BoardSize(value.to_string())),
            "dim" => {}
            "name" => copenhagen = value.to_ascii_lowercase().contains("copenhagen"),
            "atkf" if value != "y" => return Err(RulesError::DefendersFirst),
            "esc" if value != "c" => return Err(RulesError::EdgeEscape),
            "sw" => rules.shieldwall = value != "n",
            "efe" => rules.exit_fort = value == "y",
            "ka" => rules.king_armed = value != "n",
            "ks" if value != "s" => return Err(RulesError::KingStrength(value.to_string())),
            "tfr" => {
                rules.repetition = match value {
                    "w" => Repetition::ThirdLosesForMover,
                    "d" => Repetition::ThirdIsDraw,
                    "n" => Repetition::Off,
                    other => return Err(RulesError::Repetition(other.to_string())),
                }
            }
            "start" => {
                start = Some(parse_opentafl(value, Side::Attackers).map_err(RulesError::Start)?)
            }
            other => log::info!("rules: ignoring key '{other}'"),
        }
    }
    rules.encirclement = copenhagen;
    let board = start.ok_or(RulesError::NoStart)?;
    Ok((rules, board))
}

/// The OpenTafl rules string a host sends for `rules` from `start`: as close as OpenTafl's
/// keys come (it has no key for "the third repetition loses for the defenders", so
/// Copenhagen is sent as the host sends it, with `tfr:w`).
pub fn rules_string(rules: &Rules, start: &Board) -> String {
    let name = if rules.encirclement {
        "Copenhagen"
    } else {
        "Fetlar"
    };
    let tfr = match rules.repetition {
        Repetition::Off => "n",
        Repetition::ThirdIsDraw => "d",
        _ => "w",
    };
    format!(
        "dim:11 name:{name} atkf:y tfr:{tfr} sw:{} efe:{} ka:{} start:{}",
        if rules.shieldwall { "s" } else { "n" },
        if rules.exit_fort { "y" } else { "n" },
        if rules.king_armed { "a" } else { "n" },
        to_opentafl(start)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Preset;

    #[test]
    fn rules_strings_read_back() {
        for preset in Preset::ALL {
            let rules = Rules::preset(preset);
            let text = rules_string(&rules, &Board::start());
            let (back, board) = parse_rules(&text).unwrap();
            assert_eq!(board, Board::start(), "{text}");
            assert_eq!(
                (
                    back.shieldwall,
                    back.exit_fort,
                    back.king_armed,
                    back.encirclement
                ),
                (
                    rules.shieldwall,
                    rules.exit_fort,
                    rules.king_armed,
                    rules.encirclement
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn what_cannot_be_played_is_named() {
        let e = |t: &str| parse_rules(t).unwrap_err().to_string();
        assert_eq!(e("dim:13"), "board size 13 (only 11)");
        assert_eq!(e("dim:11 atkf:n"), "defenders moving first");
        assert_eq!(e("dim:11 tfr:x"), "threefold repetition rule 'x'");
        assert_eq!(e("nonsense"), "'nonsense' is not key:value");
        assert_eq!(e("dim:11"), "no start position");
        assert!(e("dim:11 start:/junk/").starts_with("start: "));
    }
}
