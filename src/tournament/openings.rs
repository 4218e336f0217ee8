//! Openings: the first plies of the real games, deduplicated (`hnefi openings` writes
//! `positions/openings.txt`), the even ones among later positions of those games
//! (`positions/openings-balanced.txt`), random even ones from the start of any rules (the
//! real games are all 11x11 Copenhagen), and the reading of openings files.

use crate::board::{Board, Move, MoveList, Position};
use crate::board::{Geometry, Outcome, Rules};
use crate::games::record::{Verdict, read_games};
use crate::search::size::Size;
use crate::search::size::Standard;
use crate::search::{Go, Options, Score, Searcher};
use crate::splitmix::SplitMix64;
use rayon::prelude::*;

/// The openings shipped with Hnefi: four plies of each real game, deduplicated.
pub const BUILT_IN: &str = include_str!("../../positions/openings.txt");

/// Where the games of a pair begin: a start and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<G: Geometry> {
    pub start: Board<G>,
    pub moves: Vec<Move<G>>,
}

impl<G: Geometry> Opening<G> {
    /// The game after the opening, under `rules`.
    pub fn position(&self, rules: Rules) -> Position<G> {
        let mut pos = Position::new(self.start, rules);
        for &mv in &self.moves {
            pos.play(mv);
        }
        pos
    }
}

/// The first `plies` moves of every game that has them, without repeats, in order of first
/// appearance.
pub fn openings_from_games(games_csv: &str, plies: usize) -> Vec<Vec<Move<Standard>>> {
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
) -> Vec<Vec<Move<Standard>>> {
    let mut seen = std::collections::HashSet::new();
    let span = max.saturating_sub(min) + 1;
    read_games(games_csv)
        .into_iter()
        .filter(|(_, g)| matches!(g.result, Verdict::Win(_)))
        .filter_map(|(line, g)| {
            let plies = min + SplitMix64::new(line as u64).below(span);
            (g.moves.len() > plies).then(|| g.moves[..plies].iter().map(|m| m.mv).collect())
        })
        .filter(|line: &Vec<Move<Standard>>| {
            // Rules of another board than the real games' 11x11 take none of them.
            let Ok(mut pos) = Position::start(rules) else {
                return false;
            };
            line.iter().all(|&mv| pos.try_play(mv).is_ok()) && pos.outcome().is_none()
        })
        .filter(|line| seen.insert(line.clone()))
        .collect()
}

/// An opening's moves and the score of its last position (side to move's view).
pub type ScoredOpening<G> = (Vec<Move<G>>, Score);

