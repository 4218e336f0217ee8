//! OpenTafl rules strings in the engine protocol: what Hnefi's engine can play of them, and
//! the string a host sends for Hnefi's rules. The strings themselves are read and written by
//! the board (`board::opentafl`).

use crate::board::notation::to_opentafl;
use crate::board::opentafl::{
    RulesStringError, Variant, parse_rules_string, rules_string as write,
};
use crate::board::{Board, NotationError};
use crate::board::{Geometry, Rules};

/// Why Hnefi's engine cannot play a rules string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error(transparent)]
    Unsupported(#[from] RulesStringError),
    #[error("start: {0}")]
    Start(String),
}

/// Reads an OpenTafl rules string: the rules, and the start as OpenTafl writes it, read on
/// the board of the rules' size by [`start`].
pub fn parse_rules(text: &str) -> Result<Variant, RulesError> {
    let variant = parse_rules_string(text)?;
    Ok(variant)
}

/// The start board of `variant`, whose rules are for boards of `G`.
pub fn start<G: Geometry>(variant: &Variant) -> Result<Board<G>, RulesError> {
    Board::<G>::from_opentafl(&variant.start, variant.rules.first)
        .map_err(|e: NotationError<G>| RulesError::Start(e.to_string()))
}

/// The OpenTafl rules string a host sends for `rules` from `start`.
pub fn rules_string<G: Geometry>(rules: &Rules, start: &Board<G>) -> String {
    write(rules, &to_opentafl(start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Preset;
    use crate::search::size::Standard;

    #[test]
    fn rules_strings_read_back() {
        for preset in Preset::ALL.into_iter().filter(|p| p.width() == 11) {
            let rules = Rules::preset(preset);
            let text = rules_string(&rules, &Board::start());
            let variant = parse_rules(&text).unwrap();
            let (back, board) = (variant.rules, start::<Standard>(&variant).unwrap());
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
        let e = |t: &str| match parse_rules(t) {
            Ok(v) => start::<Standard>(&v).unwrap_err().to_string(),
            Err(e) => e.to_string(),
        };
        assert_eq!(e("dim:11 tfr:x start:/"), "'tfr:x': w, l, d or i");
        assert_eq!(e("nonsense"), "'nonsense' is not key:value");
        assert_eq!(e("dim:11"), "no start position ('start:' or 'starti:')");
        assert!(e("dim:11 start:/junk/").starts_with("start position: "));
        assert!(e("dim:11 start:/11/").starts_with("start: "));
    }
}
