//! The game to annotate, read from any form people keep games in: one record line of the
//! community format (`d1-d3 e5-e2 ...`, optionally with its `,captures,captures,result`
//! fields), one line of a file of them (such as `data/copenhagen.csv`), or an OpenTafl `.otg`
//! file. Replaying it checks every move against the rules.

use super::otg::{self, OtgError};
use crate::board::RecordMove;
use crate::board::notation::parse_record_move;
use crate::board::{Board, MoveError, Position, Rules, Side};
use crate::record::{GameRecord, RecordError, Verdict};
use std::path::Path;

/// A game and what its record says about it.
#[derive(Clone, Debug)]
pub struct Game {
    pub start: Board,
    /// The moves with the captures the record claims (the replay computes the real ones).
    pub moves: Vec<RecordMove>,
    pub attackers: Option<String>,
    pub defenders: Option<String>,
    /// The result the record gives, which may be a resignation or a loss on time that the
    /// moves alone do not show.
    pub verdict: Verdict,
    /// How the record says the game ended, beyond the verdict (`on time`, `Black resigns`).
    pub termination: Option<String>,
    /// Where the game comes from, for the report's header: event, date, site, file and line.
    pub details: Vec<(String, String)>,
}

#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Otg { path: String, source: OtgError },
    #[error("{path} line {line}: {source}")]
    Record {
        path: String,
        line: usize,
        source: RecordError,
    },
    #[error("{path} holds {count} games: choose one with --game LINE (its line number)")]
    Choose { path: String, count: usize },
    #[error("{path} has no readable game on line {line}")]
    NoSuchLine { path: String, line: usize },
    #[error("--game picks a line of a file of records, not of {0}")]
    GameOfOne(String),
    #[error(
        "'{0}' is neither a file nor a game: give the moves ('1. d1-d3 e5-e2 2. ...' or \
         'd1-d3 e5-e2 ...'), a line of data/copenhagen.csv, or a file of either, or an \
         OpenTafl .otg game"
    )]
    Unrecognised(String),
    #[error(
        "{path} is not a game: not an OpenTafl .otg file, nor lines of records \
         ('moves,captures,captures,result' as in data/copenhagen.csv), nor the moves of one \
         game ('1. d1-d3 e5-e2 2. ...'); as moves, {source}"
    )]
    NotAGame { path: String, source: RecordError },
    #[error("record: {0}")]
    Line(RecordError),
    #[error("the game has no moves")]
    Empty,
}

/// Reads GAME as `hnefi annotate` takes it: a file (an `.otg` game, or a file of records with
/// `game` its line number) or a record line.
pub fn load(source: &str, game: Option<usize>) -> Result<Game, GameError> {
    let path = Path::new(source);
    if path.is_file() {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| GameError::Read {
            path: name.clone(),
            source,
        })?;
        let is_otg = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("otg"))
            || text.trim_start().starts_with('[');
        if is_otg {
            if game.is_some() {
                return Err(GameError::GameOfOne(name));
            }
            let parsed = otg::parse(&text).map_err(|source| GameError::Otg {
                path: name.clone(),
                source,
            })?;
            return Ok(from_otg(parsed, &name));
        }
        return from_records(&text, &name, game);
    }
    if game.is_some() {
        return Err(GameError::GameOfOne("a record line".into()));
    }
    from_line(source)
}

/// A record line: the full four fields, or just the moves.
fn from_line(text: &str) -> Result<Game, GameError> {
    let text = text.trim();
    let record = if text.contains(',') {
        GameRecord::parse(text).map_err(GameError::Line)?
    } else {
        let moves = without_move_numbers(text);
        let first = moves.split_whitespace().next().unwrap_or_default();
        if parse_record_move(first).is_err() {
            return Err(GameError::Unrecognised(text.to_string()));
        }
        plain_moves(&moves).map_err(GameError::Line)?
    };
    from_record(record, Vec::new())
}