/// Searches the position at the end of each opening, from an empty table on one thread, at
/// `nodes` nodes, and keeps the openings whose score (side to move's view) is within `band`
/// cp of 0, in their order, with their scores. `each` is called after every search, from any
/// thread. Openings that are not legal under `rules` are dropped.
pub fn balanced_openings<G: Size>(
    start: &Board<G>,
    openings: &[Vec<Move<G>>],
    rules: Rules,
    nodes: u64,
    band: i32,
    each: impl Fn() + Sync,
) -> Vec<ScoredOpening<G>> {
    let options = Options {
        threads: 1,
        hash_mb: 16,
        ..Options::default()
    };
    openings
        .par_iter()
        .map_init(
            || Searcher::<G>::new(options.clone()),
            |engine, line| {
                let mut pos = Position::new(*start, rules);
                let legal = line.iter().all(|&mv| pos.try_play(mv).is_ok());
                let score = (legal && pos.outcome().is_none()).then(|| {
                    engine.clear();
                    let limits = Go::<G> {
                        nodes: Some(nodes.max(1)),
                        ..Go::default()
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

/// `count` openings of `plies` random legal moves from `start` under `rules`, all different
/// and none over, the same for the same seed. Fewer when the rules' start offers fewer.
pub fn random_openings<G: Geometry>(
    start: &Board<G>,
    rules: Rules,
    plies: usize,
    count: usize,
    seed: u64,
) -> Vec<Vec<Move<G>>> {
    let mut rng = SplitMix64::new(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut list = MoveList::<G>::new();
    // Small boards have few distinct openings: give up after many repeats.
    for _ in 0..count * 20 {
        if out.len() == count {
            break;
        }
        let mut pos = Position::new(*start, rules);
        let mut line = Vec::with_capacity(plies);
        while line.len() < plies {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            pos.play(mv);
            line.push(mv);
        }
        if line.len() == plies && pos.outcome().is_none() && seen.insert(line.clone()) {
            out.push(line);
        }
    }
    out
}

/// How the match runner makes openings for rules whose start no file of openings fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomOpenings {
    /// Random plies from the start.
    pub plies: usize,
    /// Candidates drawn.
    pub candidates: usize,
    /// Nodes of the search that judges each.
    pub nodes: u64,
    /// Largest score kept, in cp either way.
    pub band: i32,
    /// The fewest kept: the candidates nearest even when fewer are within the band.
    pub at_least: usize,
}

impl Default for RandomOpenings {
    fn default() -> RandomOpenings {
        RandomOpenings {
            plies: 4,
            candidates: 100,
            // Enough for a first full iteration on 13x13.
            nodes: 2000,
            band: 150,
            at_least: 10,
        }
    }
}

impl RandomOpenings {
    /// Enough openings for `pairs` pairs of games each from its own opening: node-limited
    /// engines on one thread replay the same game from the same opening, so a repeated
    /// opening adds no evidence. Twice the candidates, as some are already lost.
    pub fn for_pairs(self, pairs: usize) -> RandomOpenings {
        RandomOpenings {
            candidates: self.candidates.max(2 * pairs),
            at_least: self.at_least.max(pairs),
            ..self
        }
    }

    /// The random candidates of `seed` that a search at `nodes` finds undecided, with their
    /// scores, nearest even first, and how many were drawn. `each` is called after every
    /// search, from any thread.
    pub fn judge<G: Size>(
        &self,
        start: &Board<G>,
        rules: Rules,
        seed: u64,
        each: impl Fn() + Sync,
    ) -> (Vec<ScoredOpening<G>>, usize) {
        let candidates = random_openings(start, rules, self.plies, self.candidates, seed);
        let mut judged = balanced_openings(start, &candidates, rules, self.nodes, i32::MAX, each);
        judged.sort_by_key(|(_, s)| s.0.abs());
        (judged, candidates.len())
    }

    /// The even openings among the random candidates of `seed`, and a description of them.
    pub fn make<G: Size>(
        &self,
        start: &Board<G>,
        rules: Rules,
        seed: u64,
    ) -> (Vec<Opening<G>>, String) {
        let (mut judged, drawn) = self.judge(start, rules, seed, || {});
        let within = judged
            .iter()
            .filter(|(_, s)| s.0.abs() <= self.band)
            .count();
        judged.truncate(within.max(self.at_least));
        let name = format!(
            "random: {} plies from the start, the {} nearest even of {} (within {} cp at {} \
             nodes: {within})",
            self.plies,
            judged.len(),
            drawn,
            self.band,
            self.nodes
        );
        let openings = judged
            .into_iter()
            .map(|(moves, _)| Opening {
                start: *start,
                moves,
            })
            .collect();
        (openings, name)
    }
}

/// Why an openings file cannot be played from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    #[error("line {line}: {error}")]
    Unreadable { line: usize, error: String },
    #[error("opening {opening}: the start position: {error}")]
    Setup { opening: usize, error: String },
    #[error("opening {opening}: {mv:?}: {error}")]
    Illegal {
        opening: usize,
        mv: String,
        error: String,
    },
    #[error("opening {opening}: the game is already over ({outcome})")]
    Over { opening: usize, outcome: Outcome },
}

/// Reads an openings file for boards of `G`: one opening per line, `#` comments. A line is
/// the moves from `start` separated by spaces, or a position (a FEN, or an OpenTafl position
/// string, and the side to move) and then any moves from it.
pub fn parse_openings<G: Geometry>(
    text: &str,
    start: &Board<G>,
) -> Result<Vec<Opening<G>>, OpeningsError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let unreadable = |error: String| OpeningsError::Unreadable { line: i + 1, error };
            let words: Vec<&str> = l.split_whitespace().collect();
            let (board, moves) = if words[0].contains('/') {
                let side = words.get(1).copied().unwrap_or_default();
                let board = Board::from_position(&format!("{} {side}", words[0]))
                    .map_err(|e| unreadable(e.to_string()))?;
                (board, &words[2.min(words.len())..])
            } else {
                (*start, &words[..])
            };
            let moves = moves
                .iter()
                .map(|m| Move::parse(m).map_err(|e| unreadable(e.to_string())))
                .collect::<Result<_, _>>()?;
            Ok(Opening {
                start: board,
                moves,
            })
        })
        .collect()
}

/// Reads an openings file and checks each opening under `rules` from `start`: every
/// position one the rules allow, every move legal and the game still going at its end.
pub fn load_openings<G: Geometry>(
    text: &str,
    start: &Board<G>,
    rules: Rules,
) -> Result<Vec<Opening<G>>, OpeningsError> {
    let openings = parse_openings(text, start)?;
    for (i, opening) in openings.iter().enumerate() {
        let mut pos = Position::new(opening.start, rules);
        pos.rulebook()
            .check_setup(&opening.start)
            .map_err(|e| OpeningsError::Setup {
                opening: i + 1,
                error: e.to_string(),
            })?;
        for &mv in &opening.moves {
            pos.try_play(mv).map_err(|error| OpeningsError::Illegal {
                opening: i + 1,
                mv: format!("{mv:?}"),
                error: error.to_string(),
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
        let openings = load_openings(BUILT_IN, &Board::start(), Rules::default()).unwrap();
        assert_eq!(openings.len(), 1240);
        assert!(openings.iter().all(|o| o.moves.len() == 4));
        assert!(
            load_openings("d1d3 d1d3", &Board::start(), Rules::default())
                .unwrap_err()
                .to_string()
                .contains("opening 1")
        );
        assert!(
            load_openings("d1-zz", &Board::start(), Rules::default())
                .unwrap_err()
                .to_string()
                .contains("line 1")
        );
    }

    #[test]
    fn balanced_openings_file_is_legal() {
        let text = include_str!("../../positions/openings-balanced.txt");
        let openings = load_openings(text, &Board::start(), Rules::default()).unwrap();
        assert!(openings.len() >= 100, "{}", openings.len());
        assert!(openings.iter().all(|o| (8..=16).contains(&o.moves.len())));
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
        assert!(load_openings(&render(&list), &Board::start(), rules).is_ok());
    }

    fn render(list: &[Vec<Move<Standard>>]) -> String {
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
        let all = balanced_openings(&Board::start(), &list, rules, 300, 1_000_000, count);
        assert_eq!(calls.into_inner(), list.len());
        let scores: Vec<i32> = all.iter().map(|(_, s)| s.0).collect();
        assert_eq!(all.len(), list.len(), "{scores:?}");
        for band in [0, 10, 50, 200] {
            let kept = balanced_openings(&Board::start(), &list, rules, 300, band, || {});
            let expected: Vec<_> = all.iter().filter(|(_, s)| s.0.abs() <= band).collect();
            assert_eq!(kept.len(), expected.len(), "band {band}: {scores:?}");
            assert!(kept.iter().zip(expected).all(|(a, b)| a == b));
        }
    }

    #[test]
    fn random_openings_of_any_size_are_legal_different_and_repeatable() {
        use crate::board::variant::NamedRules;
        use crate::board::{Preset, Seven, Thirteen};
        let brandubh = NamedRules::preset(Preset::Brandubh);
        let start = brandubh.start_board::<Seven>().unwrap();
        let list = random_openings(&start, brandubh.rules, 4, 30, 7);
        assert_eq!(list.len(), 30);
        assert_eq!(list, random_openings(&start, brandubh.rules, 4, 30, 7));
        assert_ne!(list, random_openings(&start, brandubh.rules, 4, 30, 8));
        let text = list
            .iter()
            .map(|o| {
                o.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect::<String>();
        let loaded = load_openings(&text, &start, brandubh.rules).unwrap();
        assert_eq!(
            loaded.iter().map(|o| o.moves.clone()).collect::<Vec<_>>(),
            list
        );
        let settings = RandomOpenings {
            candidates: 12,
            nodes: 1000,
            at_least: 5,
            ..RandomOpenings::default()
        };
        let thirteen = NamedRules::preset(Preset::Copenhagen13);
        let start13 = thirteen.start_board::<Thirteen>().unwrap();
        let (openings, name) = settings.make(&start13, thirteen.rules, 1);
        assert!((5..=12).contains(&openings.len()), "{name}");
        assert!(name.starts_with("random: 4 plies"), "{name}");
        assert!(
            openings
                .iter()
                .all(|o| o.position(thirteen.rules).outcome().is_none())
        );
    }

    #[test]
    fn a_long_match_gets_an_opening_for_each_pair() {
        use crate::board::variant::NamedRules;
        use crate::board::{Preset, Seven};
        let brandubh = NamedRules::preset(Preset::Brandubh);
        let start = brandubh.start_board::<Seven>().unwrap();
        let settings = RandomOpenings {
            nodes: 200,
            ..RandomOpenings::default()
        };
        assert_eq!(
            settings.for_pairs(3),
            settings,
            "never fewer than the defaults"
        );
        let fifty = settings.for_pairs(50);
        assert_eq!((fifty.candidates, fifty.at_least), (100, 50));
        // Few brandubh openings score within the band: the nearest even make up the rest.
        let (openings, name) = settings.for_pairs(150).make(&start, brandubh.rules, 1);
        assert_eq!(openings.len(), 150, "{name}");
        assert!(name.contains("the 150 nearest even of 300"), "{name}");
    }

    #[test]
    fn openings_files_take_positions_of_their_size() {
        use crate::board::notation::to_fen;
        use crate::board::variant::NamedRules;
        use crate::board::{Preset, Seven};
        let brandubh = NamedRules::preset(Preset::Brandubh);
        let start = brandubh.start_board::<Seven>().unwrap();
        let text = format!("# a comment\nc4c6 d6f6\n{} d5c5\n", to_fen(&start));
        let openings = load_openings(&text, &start, brandubh.rules).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[1].start, start);
        assert_eq!(openings[1].moves, [Move::parse("d5c5").unwrap()]);
        let e = |t: &str| {
            load_openings(t, &start, brandubh.rules)
                .unwrap_err()
                .to_string()
        };
        assert!(e("3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3/3a3 d").contains("line 1"));
        assert!(e("k4k5").contains("line 1"), "off the 7x7 board");
        assert!(
            e("d1d2").contains("opening 1"),
            "attackers' move with the defenders first"
        );
    }
}
