//! Openings: the first plies of the real games, deduplicated (`hnefi openings` writes
//! `positions/openings.txt`), the even ones among later positions of those games
//! (`positions/openings-balanced.txt`), and the reading of openings files.

use crate::board::NotationError;
use crate::board::notation::parse_move;
use crate::board::{Move, MoveError, Outcome, Position, Rules};
use crate::record::{Verdict, read_games};
use crate::search::{Engine, Limits, Options, Score};
use crate::splitmix::SplitMix64;
use rayon::prelude::*;

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

/// Candidates for balanced openings: from every real game won by either side, the first
/// `plies` moves for a `plies` in `min..=max` chosen from the game's line number (so that the
/// same file always gives the same list, and the openings spread over the range), when the
/// game is longer than that, every move is legal under `rules` and the game is still going.
/// Without repeats, in file order.
pub fn later_openings_from_games(
    games_csv: &str,
    min: usize,
    max: usize,
    rules: Rules,
) -> Vec<Vec<Move>> {
    let mut seen = std::collections::HashSet::new();
    let span = max.saturating_sub(min) + 1;
    read_games(games_csv)
        .into_iter()
        .filter(|(_, g)| matches!(g.result, Verdict::Win(_)))
        .filter_map(|(line, g)| {
            let plies = min + SplitMix64::new(line as u64).below(span);
            (g.moves.len() > plies).then(|| g.moves[..plies].iter().map(|m| m.mv).collect())
        })
        .filter(|line: &Vec<Move>| {
            let mut pos = Position::start(rules);
            line.iter().all(|&mv| pos.try_play(mv).is_ok()) && pos.outcome().is_none()
        })
        .filter(|line| seen.insert(line.clone()))
        .collect()
}

/// Searches the position at the end of each opening, from an empty table on one thread, at
/// `nodes` nodes, and keeps the openings whose score (side to move's view) is within `band`
/// cp of 0, in their order, with their scores. `each` is called after every search, from any
/// thread. Openings that are not legal under `rules` are dropped.
pub fn balanced_openings(
    openings: &[Vec<Move>],
    rules: Rules,
    nodes: u64,
    band: i32,
    each: impl Fn() + Sync,
) -> Vec<(Vec<Move>, Score)> {
    let options = Options {
        threads: 1,
        hash_mb: 16,
        ..Options::default()
    };
    openings
        .par_iter()
        .map_init(
            || Engine::new(options.clone()),
            |engine, line| {
                let mut pos = Position::start(rules);
                let legal = line.iter().all(|&mv| pos.try_play(mv).is_ok());
                let score = (legal && pos.outcome().is_none()).then(|| {
                    engine.clear();
                    let limits = Limits {
                        nodes: Some(nodes.max(1)),
                        ..Limits::default()
                    };
                    engine.search(&pos, limits).score
                });
                each();
                score
                    .filter(|s| !s.is_decisive() && s.0.abs() <= band)
                    .map(|s| (line.clone(), s))
            },
        )
        .flatten()
        .collect()
}

/// Why an openings file cannot be played from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    #[error("line {line}: {error}")]
    Unreadable { line: usize, error: NotationError },
    #[error("opening {opening}: {mv:?}: {error}")]
    Illegal {
        opening: usize,
        mv: Move,
        error: MoveError,
    },
    #[error("opening {opening}: the game is already over ({outcome})")]
    Over { opening: usize, outcome: Outcome },
}

/// Reads an openings file: one opening per line, moves separated by spaces, `#` comments.
pub fn parse_openings(text: &str) -> Result<Vec<Vec<Move>>, OpeningsError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            l.split_whitespace()
                .map(|m| {
                    parse_move(m).map_err(|error| OpeningsError::Unreadable { line: i + 1, error })
                })
                .collect()
        })
        .collect()
}

