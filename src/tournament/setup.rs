//! A match as asked for, settled before it is played: its engines (two or more, each name its
//! own), the games of an encounter (whole pairs from one opening with the sides swapped, unless
//! only the first engine attacks), the openings an encounter takes, its SPRT, and the settings
//! that do not go together.

use super::spec::{EngineSpec, SpecError};
use super::summary::{Sprt, SprtError, parse_sprt};
use crate::board::Rules;
use crate::protocol::Protocol;
use crate::search::size::Size;

/// Why a match cannot be played as asked.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("a match needs two or more --engine")]
    TooFewEngines,
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Sprt(#[from] SprtError),
    #[error("--sprt and --pairs need pairs of games, and --first-attacks-only plays none")]
    OneSided,
    #[error("--games 0: must be at least 1")]
    NoGames,
}

/// What is asked of a match: the words and counts of `hnefi match`.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// Each engine's KEY=VALUE words.
    pub engines: &'a [Vec<String>],
    /// KEY=VALUE words for every engine (an engine's own words win).
    pub each: &'a [String],
    /// Games per encounter, as asked.
    pub games: usize,
    /// Only the games where the first engine attacks, one an opening.
    pub first_attacks_only: bool,
    /// The words of `--sprt`; none for no test.
    pub sprt: &'a [String],
    /// Whether each finished pair is written for a watcher (`--pairs`).
    pub pairs_file: bool,
}

/// A match's format, settled.
#[derive(Debug)]
pub struct Format {
    /// The engines, their names made distinct ([`distinct_names`]).
    pub engines: Vec<EngineSpec>,
    pub sprt: Option<Sprt>,
    /// Games per encounter ([`whole_pairs`]).
    pub games: usize,
    /// Openings an encounter takes ([`openings_needed`]).
    pub openings: usize,
}

impl Request<'_> {
    /// The format of the match asked for, or the first thing wrong with it, in the order the
    /// words are checked: the number of engines, each engine's words, the SPRT's words, the
    /// SPRT's two engines, the one-sided games' conflicts, the number of games.
    pub fn settle(&self) -> Result<Format, SetupError> {
        if self.engines.len() < 2 {
            return Err(SetupError::TooFewEngines);
        }
        let mut engines: Vec<EngineSpec> = self
            .engines
            .iter()
            .map(|words| EngineSpec::parse(self.each, words))
            .collect::<Result<_, _>>()?;
        distinct_names(&mut engines);
        let sprt = parse_sprt(self.sprt)?;
        if sprt.is_some() && engines.len() != 2 {
            return Err(SprtError::Engines.into());
        }
        if self.first_attacks_only && (sprt.is_some() || self.pairs_file) {
            return Err(SetupError::OneSided);
        }
        if self.games == 0 {
            return Err(SetupError::NoGames);
        }
        Ok(Format {
            engines,
            sprt,
            games: whole_pairs(self.games, self.first_attacks_only),
            openings: openings_needed(self.games, self.first_attacks_only),
        })
    }
}

/// Renames the engines whose names an engine before them has, `NAME-2`, `NAME-3`, ... (the
/// first free): names tell engines apart in the report, so they must differ.
pub fn distinct_names(engines: &mut [EngineSpec]) {
    for i in 1..engines.len() {
        let base = engines[i].name.clone();
        let mut k = 2;
        while engines[..i].iter().any(|e| e.name == engines[i].name) {
            engines[i].name = format!("{base}-{k}");
            k += 1;
        }
    }
}

/// The games an encounter plays for `games` asked: rounded up to whole pairs, since games come
/// in pairs from one opening with the sides swapped; as asked when only the first engine
/// attacks.
pub fn whole_pairs(games: usize, first_attacks_only: bool) -> usize {
    if first_attacks_only {
        games
    } else {
        games.div_ceil(2) * 2
    }
}

/// The openings an encounter of `games` asked takes: each pair, or each lone game when only the
/// first engine attacks, takes one of its own.
pub fn openings_needed(games: usize, first_attacks_only: bool) -> usize {
    if first_attacks_only {
        games
    } else {
        games.div_ceil(2)
    }
}

