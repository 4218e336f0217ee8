//! Text forms: the FEN dialect of the UCI-style tafl engines, OpenTafl position strings, and
//! moves as `d1d3`, `d1-d3` or the record form `g3-e3xe2`.

use super::bitboard::Bitboard;
use super::geometry::{Eleven, Geometry};
use super::moves::Move;
use super::piece::{Piece, Side};
use super::position::{Board, SetupError};
use super::square::{Square, SquareError};
use std::fmt::Write;

/// The Copenhagen start position.
pub const START_FEN: &str =
    "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a";

/// Why a text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError<G: Geometry> {
    #[error("empty position")]
    /// The text is empty.
    Empty,
    #[error("expected {side} ranks separated by '/', found {0}", side = G::SIDE)]
    /// The placement has this many ranks, not the board's side.
    RankCount(usize),
    #[error("rank {rank}: '{ch}' at character {column} is not a piece ({pieces}) or a digit")]
    /// A character that is neither a piece nor a digit.
    BadChar {
        /// The rank it is on.
        rank: u8,
        /// The character.
        ch: char,
        /// Its column in the rank's text, from 1.
        column: usize,
        /// The pieces the notation writes.
        pieces: &'static str,
    },
    #[error("rank {rank}: describes {squares} squares, expected {side}", side = G::SIDE)]
    /// A rank that does not cover the board's side.
    RankLength {
        /// The rank.
        rank: u8,
        /// The squares it covers.
        squares: usize,
    },
    #[error("rank {rank}: empty-square count must be a number from 1 to {side}", side = G::SIDE)]
    /// A run of empty squares written wrongly (`0`, or digits that do not add up).
    BadRun {
        /// The rank.
        rank: u8,
    },
    #[error("missing side to move after the board (expected 'a' or 'd')")]
    /// No side to move after the placement.
    NoSide,
    #[error("side to move '{0}' is neither 'a' (attackers) nor 'd' (defenders)")]
    /// The side to move is neither `a` nor `d`.
    BadSide(String),
    #[error("unexpected text after the position: '{0}'")]
    /// Text after the position.
    Trailing(String),
    #[error("OpenTafl position must start and end with '/'")]
    /// An OpenTafl position without its slashes around the ranks.
    Slashes,
    #[error(transparent)]
    /// The pieces make no legal board.
    Setup(#[from] SetupError<G>),
    #[error("move '{text}': {reason}")]
    /// A move that cannot be read.
    BadMove {
        /// The move as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    #[error("move '{text}': {from} and {to} are the same square")]
    /// A move that goes nowhere.
    NullMove {
        /// The move as given.
        text: String,
        /// Its square.
        from: Square<G>,
        /// The same square again.
        to: Square<G>,
    },
}

fn bad_move<G: Geometry>(text: &str, reason: impl ToString) -> NotationError<G> {
    NotationError::BadMove {
        text: text.to_string(),
        reason: reason.to_string(),
    }
}

/// Reads one rank's text into `row` (file order); `letters` maps a character to a piece.
fn parse_rank<G: Geometry>(
    text: &str,
    rank: u8,
    letters: fn(char) -> Option<Piece>,
    pieces: &'static str,
    row: &mut Vec<(Square<G>, Piece)>,
) -> Result<(), NotationError<G>> {
    let mut file = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((i, ch)) = chars.next() {
        if let Some(d) = ch.to_digit(10) {
            let mut run = d as usize;
            if let Some(d2) = chars.peek().and_then(|&(_, next)| next.to_digit(10)) {
                run = run * 10 + d2 as usize;
                chars.next();
            }
            if run == 0 || run > G::SIDE as usize {
                return Err(NotationError::BadRun { rank });
            }
            file += run;
        } else if let Some(piece) = letters(ch) {
            if let Some(sq) = Square::from_coords(file.min(255) as u8, rank - 1) {
                row.push((sq, piece));
            }
            file += 1;
        } else {
            return Err(NotationError::BadChar {
                rank,
                ch,
                column: text[..i].chars().count() + 1,
                pieces,
            });
        }
        if file > G::SIDE as usize {
            break;
        }
    }
    if file != G::SIDE as usize {
        let squares = file + chars.count();
        return Err(NotationError::RankLength {
            rank,
            squares: squares.max(file),
        });
    }
    Ok(())
}

fn build<G: Geometry>(
    placed: &[(Square<G>, Piece)],
    side: Side,
) -> Result<Board<G>, NotationError<G>> {
    let mut attackers = Bitboard::<G>::EMPTY;
    let mut defenders = Bitboard::<G>::EMPTY;
    let mut king = None;
    for &(sq, piece) in placed {
        match piece {
            Piece::Attacker => attackers = attackers.with(sq),
            Piece::Defender => defenders = defenders.with(sq),
            Piece::King => {
                if let Some(first) = king {
                    return Err(SetupError::TwoKings(first, sq).into());
                }
                king = Some(sq);
            }
        }
    }
    let king = king.ok_or(SetupError::NoKing)?;
    Ok(Board::new(attackers, defenders, king, side)?)
}

fn fen_letter(ch: char) -> Option<Piece> {
    match ch.to_ascii_lowercase() {
        'a' => Some(Piece::Attacker),
        'd' => Some(Piece::Defender),
        'k' => Some(Piece::King),
        _ => None,
    }
}

/// Reads a FEN: ranks 11 to 1 separated by `/`, `a` attacker, `d` defender, `k` king, digits
/// for empty squares, then the side to move, `a` or `d`.
fn read_fen<G: Geometry>(text: &str) -> Result<Board<G>, NotationError<G>> {
    let mut fields = text.split_whitespace();
    let placement = fields.next().ok_or(NotationError::Empty)?;
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != G::SIDE as usize {
        return Err(NotationError::RankCount(ranks.len()));
    }
    let mut placed = Vec::with_capacity(40);
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = G::SIDE - i as u8;
        parse_rank(rank_text, rank, fen_letter, "a, d, k", &mut placed)?;
    }
    let side = match fields.next() {
        None => return Err(NotationError::NoSide),
        Some(s) if s.eq_ignore_ascii_case("a") => Side::Attackers,
        Some(s) if s.eq_ignore_ascii_case("d") => Side::Defenders,
        Some(s) => return Err(NotationError::BadSide(s.to_string())),
    };
    if let Some(extra) = fields.next() {
        return Err(NotationError::Trailing(extra.to_string()));
    }
    build(&placed, side)
}

