//! Game records in the community format of `copenhagen.csv`:
//! `moves,attacker_captures,defender_captures,result`, moves like `g3-e3xe2`, attackers first.

use crate::board::RecordMove;
use crate::board::notation::parse_record_move;
use crate::board::{NotationError, Position, Rules, Side};
use std::fmt;
use std::str::FromStr;

/// One game of a record file.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub moves: Vec<RecordMove>,
    /// The game ended on time (a trailing `timeout` token).
    pub timeout: bool,
    pub result: Verdict,
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("expected 4 comma-separated fields, found {0}")]
    Fields(usize),
    #[error("move {index}: {source}")]
    Move { index: usize, source: NotationError },
    #[error(transparent)]
    Result(#[from] UnknownVerdict),
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
            result: fields[3].parse()?,
        })
    }

    /// The positions of the game, replayed with `rules`: the start, then one after each move.
    /// Stops at the first move that is not legal.
    pub fn positions(&self, rules: Rules) -> Vec<Position> {
        let mut pos = Position::start(rules);
        let mut out = vec![pos.clone()];
        for m in &self.moves {
            if pos.board().check_move_under(m.mv, pos.rulebook()).is_err() {
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

/// A game's result as a record gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Ongoing,
    Win(Side),
    Draw,
}

impl Verdict {
    const ALL: [Verdict; 4] = [
        Verdict::Win(Side::Attackers),
        Verdict::Win(Side::Defenders),
        Verdict::Draw,
        Verdict::Ongoing,
    ];

    /// The record's word: `Black` (attackers won), `White`, `Draw` or `Ongoing`.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Ongoing => "Ongoing",
            Verdict::Win(Side::Attackers) => "Black",
            Verdict::Win(Side::Defenders) => "White",
            Verdict::Draw => "Draw",
        }
    }

    pub fn of(winner: Option<Side>) -> Verdict {
        winner.map_or(Verdict::Draw, Verdict::Win)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A result column that is none of the record format's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown result '{0}' (known: Black, White, Draw, Ongoing)")]
pub struct UnknownVerdict(pub String);

impl FromStr for Verdict {
    type Err = UnknownVerdict;

    fn from_str(s: &str) -> Result<Verdict, UnknownVerdict> {
        let word = s.trim();
        Verdict::ALL
            .into_iter()
            .find(|v| v.word() == word)
            .ok_or_else(|| UnknownVerdict(word.to_string()))
    }
}

impl From<Option<crate::board::Outcome>> for Verdict {
    fn from(outcome: Option<crate::board::Outcome>) -> Verdict {
        outcome.map_or(Verdict::Ongoing, |o| Verdict::of(o.winner))
    }
}

/// A game as one line of the community format, captures computed by replaying the moves from
/// `start` under `rules`. Stops at the first move that is not legal.
pub fn write_game(
    start: &crate::board::Board,
    moves: &[crate::board::Move],
    rules: Rules,
    verdict: Verdict,
    timeout: bool,
) -> String {
    use crate::board::notation::record_move;
    let mut pos = Position::new(*start, rules);
    let mut words = Vec::with_capacity(moves.len() + 1);
    let mut marks = [0usize; 2];
    for &mv in moves {
        if pos.board().check_move_under(mv, pos.rulebook()).is_err() {
            break;
        }
        let side = pos.side_to_move();
        let captured = pos.play(mv);
        marks[side.index()] += captured.count() as usize;
        words.push(record_move(mv, captured));
    }
    if timeout {
        words.push("timeout".to_string());
    }
    format!(
        "{},{},{},{}",
        words.join(" "),
        marks[0],
        marks[1],
        verdict.word()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Outcome, Reason, Side};

    #[test]
    fn written_games_read_back() {
        let line = "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Ongoing";
        let game = GameRecord::parse(line).unwrap();
        let moves: Vec<_> = game.moves.iter().map(|m| m.mv).collect();
        let written = write_game(
            &Board::start(),
            &moves,
            Rules::default(),
            Verdict::Ongoing,
            false,
        );
        assert_eq!(written, line);
        let won = write_game(
            &Board::start(),
            &moves,
            Rules::default(),
            Some(Outcome::win(Side::Attackers, Reason::KingCaptured)).into(),
            true,
        );
        assert_eq!(won, "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2 timeout,1,0,Black");
        let back = GameRecord::parse(&won).unwrap();
        assert!(
            back.timeout && back.result == Verdict::Win(Side::Attackers) && back.moves.len() == 5
        );
        assert!(GameRecord::parse("d1-d3,0,0").is_err());
        assert!(GameRecord::parse("d1-z3,0,0,Ongoing").is_err());
        assert!(matches!(
            GameRecord::parse("d1-d3,0,0,Maybe"),
            Err(RecordError::Result(_))
        ));
        for v in Verdict::ALL {
            assert_eq!(v.word().parse(), Ok(v));
        }
    }
}
