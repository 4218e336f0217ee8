//! Game records in the community format of `copenhagen.csv`:
//! `moves,attacker_captures,defender_captures,result`, moves like `g3-e3xe2`, attackers first.

use crate::board::notation::{RecordMove, parse_record_move};
use crate::board::{NotationError, Position, Rules};

/// One game of a record file.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub moves: Vec<RecordMove>,
    /// The game ended on time (a trailing `timeout` token).
    pub timeout: bool,
    /// `Black` (attackers won), `White` (defenders won), `Draw` or `Ongoing`.
    pub result: String,
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("expected 4 comma-separated fields, found {0}")]
    Fields(usize),
    #[error("move {index}: {source}")]
    Move { index: usize, source: NotationError },
}

impl GameRecord {
    pub fn parse(line: &str) -> Result<GameRecord, RecordError> {
        let fields: Vec<&str> = line.trim().split(',').collect();
        if fields.len() != 4 {
            return Err(RecordError::Fields(fields.len()));
        }
        let mut tokens: Vec<&str> = fields[0].split_whitespace().collect();
        let timeout = tokens.last() == Some(&"timeout");
        if timeout {
            tokens.pop();
        }
        let moves = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| {
                parse_record_move(t).map_err(|source| RecordError::Move {
                    index: i + 1,
                    source,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(GameRecord {
            moves,
            timeout,
            result: fields[3].trim().to_string(),
        })
    }

    /// The positions of the game, replayed with `rules`: the start, then one after each move.
    /// Stops at the first move that is not legal.
    pub fn positions(&self, rules: Rules) -> Vec<Position> {
        let mut pos = Position::start(rules);
        let mut out = vec![pos.clone()];
        for m in &self.moves {
            if pos.board().check_move(m.mv).is_err() {
                break;
            }
            pos.play(m.mv);
            out.push(pos.clone());
        }
        out
    }
}

/// Every game of a record file, with its line number; lines that do not parse are skipped
/// and reported to the log.
pub fn read_games(text: &str) -> Vec<(usize, GameRecord)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .filter_map(|(i, l)| match GameRecord::parse(l) {
            Ok(g) => Some((i + 1, g)),
            Err(e) => {
                log::warn!("line {}: {e}", i + 1);
                None
            }
        })
        .collect()
}
