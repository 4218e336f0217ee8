//! OpenTafl rules strings in the engine protocol: what Hnefi's engine can play of them, and
//! the string a host sends for Hnefi's rules. The strings themselves are read and written by
//! the board (`board::opentafl`).

use crate::board::NotationError;
use crate::board::notation::{parse_opentafl, to_opentafl};
use crate::board::opentafl::{RulesStringError, parse_rules_string, rules_string as write};
use crate::board::{Board, Rules};

/// Why Hnefi's engine cannot play a rules string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error(transparent)]
    Unsupported(#[from] RulesStringError),
    #[error("board size {0}: this engine plays 11x11 games so far")]
    BoardSize(u8),
    #[error(
        "this engine plays 11x11 with Copenhagen's corners and throne, corner escape and a \
         strong king so far"
    )]
    NotYet,
    #[error("start: {0}")]
    Start(NotationError),
}

/// Reads an OpenTafl rules string into Hnefi's rules and the start board.
pub fn parse_rules(text: &str) -> Result<(Rules, Board), RulesError> {
    let variant = parse_rules_string(text)?;
    if variant.rules.side != 11 {
        return Err(RulesError::BoardSize(variant.rules.side));
    }
    if !variant.rules.engine_plays() {
        return Err(RulesError::NotYet);
    }
    let board = parse_opentafl(&variant.start, variant.rules.first).map_err(RulesError::Start)?;
    Ok((variant.rules, board))
}

/// The OpenTafl rules string a host sends for `rules` from `start`.
pub fn rules_string(rules: &Rules, start: &Board) -> String {
    write(rules, &to_opentafl(start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Preset;

    #[test]
    fn rules_strings_read_back() {
        for preset in Preset::ALL.into_iter().filter(|p| p.engine_plays()) {
            let rules = Rules::preset(preset);
            let text = rules_string(&rules, &Board::start());
            let (back, board) = parse_rules(&text).unwrap();
            assert_eq!(board, Board::start(), "{text}");
            assert_eq!(
                (
                    back.shieldwall,
                    back.exit_fort,
                    back.king_hammer,
                    back.encirclement,
                    back.escape
                ),
                (
                    rules.shieldwall,
                    rules.exit_fort,
                    rules.king_hammer,
                    rules.encirclement,
                    rules.escape
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn what_cannot_be_played_is_named() {
        let e = |t: &str| parse_rules(t).unwrap_err().to_string();
        assert_eq!(
            e("dim:13 start:/"),
            "board size 13: this engine plays 11x11 games so far"
        );
        assert_eq!(e("dim:11 tfr:x start:/"), "'tfr:x': w, l, d or i");
        assert_eq!(e("nonsense"), "'nonsense' is not key:value");
        assert_eq!(e("dim:11"), "no start position ('start:' or 'starti:')");
        assert!(e("dim:11 start:/junk/").starts_with("start position: "));
        assert!(e("dim:11 start:/11/").starts_with("start: "));
    }
}
