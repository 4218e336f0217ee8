//! Game records in the community format of `copenhagen.csv`: the core crate's reader and
//! writer, [`hnefi_core::games::record`], and the real games built into the binary.

pub use hnefi_core::games::record::*;

/// The real games of `data/copenhagen.csv`, built in so that the commands that read them by
/// default work from any folder, after `cargo install` too.
pub const REAL_GAMES: &str = include_str!("../../data/copenhagen.csv");

/// Every game of a record file of 11x11 games, with its line number; lines that do not parse
/// are skipped and reported to the log.
pub fn read_games(text: &str) -> Vec<(usize, GameRecord<crate::search::size::Standard>)> {
    read_games_of(text)
}

/// [`read_games`] for games on the board of `G`.
pub fn read_games_of<G: crate::board::Geometry>(text: &str) -> Vec<(usize, GameRecord<G>)> {
    records(text)
        .filter_map(|(line, game)| match game {
            Ok(game) => Some((line, game)),
            Err(e) => {
                log::warn!("line {line}: {e}");
                None
            }
        })
        .collect()
}
