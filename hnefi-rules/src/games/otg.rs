//! OpenTafl's saved games (`.otg`): `[key:value]` tag lines, then numbered move lines
//! (`7. a8-b8xb7 Kf6-f10`) with bracketed commentary between them. Moves may carry a piece
//! letter (`K` the king), captures as `xb7/c7`, and a trailing status (`+`, `--`); lines of
//! side variations (`2a.1.1a. ...`) are left out, the main line is the game. [`write()`] saves
//! a game so.

use super::record::Verdict;
use crate::board::notation::{record_move, to_opentafl};
use crate::board::opentafl::rules_string;
use crate::board::square::SquareError;
use crate::board::variant::NamedRules;
use crate::board::{Bitboard, Board, Move, RecordMove, Square};
use crate::board::{Geometry, Preset, Rules, Side, SizeError, side_of};

/// What an `.otg` file holds, on the board of `G`.
#[derive(Clone, Debug)]
pub struct OtgGame<G: Geometry> {
    /// The tags in file order, such as `attackers`, `defenders`, `result`, `event`.
    pub tags: Vec<(String, String)>,
    /// The start from the `rules` tag's `start:` key, if it has one.
    pub start: Option<Board<G>>,
    /// The main line's moves, with the captures the file claims for them.
    pub moves: Vec<RecordMove<G>>,
}

impl<G: Geometry> OtgGame<G> {
    /// The value of the tag `key` (any case), if the file gives one that is not blank.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.trim().is_empty())
    }

    /// The result the `result` tag gives: `1` the attackers won, `-1` the defenders, `0` a
    /// draw; anything else, or none, is a game not over.
    pub fn verdict(&self) -> Verdict {
        match self.tag("result").map(str::trim) {
            Some("1") => Verdict::Win(Side::Attackers),
            Some("-1") => Verdict::Win(Side::Defenders),
            Some("0") => Verdict::Draw,
            _ => Verdict::Ongoing,
        }
    }
}

/// Why the text of an `.otg` file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OtgError {
    /// A `[` of commentary without its `]`.
    #[error("line {line}: commentary opened with '[' is never closed")]
    OpenComment {
        /// The line it opens on, from 1.
        line: usize,
    },
    /// A move line that does not begin with its number.
    #[error("line {line}: '{text}' is not a move number like '12.'")]
    MoveNumber {
        /// The line, from 1.
        line: usize,
        /// Its first word.
        text: String,
    },
    /// A word of a move line that is not a move.
    #[error("line {line}: move '{text}': {error}")]
    Move {
        /// The line, from 1.
        line: usize,
        /// The word.
        text: String,
        /// Why it is not a move.
        error: MoveWordError,
    },
    /// The rules are for another board than the one asked for.
    #[error("rules: a {found}x{found} board, where {expected}x{expected} was asked for")]
    Dimension {
        /// The side the rules give.
        found: String,
        /// The side asked for.
        expected: u8,
    },
    /// The rules' `start:` is not a position of their board.
    #[error("rules: start position: {0}")]
    Start(String),
    /// The file holds no move.
    #[error("no moves found")]
    NoMoves,
}

/// Why a word of a move line is not a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveWordError {
    /// Not two squares joined by `-`.
    #[error("expected from-to (jumps and berserk moves are not played here)")]
    NotFromTo,
    /// A square that is not on the board.
    #[error(transparent)]
    Square(#[from] SquareError),
    /// The same square twice.
    #[error("{0} and {0} are the same square")]
    SameSquare(String),
}

/// The leading `[key:value]` tag lines of an `.otg` file, and the line index after them.
fn tags(text: &str) -> (Vec<(String, String)>, usize) {
    let mut tags = Vec::new();
    let mut after = 0;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        let Some(inner) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
            if t.is_empty() && tags.is_empty() {
                after = i + 1;
                continue;
            }
            break;
        };
        let Some((key, value)) = inner.split_once(':') else {
            break;
        };
        tags.push((key.trim().to_string(), value.trim().to_string()));
        after = i + 1;
    }
    (tags, after)
}

/// The `rules` tag of an `.otg` file (an OpenTafl rules string), if it has one.
pub fn rules_tag(text: &str) -> Option<String> {
    tags(text)
        .0
        .into_iter()
        .find(|(k, v)| k.eq_ignore_ascii_case("rules") && !v.trim().is_empty())
        .map(|(_, v)| v)
}

/// The rules an `.otg` file's text names in its `rules` tag, if it has one. A rules string
/// Hnefi cannot play falls back to Hnefi's preset of its board size, whose name the rules
/// then carry (the moves are read on that board); one whose size cannot be told, or is not one
/// Hnefi plays, is an error.
pub fn rules_of(text: &str) -> Result<Option<NamedRules>, SizeError> {
    rules_tag(text)
        .map(|tag| match tag.parse() {
            Ok(rules) => Ok(rules),
            Err(_) => {
                let preset = Preset::default_for_width(side_of(&tag)?)?;
                Ok(NamedRules::preset(preset))
            }
        })
        .transpose()
}