/// Writes ranks as runs of letters and digits, first rank first as `order` gives them.
fn write_ranks<G: Geometry>(
    board: &Board<G>,
    ranks: impl Iterator<Item = u8>,
    letter: fn(Piece) -> char,
    out: &mut String,
) {
    for (n, rank) in ranks.enumerate() {
        if n > 0 {
            out.push('/');
        }
        let mut run = 0;
        for file in 0..G::SIDE {
            let sq = Square::<G>::from_coords(file, rank).expect("on board");
            match board.piece_at(sq) {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        let _ = write!(out, "{run}");
                        run = 0;
                    }
                    out.push(letter(p));
                }
            }
        }
        if run > 0 {
            let _ = write!(out, "{run}");
        }
    }
}

/// The FEN of `board`, as [`Board::from_fen`] reads it.
pub fn to_fen<G: Geometry>(board: &Board<G>) -> String {
    let mut out = String::with_capacity(64);
    let letter = |p| match p {
        Piece::Attacker => 'a',
        Piece::Defender => 'd',
        Piece::King => 'k',
    };
    write_ranks(board, (0..G::SIDE).rev(), letter, &mut out);
    out.push(' ');
    out.push(board.side_to_move().letter());
    out
}

fn opentafl_letter(ch: char) -> Option<Piece> {
    match ch {
        't' => Some(Piece::Attacker),
        'T' => Some(Piece::Defender),
        'K' => Some(Piece::King),
        _ => None,
    }
}