/// The rules the hnefatafl text protocol's engines play on boards of `G`, where a match under
/// `rules` has such engines and those rules are others: they may then refuse legal moves.
pub fn htp_rules_differ<G: Size>(engines: &[EngineSpec], rules: &Rules) -> Option<Rules> {
    let server = crate::protocol::htp::server_rules::<G>();
    (*rules != server && engines.iter().any(|e| e.proto == Protocol::Htp)).then_some(server)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Preset;
    use crate::search::size::Standard;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn engines(texts: &[&str]) -> Vec<Vec<String>> {
        texts.iter().map(|t| words(t)).collect()
    }

    fn request<'a>(engines: &'a [Vec<String>], sprt: &'a [String]) -> Request<'a> {
        Request {
            engines,
            each: &[],
            games: 2,
            first_attacks_only: false,
            sprt,
            pairs_file: false,
        }
    }

    #[test]
    fn names_that_repeat_get_the_first_free_number() {
        let words = engines(&[
            "cmd=a nodes=1",
            "cmd=a nodes=2",
            "cmd=b nodes=1 name=a-2",
            "cmd=a nodes=3",
        ]);
        let mut specs: Vec<EngineSpec> = words
            .iter()
            .map(|w| EngineSpec::parse(&[], w).unwrap())
            .collect();
        distinct_names(&mut specs);
        let names: Vec<&str> = specs.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a", "a-2", "a-2-2", "a-3"]);
    }

    #[test]
    fn games_come_in_whole_pairs_unless_one_sided() {
        assert_eq!(whole_pairs(1, false), 2);
        assert_eq!(whole_pairs(2, false), 2);
        assert_eq!(whole_pairs(7, false), 8);
        assert_eq!(whole_pairs(7, true), 7);
        assert_eq!(openings_needed(7, false), 4);
        assert_eq!(openings_needed(8, false), 4);
        assert_eq!(openings_needed(7, true), 7);
    }

    #[test]
    fn a_request_settles_into_a_format() {
        let two = engines(&["cmd=x nodes=1", "cmd=x nodes=2"]);
        let sprt = words("elo0=0 elo1=5");
        let format = Request {
            games: 5,
            ..request(&two, &sprt)
        }
        .settle()
        .unwrap();
        assert_eq!(format.games, 6);
        assert_eq!(format.openings, 3);
        assert_eq!(format.engines[1].name, "x-2");
        assert_eq!(format.sprt.map(|s| s.elo1), Some(5.0));
        let each = words("nodes=7");
        let one_sided = Request {
            each: &each,
            engines: &engines(&["cmd=x", "cmd=y"]),
            games: 3,
            first_attacks_only: true,
            sprt: &[],
            pairs_file: false,
        }
        .settle()
        .unwrap();
        assert_eq!((one_sided.games, one_sided.openings), (3, 3));
        assert_eq!(one_sided.engines[0].tc.nodes, Some(7));
    }

    #[test]
    fn requests_that_cannot_be_played_say_why() {
        let err = |r: Request| r.settle().unwrap_err().to_string();
        let one = engines(&["cmd=x nodes=1"]);
        let two = engines(&["cmd=x nodes=1", "cmd=y nodes=1"]);
        let three = engines(&["cmd=x nodes=1", "cmd=y nodes=1", "cmd=z nodes=1"]);
        let sprt = words("elo0=0 elo1=5");
        // Too few engines is said before anything else is read.
        let bad_sprt = words("elo0=x");
        assert_eq!(
            err(request(&one, &bad_sprt)),
            "a match needs two or more --engine"
        );
        assert!(err(request(&engines(&["cmd=x", "cmd=y"]), &sprt)).contains("needs a limit"));
        assert!(err(request(&two, &bad_sprt)).contains("--sprt"));
        assert_eq!(
            err(request(&three, &sprt)),
            "--sprt needs exactly two engines"
        );
        for (sprt, pairs_file) in [(&sprt[..], false), (&[][..], true)] {
            let one_sided = Request {
                first_attacks_only: true,
                pairs_file,
                ..request(&two, sprt)
            };
            assert_eq!(
                err(one_sided),
                "--sprt and --pairs need pairs of games, and --first-attacks-only plays none"
            );
        }
        assert_eq!(
            err(Request {
                games: 0,
                ..request(&two, &[])
            }),
            "--games 0: must be at least 1"
        );
    }

    #[test]
    fn text_protocol_engines_under_other_rules_are_told_of() {
        let specs = |protos: &[&str]| -> Vec<EngineSpec> {
            protos
                .iter()
                .map(|p| {
                    EngineSpec::parse(&[], &words(&format!("cmd=x tc=10+0.1 proto={p}"))).unwrap()
                })
                .collect()
        };
        let copenhagen = Rules::preset(Preset::Copenhagen);
        let server = Rules::preset(Preset::HnefataflOrg);
        assert_eq!(
            htp_rules_differ::<Standard>(&specs(&["uci", "htp"]), &copenhagen),
            Some(server)
        );
        assert_eq!(
            htp_rules_differ::<Standard>(&specs(&["uci", "htp"]), &server),
            None
        );
        assert_eq!(
            htp_rules_differ::<Standard>(&specs(&["uci", "uci"]), &copenhagen),
            None
        );
    }
}