/// Reads an `.otg` file's text, its moves on the board of `G`; a file without moves is an
/// error ([`OtgError::NoMoves`]).
pub fn parse<G: Geometry>(text: &str) -> Result<OtgGame<G>, OtgError> {
    let game = parse_any(text)?;
    if game.moves.is_empty() {
        return Err(OtgError::NoMoves);
    }
    Ok(game)
}

/// [`parse`], where a file of tags alone (a game saved before its first move) is a game
/// without moves.
pub fn parse_any<G: Geometry>(text: &str) -> Result<OtgGame<G>, OtgError> {
    let (tags, after) = tags(text);
    let mut game = OtgGame {
        tags,
        start: None,
        moves: Vec::new(),
    };
    let lines = text.lines().enumerate().skip(after);
    if let Some(rules) = game.tag("rules") {
        game.start = start_of(rules)?;
    }
    let mut in_comment: Option<usize> = None;
    for (i, line) in lines {
        let line_no = i + 1;
        // Commentary may span lines; only what is outside brackets is read.
        let mut outside = String::new();
        for ch in line.chars() {
            match (in_comment, ch) {
                (None, '[') => in_comment = Some(line_no),
                (Some(_), ']') => in_comment = None,
                (None, c) => outside.push(c),
                (Some(_), _) => {}
            }
        }
        let mut words = outside.split_whitespace();
        let Some(number) = words.next() else { continue };
        if !is_move_number(number) {
            if is_variation_number(number) {
                continue;
            }
            return Err(OtgError::MoveNumber {
                line: line_no,
                text: number.to_string(),
            });
        }
        for word in words {
            let mv = parse_move(word).map_err(|error| OtgError::Move {
                line: line_no,
                text: word.to_string(),
                error,
            })?;
            game.moves.push(mv);
        }
    }
    if let Some(line) = in_comment {
        return Err(OtgError::OpenComment { line });
    }
    Ok(game)
}

/// The game as OpenTafl saves it: the tags `rules` (the rules string of `rules`, its start
/// `start`), `attackers` and `defenders` where `players` names them, and `result` (`1` the
/// attackers won, `-1` the defenders, `0` a draw, empty while the game goes on); then a
/// numbered line a turn of both sides, whichever side moves first, each move with the squares
/// it captured (`g3-e3xe2`).
pub fn write<G: Geometry>(
    rules: &Rules,
    start: &Board<G>,
    moves: &[RecordMove<G>],
    result: Verdict,
    players: Option<(&str, &str)>,
) -> String {
    let result = match result {
        Verdict::Win(Side::Attackers) => "1",
        Verdict::Win(Side::Defenders) => "-1",
        Verdict::Draw => "0",
        Verdict::Ongoing => "",
    };
    let mut out = format!("[rules:{}]\n", rules_string(rules, &to_opentafl(start)));
    if let Some((attackers, defenders)) = players {
        out.push_str(&format!(
            "[attackers:{attackers}]\n[defenders:{defenders}]\n"
        ));
    }
    out.push_str(&format!("[result:{result}]\n\n"));
    for (number, pair) in moves.chunks(2).enumerate() {
        let words: Vec<String> = pair.iter().map(|m| record_move(m.mv, m.captures)).collect();
        out.push_str(&format!("{}. {}\n", number + 1, words.join(" ")));
    }
    out
}

/// The start board of an OpenTafl rules string (`dim:11 ... start:/.../`), if it gives one,
/// on the board of `G`.
fn start_of<G: Geometry>(rules: &str) -> Result<Option<Board<G>>, OtgError> {
    let side = match side_of(rules) {
        Ok(side) => usize::from(side),
        Err(SizeError::Unknown(side)) => side,
        // Nothing that gives a size: no start board either.
        Err(SizeError::Unreadable(_)) => return Ok(None),
    };
    if side != usize::from(G::SIDE) {
        return Err(OtgError::Dimension {
            found: side.to_string(),
            expected: G::SIDE,
        });
    }
    // The side that moves first is the rules' (the defenders in Brandubh), where they say.
    let first = crate::board::opentafl::parse_rules_string(rules)
        .map_or(Side::Attackers, |variant| variant.rules.first);
    let mut start = None;
    for field in rules.split_whitespace() {
        if let Some(s) = field.strip_prefix("start:") {
            start =
                Some(Board::from_opentafl(s, first).map_err(|e| OtgError::Start(e.to_string()))?);
        }
    }
    Ok(start)
}