/// Reads an OpenTafl position string: `/row/row/.../`, rank 1 first, `t` attacker, `T`
/// defender, `K` king. It carries no side to move, so the caller gives it.
fn read_opentafl<G: Geometry>(text: &str, side: Side) -> Result<Board<G>, NotationError<G>> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    let inner = text
        .strip_prefix('/')
        .and_then(|t| t.strip_suffix('/'))
        .ok_or(NotationError::Slashes)?;
    let ranks: Vec<&str> = inner.split('/').collect();
    if ranks.len() != G::SIDE as usize {
        return Err(NotationError::RankCount(ranks.len()));
    }
    let mut placed = Vec::with_capacity(40);
    for (i, rank_text) in ranks.iter().enumerate() {
        parse_rank(
            rank_text,
            i as u8 + 1,
            opentafl_letter,
            "t, T, K",
            &mut placed,
        )?;
    }
    build(&placed, side)
}

/// The OpenTafl position string of `board`.
pub fn to_opentafl<G: Geometry>(board: &Board<G>) -> String {
    let mut out = String::with_capacity(64);
    out.push('/');
    let letter = |p| match p {
        Piece::Attacker => 't',
        Piece::Defender => 'T',
        Piece::King => 'K',
    };
    write_ranks(board, 0..G::SIDE, letter, &mut out);
    out.push('/');
    out
}

/// Splits off a leading square name (a letter and one or two digits).
fn take_square<'a, G: Geometry>(
    text: &'a str,
    whole: &str,
) -> Result<(Square<G>, &'a str), NotationError<G>> {
    let digits = text
        .char_indices()
        .skip(1)
        .take_while(|(_, c)| c.is_ascii_digit())
        .count();
    let first_len = text.chars().next().map_or(0, char::len_utf8);
    let end = first_len + digits;
    let sq = Square::<G>::parse(&text[..end]).map_err(|e: SquareError| bad_move(whole, e))?;
    Ok((sq, &text[end..]))
}

/// Reads a move written `d1d3` or `d1-d3` (no captures allowed).
fn read_move<G: Geometry>(text: &str) -> Result<Move<G>, NotationError<G>> {
    let record = read_record_move::<G>(text)?;
    if record.captures.any() {
        return Err(bad_move(text, "captures are not allowed here"));
    }
    Ok(record.mv)
}

/// A move as game records write it, with the captures it claims.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RecordMove<G: Geometry> {
    /// The move.
    pub mv: Move<G>,
    /// Claimed captures, duplicates merged.
    pub captures: Bitboard<G>,
}

/// Reads `d1d3`, `d1-d3`, or the record form `g3-e3xe2`, `e7-k7xk6xj7`.
fn read_record_move<G: Geometry>(text: &str) -> Result<RecordMove<G>, NotationError<G>> {
    let t = text.trim();
    if t.is_empty() {
        return Err(bad_move(text, "empty move"));
    }
    let (from, rest) = take_square(t, text)?;
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    if rest.is_empty() {
        return Err(bad_move(text, "missing destination square"));
    }
    let (to, mut rest) = take_square(rest, text)?;
    if from == to {
        return Err(NotationError::NullMove {
            text: text.to_string(),
            from,
            to,
        });
    }
    let mut captures = Bitboard::<G>::EMPTY;
    while !rest.is_empty() {
        let Some(after) = rest.strip_prefix(['x', 'X']) else {
            return Err(bad_move(
                text,
                format!("unexpected '{rest}' after the move (captures are written xe2)"),
            ));
        };
        let (sq, r) = take_square(after, text)?;
        captures = captures.with(sq);
        rest = r;
    }
    Ok(RecordMove {
        mv: Move::new(from, to),
        captures,
    })
}

/// The record form of a move and what it captured: `g3-e3xe2`.
pub fn record_move<G: Geometry>(mv: Move<G>, captured: Bitboard<G>) -> String {
    let mut out = format!("{}-{}", mv.from(), mv.to());
    for sq in captured {
        let _ = write!(out, "x{sq}");
    }
    out
}

impl<G: Geometry> Board<G> {
    /// Reads a position as people paste it: a FEN, or an OpenTafl position string (it starts
    /// with `/`) with the side to move after it, `a` or `d`, the attackers when none is given.
    pub fn from_position(text: &str) -> Result<Self, NotationError<G>> {
        read_position(text)
    }

    /// Reads a FEN of this board's size: its ranks from the last to 1 separated by `/`, `a`
    /// attacker, `d` defender, `k` king, digits for empty squares, then the side to move, `a`
    /// or `d`.
    pub fn from_fen(text: &str) -> Result<Self, NotationError<G>> {
        read_fen(text)
    }