/// The moves of a game as people write them, numbered (`1. d1-d3 e5-e2`, `1.d1-d3`) or not,
/// without the numbers.
fn without_move_numbers(text: &str) -> String {
    let words: Vec<&str> = text
        .split_whitespace()
        .map(|word| {
            let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
            if rest.len() < word.len() && rest.starts_with('.') {
                rest.trim_start_matches('.')
            } else {
                word
            }
        })
        .filter(|word| !word.is_empty())
        .collect();
    words.join(" ")
}

/// A game of moves alone, its result unknown.
fn plain_moves(moves: &str) -> Result<GameRecord, RecordError> {
    GameRecord::parse(&format!("{moves},0,0,Ongoing"))
}

/// A file of records (one game a line, `game` its line number), or failing that the moves of
/// one game over any number of lines.
fn from_records(text: &str, path: &str, game: Option<usize>) -> Result<Game, GameError> {
    let line = match game {
        Some(line) => line,
        None => {
            let games: Vec<usize> = text
                .lines()
                .enumerate()
                .filter(|(_, l)| GameRecord::parse(l).is_ok())
                .map(|(i, _)| i + 1)
                .collect();
            match games.as_slice() {
                [line] => *line,
                [] => {
                    let moves = plain_moves(&without_move_numbers(text)).map_err(|source| {
                        GameError::NotAGame {
                            path: path.to_string(),
                            source,
                        }
                    })?;
                    return from_record(moves, vec![("game".into(), file_name(path))]);
                }
                _ => {
                    return Err(GameError::Choose {
                        path: path.to_string(),
                        count: games.len(),
                    });
                }
            }
        }
    };
    let no_such = || GameError::NoSuchLine {
        path: path.to_string(),
        line,
    };
    let chosen = text
        .lines()
        .nth(line.checked_sub(1).ok_or_else(no_such)?)
        .filter(|l| !l.trim().is_empty())
        .ok_or_else(no_such)?;
    let record = GameRecord::parse(chosen).map_err(|source| GameError::Record {
        path: path.to_string(),
        line,
        source,
    })?;
    from_record(
        record,
        vec![("game".into(), format!("{}, line {line}", file_name(path)))],
    )
}

/// The last part of `path`, for the report's header.
fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or(path.to_string(), |f| f.to_string_lossy().into_owned())
}

fn from_record(record: GameRecord, details: Vec<(String, String)>) -> Result<Game, GameError> {
    if record.moves.is_empty() {
        return Err(GameError::Empty);
    }
    let verdict = record.result;
    Ok(Game {
        start: Board::start(),
        moves: record.moves,
        attackers: None,
        defenders: None,
        verdict,
        termination: record.timeout.then(|| "on time".to_string()),
        details,
    })
}

fn from_otg(parsed: otg::OtgGame, path: &str) -> Game {
    let verdict = match parsed.tag("result") {
        Some("1") => Verdict::Win(Side::Attackers),
        Some("-1") => Verdict::Win(Side::Defenders),
        Some("0") => Verdict::Draw,
        _ => Verdict::Ongoing,
    };
    let mut details: Vec<(String, String)> = ["event", "site", "date", "annotator"]
        .into_iter()
        .filter_map(|k| parsed.tag(k).map(|v| (k.to_string(), v.to_string())))
        .collect();
    if details.is_empty() {
        details.push(("game".into(), file_name(path)));
    }
    Game {
        start: parsed.start.unwrap_or_else(Board::start),
        attackers: parsed.tag("attackers").map(str::to_string),
        defenders: parsed.tag("defenders").map(str::to_string),
        termination: parsed.tag("termination").map(str::to_string),
        verdict,
        details,
        moves: parsed.moves,
    }
}

/// Why a game cannot be replayed under the chosen rules.
#[derive(Debug, thiserror::Error)]
#[error("move {ply} ({text}): {source}")]
pub struct ReplayError {
    pub ply: usize,
    pub text: String,
    pub source: MoveError,
}