/// `12.`: a main-line move number.
fn is_move_number(word: &str) -> bool {
    word.strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `2a.1.1a.`: a move of a side variation.
fn is_variation_number(word: &str) -> bool {
    word.ends_with('.')
        && word.starts_with(|c: char| c.is_ascii_digit())
        && word.bytes().any(|b| b.is_ascii_alphabetic())
        && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.')
}

/// Drops an OpenTafl piece letter before a square: a letter followed by another letter (`Kf6`),
/// never the file of `k4`.
fn without_piece(text: &str) -> &str {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(p), Some(f)) if p.is_ascii_alphabetic() && f.is_ascii_alphabetic() => &text[1..],
        _ => text,
    }
}

fn square<G: Geometry>(text: &str) -> Result<Square<G>, SquareError> {
    Square::parse(without_piece(text))
}

/// One move: `Kf6-f10`, `g7-g10xf10`, `e7-k7xk6/j7`, with an optional status suffix.
fn parse_move<G: Geometry>(word: &str) -> Result<RecordMove<G>, MoveWordError> {
    let body = word.trim_end_matches(['+', '-']);
    let (travel, captures) = match body.split_once(['x', 'X']) {
        Some((t, c)) => (t, Some(c)),
        None => (body, None),
    };
    let (from, to) = travel.split_once('-').ok_or(MoveWordError::NotFromTo)?;
    let (from, to) = (square(from)?, square(to)?);
    if from == to {
        return Err(MoveWordError::SameSquare(from.to_string()));
    }
    let mut captured = Bitboard::EMPTY;
    // A bare trailing `x` (some records only mark that something was taken) claims nothing.
    for sq in captures.into_iter().flat_map(|c| c.split('/')) {
        if !sq.is_empty() {
            captured = captured.with(square(sq)?);
        }
    }
    Ok(RecordMove {
        mv: Move::new(from, to),
        captures: captured,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Eleven, Seven};

    const GAME: &str = "[date:2015.01.07]
[result:-1]
[attackers:Tim]
[defenders:Schachus]
[rules:dim:11 atkf:y sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/]

1. d1-d3 h6-h9
[A standard opening.|White answers
on two lines.]

2. k4-i4 Kf6-f10+
2a.1.1a. d5-f5 Ke6-e7
3. d11-d9 e7-e10xe9/tf9--
";

    #[test]
    fn reads_tags_moves_and_skips_commentary_and_variations() {
        let g = parse::<Eleven>(GAME).unwrap();
        assert_eq!(g.tag("attackers"), Some("Tim"));
        assert_eq!(g.tag("result"), Some("-1"));
        assert_eq!(g.start, Some(Board::start()));
        let text: Vec<String> = g
            .moves
            .iter()
            .map(|m| record_move(m.mv, m.captures))
            .collect();
        assert_eq!(
            text,
            [
                "d1-d3",
                "h6-h9",
                "k4-i4",
                "f6-f10",
                "d11-d9",
                "e7-e10xe9xf9"
            ]
        );
    }

    #[test]
    fn errors_name_the_line() {
        let e = |t: &str| parse::<Eleven>(t).unwrap_err().to_string();
        assert!(e("[rules:dim:9 start:/9/]\n1. a1-a2").contains("9x9"));
        assert!(e("1. d1-d3 [never closed\n").contains("line 1"));
        assert!(e("1. d1-d3\nhello\n").contains("line 2: 'hello'"));
        assert!(e("1. d1^d3\n").contains("jumps"));
        assert!(e("1. d1-z3\n").contains("line 1: move 'd1-z3'"));
        assert_eq!(
            parse::<Eleven>("1. d1-d3\n2. Kf6-f6\n")
                .unwrap_err()
                .to_string(),
            "line 2: move 'Kf6-f6': f6 and f6 are the same square"
        );
        assert!(matches!(
            parse::<Eleven>("1. d1-z3\n"),
            Err(OtgError::Move {
                error: MoveWordError::Square(SquareError::BadFile {
                    file: 'z',
                    last: 'k'
                }),
                ..
            })
        ));
        assert!(e("[result:1]\n").contains("no moves"));
    }

    #[test]
    fn games_on_other_boards_read_on_theirs() {
        let text = "[rules:dim:7 name:Brandub ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\
                    1. d2-f2 Kd4-d2\n";
        assert_eq!(side_of(&rules_tag(text).unwrap()), Ok(7));
        let g = parse::<Seven>(text).unwrap();
        assert_eq!(g.moves.len(), 2);
        assert_eq!(g.start.unwrap().king().to_string(), "d4");
        assert!(
            parse::<Eleven>(text)
                .unwrap_err()
                .to_string()
                .contains("7x7")
        );
        assert_eq!(rules_tag("1. d1-d3\n"), None);
    }
}
