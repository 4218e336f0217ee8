//! Openings: the first plies of the real games, deduplicated (`hnefi openings` writes
//! `positions/openings.txt`), and the reading of openings files.

use crate::board::notation::parse_move;
use crate::board::{Move, Position, Rules};
use crate::record::read_games;

/// The openings shipped with Hnefi: four plies of each real game, deduplicated.
pub const BUILT_IN: &str = include_str!("../../positions/openings.txt");

/// The first `plies` moves of every game that has them, without repeats, in order of first
/// appearance.
pub fn openings_from_games(games_csv: &str, plies: usize) -> Vec<Vec<Move>> {
    let mut seen = std::collections::HashSet::new();
    read_games(games_csv)
        .into_iter()
        .filter(|(_, g)| g.moves.len() > plies)
        .map(|(_, g)| g.moves[..plies].iter().map(|m| m.mv).collect::<Vec<_>>())
        .filter(|line| seen.insert(line.clone()))
        .collect()
}

/// Reads an openings file: one opening per line, moves separated by spaces, `#` comments.
pub fn parse_openings(text: &str) -> Result<Vec<Vec<Move>>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            l.split_whitespace()
                .map(|m| parse_move(m).map_err(|e| format!("line {}: {e}", i + 1)))
                .collect()
        })
        .collect()
}

/// Reads an openings file and checks each opening under `rules`: every move legal and the
/// game still going at its end.
pub fn load_openings(text: &str, rules: Rules) -> Result<Vec<Vec<Move>>, String> {
    let openings = parse_openings(text)?;
    for (i, line) in openings.iter().enumerate() {
        let mut pos = Position::start(rules);
        for &mv in line {
            pos.try_play(mv)
                .map_err(|e| format!("opening {}: {mv:?}: {e}", i + 1))?;
        }
        if let Some(o) = pos.outcome() {
            return Err(format!("opening {}: the game is already over ({o})", i + 1));
        }
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_openings_are_legal() {
        let openings = load_openings(BUILT_IN, Rules::default()).unwrap();
        assert_eq!(openings.len(), 1240);
        assert!(openings.iter().all(|o| o.len() == 4));
        assert!(
            load_openings("d1d3 d1d3", Rules::default())
                .unwrap_err()
                .contains("opening 1")
        );
        assert!(
            load_openings("d1-zz", Rules::default())
                .unwrap_err()
                .contains("line 1")
        );
    }
}