impl Game {
    /// The positions of the game under `rules`: the start, then one after each move, each move
    /// checked. A record's claimed captures that differ from the real ones are logged.
    pub fn replay(&self, rules: Rules) -> Result<Vec<Position>, ReplayError> {
        let mut pos = Position::new(self.start, rules);
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(pos.clone());
        for (i, m) in self.moves.iter().enumerate() {
            let captured = pos.try_play(m.mv).map_err(|source| ReplayError {
                ply: i + 1,
                text: crate::board::notation::record_move(m.mv, m.captures),
                source,
            })?;
            if m.captures.any() && m.captures != captured {
                log::warn!(
                    "move {} ({}): the record claims other captures than the rules make",
                    i + 1,
                    crate::board::notation::record_move(m.mv, m.captures)
                );
            }
            out.push(pos.clone());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_lines_with_and_without_fields() {
        let g = load("d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2", None).unwrap();
        assert_eq!(g.moves.len(), 5);
        assert_eq!(g.verdict, Verdict::Ongoing);
        let g = load("d1-d3 e5-e2 timeout,0,0,Black", None).unwrap();
        assert_eq!(g.verdict, Verdict::Win(Side::Attackers));
        assert_eq!(g.termination.as_deref(), Some("on time"));
        assert_eq!(g.replay(Rules::default()).unwrap().len(), 3);
        for numbered in [
            "1. d1-d3 e5-e2 2. g1-g3 f4-c4 3. g3-e3xe2",
            "1.d1-d3 e5-e2 2.g1-g3 f4-c4 3.g3-e3xe2",
            "1. d1-d3 1... e5-e2 2. g1-g3 2... f4-c4 3. g3-e3xe2",
        ] {
            let g = load(numbered, None).unwrap();
            assert_eq!(g.moves.len(), 5, "{numbered}");
        }
    }

    #[test]
    fn a_file_of_one_game_as_moves_and_a_file_that_is_no_game() {
        let dir = std::env::temp_dir().join(format!("hnefi-game-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let moves = dir.join("moves.txt");
        std::fs::write(&moves, "1. d1-d3 e5-e2\n2. g1-g3 f4-c4\n3. g3-e3xe2\n").unwrap();
        let g = load(moves.to_str().unwrap(), None).unwrap();
        assert_eq!(g.moves.len(), 5);
        assert_eq!(g.details[0].1, "moves.txt");
        let prose = dir.join("notes.md");
        std::fs::write(
            &prose,
            "# Notes\n\nNot a game, line after line.\n".repeat(50),
        )
        .unwrap();
        let e = load(prose.to_str().unwrap(), None).unwrap_err().to_string();
        assert!(
            e.contains("notes.md is not a game") && e.contains("1. d1-d3"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clear_errors() {
        let e = |s: &str, n| load(s, n).unwrap_err().to_string();
        assert!(e("hello world", None).contains("neither a file nor a game: give the moves"));
        assert!(e("d1-d3 e5-z2", None).contains("move 2"));
        assert!(e("d1-d3", Some(3)).contains("--game"));
        let csv = concat!(env!("CARGO_MANIFEST_DIR"), "/data/copenhagen.csv");
        assert!(e(csv, None).contains("1752 games"));
        assert!(e(csv, Some(0)).contains("no readable game on line 0"));
        assert!(e(csv, Some(99_999)).contains("line 99999"));
        let g = load(csv, Some(2)).unwrap();
        assert_eq!(g.details[0].1, "copenhagen.csv, line 2");
        let illegal = load("d1-d3 d3-d1 d1-d3", None).unwrap();
        let err = illegal.replay(Rules::default()).unwrap_err().to_string();
        assert!(err.starts_with("move 2 (d3-d1)"), "{err}");
    }
}
