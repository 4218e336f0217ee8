//! The game to annotate, read from any form people keep games in: one record line of the
//! community format (`d1-d3 e5-e2 ...`, optionally with its `,captures,captures,result`
//! fields and the rules), one line of a file of them (such as `data/copenhagen.csv`), or an
//! OpenTafl `.otg` file. It is found first ([`find`]), as text that may name its rules and so
//! its board; then read on that board ([`Found::game`]). Replaying it checks every move
//! against the rules.

use super::otg::{self, OtgError};
use crate::board::notation::record_move;
use crate::board::variant::{NamedRules, RulesNameError};
use crate::board::{Board, Position, RecordMove};
use crate::board::{Geometry, Reason, Rules, SizeError};
use crate::games::record::{self, GameRecord, RecordError, Verdict};
use std::path::Path;

/// A game and what its record says about it.
#[derive(Clone, Debug)]
pub struct RecordedGame<G: Geometry> {
    pub start: Board<G>,
    /// The moves with the captures the record claims (the replay computes the real ones).
    pub moves: Vec<RecordMove<G>>,
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
    /// A game named as a file that is not there.
    #[error("no such file: {path}{}", missing_hint(.line))]
    Missing { path: String, line: Option<usize> },
    #[error(
        "'{0}' is neither a file nor a game: give the moves ('1. d1-d3 e5-e2 2. ...' or \
         'd1-d3 e5-e2 ...'), a line of data/copenhagen.csv, or a file of either, or an \
         OpenTafl .otg game"
    )]
    Unrecognised(String),
    #[error("the game's rules string: {0}")]
    Size(#[from] SizeError),
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
    #[error("the rules the game names: {0}")]
    Rules(#[from] RulesNameError),
    #[error("the start of the rules {rules}: {why}")]
    Start { rules: String, why: String },
}

/// A game found, not yet read on its board.
#[derive(Clone, Debug)]
pub struct Found {
    form: Form,
    details: Vec<(String, String)>,
}

#[derive(Clone, Debug)]
enum Form {
    /// A line of the record format.
    Record(String),
    /// Moves alone, numbers taken out.
    Moves(String),
    /// An `.otg` file's text and the file's name.
    Otg(String, String),
    /// A record line of a file, with where it is, for errors.
    FileRecord {
        line_text: String,
        path: String,
        line: usize,
    },
}

impl Found {
    /// The rules the game names, if it names any: a record's fifth field, or an `.otg`
    /// file's rules string. A rules string an `.otg` file holds that Hnefi cannot read falls
    /// back to the preset of its board size, with a warning.
    pub fn rules(&self) -> Result<Option<NamedRules>, GameError> {
        match &self.form {
            Form::Record(line)
            | Form::FileRecord {
                line_text: line, ..
            } => Ok(record::rules_field(line).map(str::parse).transpose()?),
            Form::Moves(_) => Ok(None),
            Form::Otg(text, _) => Ok(otg::rules_of(text)?),
        }
    }

    /// The game read on the board of `G`, which is the board of `rules`.
    pub fn game<G: Geometry>(&self, rules: &NamedRules) -> Result<RecordedGame<G>, GameError> {
        let rules_start = || {
            rules.start_board::<G>().map_err(|e| GameError::Start {
                rules: rules.to_string(),
                why: e.to_string(),
            })
        };
        let mut game = match &self.form {
            Form::Record(line) => from_record(
                GameRecord::parse(line).map_err(GameError::Line)?,
                rules_start()?,
            )?,
            Form::Moves(moves) => from_record(
                GameRecord::parse(&format!("{moves},0,0,Ongoing")).map_err(GameError::Line)?,
                rules_start()?,
            )?,
            Form::FileRecord {
                line_text,
                path,
                line,
            } => {
                let record = GameRecord::parse(line_text).map_err(|source| GameError::Record {
                    path: path.clone(),
                    line: *line,
                    source,
                })?;
                from_record(record, rules_start()?)?
            }
            Form::Otg(text, name) => {
                let parsed = otg::parse::<G>(text).map_err(|source| GameError::Otg {
                    path: name.clone(),
                    source,
                })?;
                let start = match parsed.start {
                    Some(start) => start,
                    None => rules_start()?,
                };
                from_otg(parsed, start, name)
            }
        };
        game.details.extend(self.details.iter().cloned());
        Ok(game)
    }
}

/// What to give instead of a file that is not there: with `--game`, the built-in games.
fn missing_hint(line: &Option<usize>) -> String {
    match *line {
        Some(line) => format!(
            "; for game {line} of the real games built into hnefi (data/copenhagen.csv), leave \
             the file out: hnefi annotate --game {line}"
        ),
        None => "; give a file of records, an OpenTafl .otg game, or the moves of a game \
                 ('d1-d3 e5-e2 ...')"
            .into(),
    }
}

/// The real games built into the binary, as messages and reports name them.
pub const BUILT_IN_GAMES: &str = "data/copenhagen.csv (built in)";

/// Game `line` of the real games built into the binary, numbered as in data/copenhagen.csv:
/// what `--game` takes without a file, from any folder.
pub fn built_in(line: usize) -> Result<Found, GameError> {
    from_records(record::REAL_GAMES, BUILT_IN_GAMES, Some(line))
}

/// Finds GAME as `hnefi annotate` takes it: a file (an `.otg` game, or a file of records with
/// `game` its line number) or a record line. A single word that is neither a file nor moves
/// is taken for a file that is not there, and named so, rather than refused as a game.
pub fn find(source: &str, game: Option<usize>) -> Result<Found, GameError> {
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
            return Ok(Found {
                form: Form::Otg(text, name),
                details: Vec::new(),
            });
        }
        return from_records(&text, &name, game);
    }
    let read = from_line(source);
    let one_word = !source.trim().is_empty() && !source.trim().contains(char::is_whitespace);
    if read.is_err() && one_word && !path.exists() {
        return Err(GameError::Missing {
            path: source.to_string(),
            line: game,
        });
    }
    if game.is_some() {
        let what = if path.exists() {
            format!("{}, which is not a file", path.display())
        } else {
            "a record line".into()
        };
        return Err(GameError::GameOfOne(what));
    }
    read
}

