//! One training position per line, in a text format that people and scripts can read:
//!
//! ```text
//! FEN;SCORE;RESULT;GAME[;BESTMOVE]
//! 3a1a5/.../3a1a5 d;-35;d;1744
//! 3a1a5/.../3a1a5 a;120;a;1745;d1d3
//! ```
//!
//! - `FEN`: the position with its side to move, as `parse_fen` reads it.
//! - `SCORE`: the search score in cp from the attackers' view, or `-` where none was searched
//!   (positions of real games). Decided positions are written as +/-[`SCORE_CAP`].
//! - `RESULT`: how the game ended: `a` the attackers won, `d` the defenders won, `=` a draw.
//! - `GAME`: a number naming the game the position comes from, so that training and
//!   held-out positions can be split by game rather than by position.
//! - `BESTMOVE` (optional): the move the search that gave `SCORE` chose, as `d1d3`. Files
//!   written before the field existed have four fields and read as no move.

use crate::board::notation::to_fen;
use crate::board::{Board, Move, NotationError};
use crate::board::{Geometry, Side};
use std::fmt;
use std::str::FromStr;

/// Scores beyond this are decided games; they are written as this, with their sign.
pub const SCORE_CAP: i32 = 10_000;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    AttackersWon,
    DefendersWon,
    Draw,
}

impl GameResult {
    /// The result for the attackers: 1, 0.5 or 0.
    pub fn attackers_score(self) -> f64 {
        match self {
            GameResult::AttackersWon => 1.0,
            GameResult::DefendersWon => 0.0,
            GameResult::Draw => 0.5,
        }
    }

    pub fn of(winner: Option<Side>) -> GameResult {
        match winner {
            Some(Side::Attackers) => GameResult::AttackersWon,
            Some(Side::Defenders) => GameResult::DefendersWon,
            None => GameResult::Draw,
        }
    }

    fn letter(self) -> char {
        match self {
            GameResult::AttackersWon => 'a',
            GameResult::DefendersWon => 'd',
            GameResult::Draw => '=',
        }
    }
}

/// A position with what is known of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample<G: Geometry> {
    pub board: Board<G>,
    /// Search score, cp, attackers' view, within +/-[`SCORE_CAP`].
    pub score: Option<i32>,
    pub result: GameResult,
    pub game: u64,
    /// The move the search chose here, when it was recorded: the policy's target.
    pub best: Option<Move<G>>,
}

#[derive(Debug, thiserror::Error)]
pub enum SampleError<G: Geometry> {
    #[error("expected 4 or 5 fields FEN;SCORE;RESULT;GAME[;BESTMOVE] separated by ';', found {0}")]
    Fields(usize),
    #[error("bad FEN: {0}")]
    Fen(#[from] NotationError<G>),
    #[error("bad score {0:?}: a whole number of cp or '-'")]
    Score(String),
    #[error("bad result {0:?}: 'a' (attackers won), 'd' (defenders won) or '=' (draw)")]
    Result(String),
    #[error("bad game number {0:?}")]
    Game(String),
    #[error("bad best move {0:?}: {1}")]
    Best(String, NotationError<G>),
    #[error("best move {0} does not start on a piece of the side to move")]
    IllegalBest(String),
}

impl<G: Geometry> FromStr for Sample<G> {
    type Err = SampleError<G>;

    fn from_str(line: &str) -> Result<Sample<G>, SampleError<G>> {
        let fields: Vec<&str> = line.trim().split(';').collect();
        let (fen, score, result, game, best) = match fields[..] {
            [fen, score, result, game] => (fen, score, result, game, None),
            [fen, score, result, game, best] => (fen, score, result, game, Some(best.trim())),
            _ => return Err(SampleError::Fields(fields.len())),
        };
        let board = Board::from_fen(fen)?;
        let score = match score.trim() {
            "-" => None,
            s => Some(
                s.parse::<i32>()
                    .map_err(|_| SampleError::Score(s.to_string()))?
                    .clamp(-SCORE_CAP, SCORE_CAP),
            ),
        };
        let result = match result.trim() {
            "a" => GameResult::AttackersWon,
            "d" => GameResult::DefendersWon,
            "=" => GameResult::Draw,
            r => return Err(SampleError::Result(r.to_string())),
        };
        let game = game
            .trim()
            .parse()
            .map_err(|_| SampleError::Game(game.to_string()))?;
        let best = match best {
            None | Some("" | "-") => None,
            Some(text) => {
                let mv = Move::parse(text).map_err(|e| SampleError::Best(text.to_string(), e))?;
                // The rules are not known here, only the board: the mover's piece must stand
                // on the move's square. Training checks the move against the legal ones.
                if board.piece_at(mv.from()).map(|p| p.side()) != Some(board.side_to_move()) {
                    return Err(SampleError::IllegalBest(text.to_string()));
                }
                Some(mv)
            }
        };
        Ok(Sample {
            board,
            score,
            result,
            game,
            best,
        })
    }
}

impl<G: Geometry> fmt::Display for Sample<G> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{};", to_fen(&self.board))?;
        match self.score {
            Some(s) => write!(f, "{}", s.clamp(-SCORE_CAP, SCORE_CAP))?,
            None => f.write_str("-")?,
        }
        write!(f, ";{};{}", self.result.letter(), self.game)?;
        if let Some(mv) = self.best {
            write!(f, ";{mv}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::size::Standard;

    #[test]
    fn round_trips() {
        for (score, result) in [
            (Some(-35), GameResult::DefendersWon),
            (None, GameResult::AttackersWon),
            (Some(SCORE_CAP), GameResult::Draw),
        ] {
            let s = Sample {
                board: Board::start(),
                score,
                result,
                game: 17,
                best: None,
            };
            let line = s.to_string();
            assert_eq!(line.parse::<Sample<Standard>>().unwrap(), s, "{line}");
        }
    }

    #[test]
    fn the_best_move_is_an_optional_fifth_field() {
        let start = to_fen(&Board::start());
        let s: Sample<Standard> = format!("{start};12;a;3;d1d3").parse().unwrap();
        assert_eq!(s.best.map(|m| m.to_string()), Some("d1d3".to_string()));
        assert_eq!(s.to_string(), format!("{start};12;a;3;d1d3"));
        let old: Sample<Standard> = format!("{start};12;a;3").parse().unwrap();
        assert_eq!(old.best, None);
        assert_eq!(old.to_string(), format!("{start};12;a;3"));
        for bad in ["d1d3x", "zz9", "e6e7"] {
            let e = format!("{start};12;a;3;{bad}")
                .parse::<Sample<Standard>>()
                .unwrap_err()
                .to_string();
            assert!(e.contains(bad), "{e}");
        }
    }

    #[test]
    fn caps_scores_and_rejects_junk() {
        let start = to_fen(&Board::start());
        let s: Sample<Standard> = format!("{start};99999;a;1").parse().unwrap();
        assert_eq!(s.score, Some(SCORE_CAP));
        for bad in [
            format!("{start};1;a"),
            format!("{start};x;a;1"),
            format!("{start};1;w;1"),
            format!("{start};1;a;-1"),
            "11/11 a;1;a;1".to_string(),
        ] {
            assert!(bad.parse::<Sample<Standard>>().is_err(), "{bad}");
        }
    }
}