    /// Reads an OpenTafl position string of this board's size: `/row/row/.../`, rank 1 first,
    /// `t` attacker, `T` defender, `K` king. It carries no side to move, so the caller gives
    /// it.
    pub fn from_opentafl(text: &str, side: Side) -> Result<Self, NotationError<G>> {
        read_opentafl(text, side)
    }
}

impl<G: Geometry> Move<G> {
    /// Reads a move of this board's size written `d1d3` or `d1-d3` (no captures allowed).
    pub fn parse(text: &str) -> Result<Self, NotationError<G>> {
        read_move(text)
    }
}

impl<G: Geometry> RecordMove<G> {
    /// Reads a move of this board's size as `d1d3`, `d1-d3`, or the record form `g3-e3xe2`,
    /// `e7-k7xk6xj7`.
    pub fn parse(text: &str) -> Result<Self, NotationError<G>> {
        read_record_move(text)
    }
}

/// [`Board::from_fen`] on 11x11, for the tests and tools that play Copenhagen alone.
pub fn parse_fen(text: &str) -> Result<Board<Eleven>, NotationError<Eleven>> {
    read_fen(text)
}

/// [`Board::from_opentafl`] on 11x11.
pub fn parse_opentafl(text: &str, side: Side) -> Result<Board<Eleven>, NotationError<Eleven>> {
    read_opentafl(text, side)
}

fn read_position<G: Geometry>(text: &str) -> Result<Board<G>, NotationError<G>> {
    let text = text.trim();
    if !text.starts_with('/') {
        return read_fen(text);
    }
    let mut fields = text.split_whitespace();
    let placement = fields.next().ok_or(NotationError::Empty)?;
    let side = match fields.next() {
        None => Side::Attackers,
        Some(s) if s.eq_ignore_ascii_case("a") => Side::Attackers,
        Some(s) if s.eq_ignore_ascii_case("d") => Side::Defenders,
        Some(s) => return Err(NotationError::BadSide(s.to_string())),
    };
    if let Some(extra) = fields.next() {
        return Err(NotationError::Trailing(extra.to_string()));
    }
    read_opentafl(placement, side)
}

/// [`Board::from_position`] on 11x11.
pub fn parse_position(text: &str) -> Result<Board<Eleven>, NotationError<Eleven>> {
    read_position(text)
}

/// [`Move::parse`] on 11x11.
pub fn parse_move(text: &str) -> Result<Move<Eleven>, NotationError<Eleven>> {
    read_move(text)
}