/// Reads an openings file and checks each opening under `rules`: every move legal and the
/// game still going at its end.
pub fn load_openings(text: &str, rules: Rules) -> Result<Vec<Vec<Move>>, OpeningsError> {
    let openings = parse_openings(text)?;
    for (i, line) in openings.iter().enumerate() {
        let mut pos = Position::start(rules);
        for &mv in line {
            pos.try_play(mv).map_err(|error| OpeningsError::Illegal {
                opening: i + 1,
                mv,
                error,
            })?;
        }
        if let Some(outcome) = pos.outcome() {
            return Err(OpeningsError::Over {
                opening: i + 1,
                outcome,
            });
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
                .to_string()
                .contains("opening 1")
        );
        assert!(
            load_openings("d1-zz", Rules::default())
                .unwrap_err()
                .to_string()
                .contains("line 1")
        );
    }

    #[test]
    fn balanced_openings_file_is_legal() {
        let text = include_str!("../../positions/openings-balanced.txt");
        let openings = load_openings(text, Rules::default()).unwrap();
        assert!(openings.len() >= 100, "{}", openings.len());
        assert!(openings.iter().all(|o| (8..=16).contains(&o.len())));
    }

    // Lines 62 (won by the attackers), 1036 (by the defenders) and 1 (unfinished) of
    // copenhagen.csv, and line 62 again under another number.
    const GAMES: &str = "\
        d1-d3 g5-i5 f2-i2 f8-b8 k8-c8xb8 f4-i4 k7-i7 f5-f2 e1-e2,1,0,Black\n\
        h1-h3 f8-c8 b6-b9 d6-d3 a4-c4 e7-e10 d11-d10xe10 e6-e10 b9-e9xe10 f6-b6,2,0,White\n\
        h1-h3 f8-i8 f10-i10 d6-d3 k4-k3 g7-g9 h11-i11 g6-i6 h1-i1 g5-j5,0,0,Ongoing\n\
        d1-d3 g5-i5 f2-i2 f8-b8 k8-c8xb8 f4-i4 k7-i7 f5-f2 e1-e2,1,0,Black\n";

    #[test]
    fn later_openings_come_from_won_games_within_the_range() {
        let rules = Rules::default();
        let list = later_openings_from_games(GAMES, 4, 6, rules);
        assert!(!list.is_empty() && list.len() <= 3, "{list:?}");
        assert!(list.iter().all(|o| (4..=6).contains(&o.len())));
        // Never from the unfinished game, which alone starts h1-h3 f8-i8.
        assert!(list.iter().all(|o| o[1].to_string() != "f8i8"));
        let fixed = later_openings_from_games(GAMES, 5, 5, rules);
        // Lines 1 and 4 are the same game: one opening.
        assert_eq!(fixed.len(), 2);
        assert!(later_openings_from_games(GAMES, 9, 9, rules).len() == 1);
        assert!(load_openings(&render(&list), rules).is_ok());
    }

    fn render(list: &[Vec<Move>]) -> String {
        list.iter()
            .map(|o| {
                o.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect()
    }

    #[test]
    fn balanced_keeps_only_openings_within_the_band() {
        let rules = Rules::default();
        let mut list = later_openings_from_games(GAMES, 4, 8, rules);
        list.push(Vec::new());
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let count = || {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        let all = balanced_openings(&list, rules, 300, 1_000_000, count);
        assert_eq!(calls.into_inner(), list.len());
        let scores: Vec<i32> = all.iter().map(|(_, s)| s.0).collect();
        assert_eq!(all.len(), list.len(), "{scores:?}");
        for band in [0, 10, 50, 200] {
            let kept = balanced_openings(&list, rules, 300, band, || {});
            let expected: Vec<_> = all.iter().filter(|(_, s)| s.0.abs() <= band).collect();
            assert_eq!(kept.len(), expected.len(), "band {band}: {scores:?}");
            assert!(kept.iter().zip(expected).all(|(a, b)| a == b));
        }
    }
}