/// A game given as text, never read as the name of a file: an `.otg` game, lines of records
/// (only one of them a game), or the moves of one game.
pub fn from_text(text: &str) -> Result<Found, GameError> {
    const NAME: &str = "the text";
    if text.trim_start().starts_with('[') {
        return Ok(Found {
            form: Form::Otg(text.to_string(), NAME.into()),
            details: Vec::new(),
        });
    }
    if text.trim().lines().count() > 1 {
        return from_records(text, NAME, None);
    }
    from_line(text)
}

/// A record line: the four fields or more, or just the moves.
fn from_line(text: &str) -> Result<Found, GameError> {
    let text = text.trim();
    let form = if text.contains(',') {
        Form::Record(text.to_string())
    } else {
        let moves = without_move_numbers(text);
        if !looks_like_moves(&moves) {
            return Err(GameError::Unrecognised(text.to_string()));
        }
        Form::Moves(moves)
    };
    Ok(Found {
        form,
        details: Vec::new(),
    })
}

/// Whether `text` starts with a move on some board, `d1-d3` or `m13m12`: a file letter and
/// a rank, twice (the board, not yet known, checks the rest).
fn looks_like_moves(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or_default();
    let squares: Vec<&str> = first.split(['-', 'x']).filter(|s| !s.is_empty()).collect();
    let square = |s: &str| {
        let mut chars = s.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && s.len() > 1
            && chars.all(|c| c.is_ascii_digit())
    };
    match squares.as_slice() {
        [one] => {
            let split = one[1..]
                .find(|c: char| c.is_ascii_alphabetic())
                .map(|i| i + 1);
            split.is_some_and(|i| square(&one[..i]) && square(&one[i..]))
        }
        [from, to, ..] => square(from) && square(to),
        [] => false,
    }
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

/// Whether `line` has the fields of a record line (its moves are read on their board later).
fn is_record(line: &str) -> bool {
    let fields: Vec<&str> = line.trim().split(',').collect();
    (4..=6).contains(&fields.len()) && fields[3].parse::<Verdict>().is_ok()
}

/// A file of records (one game a line, `game` its line number), or failing that the moves of
/// one game over any number of lines.
fn from_records(text: &str, path: &str, game: Option<usize>) -> Result<Found, GameError> {
    let line = match game {
        Some(line) => line,
        None => {
            let games: Vec<usize> = text
                .lines()
                .enumerate()
                .filter(|(_, l)| is_record(l))
                .map(|(i, _)| i + 1)
                .collect();
            match games.as_slice() {
                [line] => *line,
                [] => {
                    let moves = without_move_numbers(text);
                    if !looks_like_moves(&moves) || moves.contains(',') {
                        return Err(GameError::NotAGame {
                            path: path.to_string(),
                            source: RecordError::Move {
                                index: 1,
                                error: format!(
                                    "'{}' is not a move",
                                    moves.split_whitespace().next().unwrap_or_default()
                                ),
                            },
                        });
                    }
                    return Ok(Found {
                        form: Form::Moves(moves),
                        details: vec![("game".into(), file_name(path))],
                    });
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
    Ok(Found {
        form: Form::FileRecord {
            line_text: chosen.to_string(),
            path: path.to_string(),
            line,
        },
        details: vec![("game".into(), format!("{}, line {line}", file_name(path)))],
    })
}

/// The last part of `path`, for the report's header.
fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or(path.to_string(), |f| f.to_string_lossy().into_owned())
}

/// The game of a record, from its own start or else `rules_start`.
fn from_record<G: Geometry>(
    record: GameRecord<G>,
    rules_start: Board<G>,
) -> Result<RecordedGame<G>, GameError> {
    if record.moves.is_empty() {
        return Err(GameError::Empty);
    }
    let verdict = record.result;
    Ok(RecordedGame {
        start: record.start.unwrap_or(rules_start),
        moves: record.moves,
        attackers: None,
        defenders: None,
        verdict,
        termination: record.timeout.then(|| "on time".to_string()),
        details: Vec::new(),
    })
}

fn from_otg<G: Geometry>(parsed: otg::OtgGame<G>, start: Board<G>, path: &str) -> RecordedGame<G> {
    let verdict = parsed.verdict();
    let mut details: Vec<(String, String)> = ["event", "site", "date", "annotator"]
        .into_iter()
        .filter_map(|k| parsed.tag(k).map(|v| (k.to_string(), v.to_string())))
        .collect();
    if details.is_empty() {
        details.push(("game".into(), file_name(path)));
    }
    RecordedGame {
        start,
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
#[error("move {ply} ({text}): {error}")]
pub struct ReplayError {
    pub ply: usize,
    pub text: String,
    pub error: String,
}

impl<G: Geometry> RecordedGame<G> {
    /// The positions of the game under `rules`: the start, then one after each move, each move
    /// checked. A record's claimed captures that differ from the real ones are logged.
    pub fn replay(&self, rules: Rules) -> Result<Vec<Position<G>>, ReplayError> {
        let mut pos = Position::new(self.start, rules);
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(pos.clone());
        for (i, m) in self.moves.iter().enumerate() {
            let king = pos.board().king();
            let captured = pos.try_play(m.mv).map_err(|source| ReplayError {
                ply: i + 1,
                text: record_move(m.mv, m.captures),
                error: source.to_string(),
            })?;
            // OpenTafl's records name a captured king among the captures (`c3-d3xKe3`);
            // the board keeps him where he fell, as the game's end.
            let king_fell = pos
                .outcome()
                .is_some_and(|o| o.reason == Reason::KingCaptured);
            let claimed_king = king_fell && m.captures == captured.with(king);
            if m.captures.any() && m.captures != captured && !claimed_king {
                log::warn!(
                    "move {} ({}): the record claims other captures than the rules make",
                    i + 1,
                    record_move(m.mv, m.captures)
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
    use crate::board::Side;
    use crate::search::size::Standard;

    /// GAME as `hnefi annotate` takes it, on the 11x11 board of the Copenhagen rules or the
    /// rules it names: see [`find`].
    fn load(source: &str, game: Option<usize>) -> Result<RecordedGame<Standard>, GameError> {
        let found = find(source, game)?;
        let rules = found.rules()?.unwrap_or_default();
        found.game::<Standard>(&rules)
    }

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
    fn the_built_in_games_are_numbered_as_their_file() {
        let csv = concat!(env!("CARGO_MANIFEST_DIR"), "/data/copenhagen.csv");
        let file = find(csv, Some(541))
            .unwrap()
            .game::<Standard>(&NamedRules::default());
        let built_in = built_in(541)
            .unwrap()
            .game::<Standard>(&NamedRules::default());
        assert_eq!(file.unwrap().moves, built_in.as_ref().unwrap().moves);
        assert_eq!(
            built_in.unwrap().details[0].1,
            "copenhagen.csv (built in), line 541"
        );
        let e = super::built_in(99_999).unwrap_err().to_string();
        assert_eq!(
            e,
            "data/copenhagen.csv (built in) has no readable game on line 99999"
        );
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
        // A file that is not there is named as missing, with what to give instead.
        assert_eq!(
            e("data/nowhere.csv", Some(541)),
            "no such file: data/nowhere.csv; for game 541 of the real games built into hnefi \
             (data/copenhagen.csv), leave the file out: hnefi annotate --game 541"
        );
        assert!(e("game.otg", None).starts_with("no such file: game.otg; give a file"));
        // A single move is still a game, not a file.
        assert_eq!(load("d1-d3", None).unwrap().moves.len(), 1);
        let illegal = load("d1-d3 d3-d1 d1-d3", None).unwrap();
        let err = illegal.replay(Rules::default()).unwrap_err().to_string();
        assert!(err.starts_with("move 2 (d3-d1)"), "{err}");
    }
}