/// [`RecordMove::parse`] on 11x11.
pub fn parse_record_move(text: &str) -> Result<RecordMove<Eleven>, NotationError<Eleven>> {
    read_record_move(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn start_fen_round_trips() {
        let b = parse_fen(START_FEN).unwrap();
        assert_eq!(to_fen(&b), START_FEN);
        let ot = to_opentafl(&b);
        assert_eq!(
            ot,
            "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
        );
        assert_eq!(parse_opentafl(&ot, Side::Attackers).unwrap(), b);
    }

    #[test]
    fn opentafl_is_rank_one_first() {
        // After k8-k9 as OpenTafl reports it.
        let text = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T5/10t/5t5/3ttttt3/";
        let b = parse_opentafl(text, Side::Defenders).unwrap();
        assert_eq!(
            b.piece_at(Square::parse("k9").unwrap()),
            Some(Piece::Attacker)
        );
        assert_eq!(b.piece_at(Square::parse("k8").unwrap()), None);
        assert_eq!(to_opentafl(&b), text);
        // As people paste it: with the side to move after it, or none (the attackers).
        assert_eq!(parse_position(&format!("{text} d")), Ok(b));
        let start = to_opentafl(&Board::start());
        assert_eq!(parse_position(&start), Ok(Board::start()));
        assert_eq!(parse_position(START_FEN), Ok(Board::start()));
        assert_eq!(
            parse_position(&format!("{text} x")),
            Err(NotationError::BadSide("x".into()))
        );
        assert_eq!(
            parse_position(&format!("{text} d more")),
            Err(NotationError::Trailing("more".into()))
        );
    }

    #[test]
    fn fen_errors_are_precise() {
        let e = |t: &str| parse_fen(t).unwrap_err().to_string();
        assert!(e("").contains("empty"));
        assert!(e("11/11 a").contains("found 2"));
        assert!(e(&START_FEN.replace("5a5/11", "5a5/1x9")).contains("rank 9: 'x' at character 2"));
        assert!(e(&START_FEN.replace("5a5/11", "5a5/10")).contains("rank 9: describes 10"));
        assert!(e(&START_FEN.replace("5a5/11", "5a5/12")).contains("rank 9"));
        assert!(e(&START_FEN.replace(" a", "")).contains("missing side"));
        assert!(e(&START_FEN.replace(" a", " x")).contains("'x'"));
        assert!(e(&START_FEN.replace(" a", " a junk")).contains("junk"));
        assert!(e(&START_FEN.replace('k', "d")).contains("no king"));
        assert!(e(&START_FEN.replace("5a5/11", "5a5/k10")).contains("two or more kings"));
        // Which squares a man may stand on is the rules' to say (`Rulebook::check_setup`):
        // the text form takes a man on Copenhagen's throne or corners.
        let rulebook = super::super::rulebook::Rulebook::default();
        for (fen, square) in [
            ("a10/11/11/11/11/11/11/11/11/11/10k a", "a11"),
            ("11/11/11/11/11/5a5/11/11/11/11/10k a", "f6"),
            ("11/11/11/11/11/5d5/11/11/11/11/10k a", "f6"),
            ("11/11/11/11/11/11/11/11/11/11/k9d a", "k1"),
        ] {
            let board = parse_fen(fen).unwrap();
            let error = rulebook.check_setup(&board).unwrap_err().to_string();
            assert!(
                error.contains(&format!("{square} is a restricted")),
                "{error}"
            );
        }
    }

    /// A composed study with 15 defenders (three more than the start) and 24 attackers.
    const STUDY_15: &str =
        "3aaaaa3/5a5/5d5/a3ddd3a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 d";

    #[test]
    fn positions_with_more_pieces_than_the_start_are_playable() {
        let b = parse_fen(STUDY_15).unwrap();
        assert_eq!((b.attackers().count(), b.defenders().count()), (24, 15));
        assert_eq!(to_fen(&b), STUDY_15);
        let ot = to_opentafl(&b);
        assert_eq!(parse_opentafl(&ot, Side::Defenders).unwrap(), b);
        // More attackers than the start, and a board packed full but for the corners.
        let b = parse_fen("1aaaaaaaaa1/11/11/11/11/11/11/11/aaaaaaaa3/11/1aaaaaaaak1 a").unwrap();
        assert_eq!(b.attackers().count(), 25);
        let full = "1aaaaaaaaa1/aaaaaaaaaaa/aaaaaaaaaaa/aaaaaaaaaaa/aaaaaaaaaaa/aaaaakddddd/\
                    ddddddddddd/ddddddddddd/ddddddddddd/ddddddddddd/1ddddddddd1 d";
        let b = parse_fen(full).unwrap();
        assert_eq!(b.attackers().count() + b.defenders().count(), 116);
        assert_eq!(
            parse_opentafl(&to_opentafl(&b), Side::Defenders).unwrap(),
            b
        );
    }

    #[test]
    fn moves() {
        let m = parse_move("d1-d3").unwrap();
        assert_eq!(m.to_string(), "d1d3");
        assert_eq!(parse_move("d1d3").unwrap(), m);
        assert_eq!(parse_move("D1D3").unwrap(), m);
        assert_eq!(parse_move("a10a11").unwrap().to_string(), "a10a11");
        let r = parse_record_move("e7-k7xk6xj7xk6").unwrap();
        assert_eq!(r.captures.count(), 2);
        assert_eq!(record_move(r.mv, r.captures), "e7-k7xk6xj7");
        for bad in [
            "", "d1", "d1-", "d1d1", "d1-d3x", "d1-d3xz9", "d1-d3+", "z1d3", "d0d3", "d1-d3xe2",
        ] {
            if bad == "d1-d3xe2" {
                assert!(parse_move(bad).is_err());
            } else {
                assert!(parse_record_move(bad).is_err(), "{bad}");
            }
        }
    }
}
