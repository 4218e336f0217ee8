//! Game records in the community format of `copenhagen.csv`:
//! `moves,attacker_captures,defender_captures,result`, moves like `g3-e3xe2`, attackers first.
//! A game by other rules than Copenhagen's adds a fifth field, the rules as `--rules` takes
//! them (a preset's name or an OpenTafl rules string, which give the board size), and a game
//! from another start than the rules' a sixth, its FEN. Copenhagen games stay in the
//! community's four fields.

use crate::board::notation::{record_move, to_fen};
use crate::board::variant::NamedRules;
use crate::board::{Board, Move, Position, RecordMove};
use crate::board::{Eleven, Geometry, Rules, Side};
use std::fmt;
use std::str::FromStr;

/// One game of a record file.
#[derive(Clone, Debug)]
pub struct GameRecord<G: Geometry> {
    /// The moves, with the captures the record claims for them.
    pub moves: Vec<RecordMove<G>>,
    /// The game ended on time (a trailing `timeout` token).
    pub timeout: bool,
    /// The result the record gives.
    pub result: Verdict,
    /// The rules of the fifth field, as written (none: Copenhagen).
    pub rules: Option<String>,
    /// The start of the sixth field (none: the rules' start).
    pub start: Option<Board<G>>,
}

/// Why a record line cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Not 4 to 6 comma-separated fields.
    #[error(
        "expected 4 comma-separated fields (moves, captures, captures, result), or 5 with the \
         rules, or 6 with the start; found {0}"
    )]
    Fields(usize),
    /// A move that cannot be read on the board.
    #[error("move {index}: {error}")]
    Move {
        /// The move's number in the record, from 1.
        index: usize,
        /// What is wrong with it.
        error: String,
    },
    /// The sixth field is not a position of the board.
    #[error("start position: {0}")]
    Start(String),
    /// The fourth field is not a result.
    #[error(transparent)]
    Result(#[from] UnknownVerdict),
}

/// The text of a record line's fields, checked for their number.
fn fields(line: &str) -> Result<Vec<&str>, RecordError> {
    let fields: Vec<&str> = line.trim().split(',').collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(RecordError::Fields(fields.len()));
    }
    Ok(fields)
}

/// The rules a record line names in its fifth field, if it has one.
pub fn rules_field(line: &str) -> Option<&str> {
    fields(line)
        .ok()?
        .get(4)
        .map(|r| r.trim())
        .filter(|r| !r.is_empty())
}

impl<G: Geometry> GameRecord<G> {
    /// Reads a record line whose moves are on the board of `G`.
    pub fn parse(line: &str) -> Result<GameRecord<G>, RecordError> {
        let fields = fields(line)?;
        let mut tokens: Vec<&str> = fields[0].split_whitespace().collect();
        let timeout = tokens.last() == Some(&"timeout");
        if timeout {
            tokens.pop();
        }
        let moves = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| {
                RecordMove::parse(t).map_err(|e| RecordError::Move {
                    index: i + 1,
                    error: e.to_string(),
                })
            })
            .collect::<Result<_, _>>()?;
        let start = match fields.get(5).map(|s| s.trim()).filter(|s| !s.is_empty()) {
            Some(fen) => {
                Some(Board::from_position(fen).map_err(|e| RecordError::Start(e.to_string()))?)
            }
            None => None,
        };
        Ok(GameRecord {
            moves,
            timeout,
            result: fields[3].parse()?,
            rules: rules_field(line).map(str::to_string),
            start,
        })
    }

    /// The positions of the game, replayed from `start` with `rules`: the start, then one
    /// after each move. Stops at the first move that is not legal.
    pub fn positions_from(&self, start: Board<G>, rules: Rules) -> Vec<Position<G>> {
        let mut pos = Position::new(start, rules);
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

impl GameRecord<Eleven> {
    /// The positions of an 11x11 game replayed with `rules` from its start (the record's, or
    /// the Copenhagen start): see [`GameRecord::positions_from`].
    pub fn positions(&self, rules: Rules) -> Vec<Position<Eleven>> {
        self.positions_from(self.start.unwrap_or_else(Board::start), rules)
    }
}

/// Every game of a record file on the board of `G`, or why its line is none, with its line
/// number; blank lines are passed over.
pub fn records<G: Geometry>(
    text: &str,
) -> impl Iterator<Item = (usize, Result<GameRecord<G>, RecordError>)> + '_ {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, GameRecord::parse(l)))
}

/// A game's result as a record gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not over (`Ongoing`).
    Ongoing,
    /// Won by this side (`Black` for the attackers, `White` for the defenders).
    Win(Side),
    /// Drawn (`Draw`).
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

    /// The verdict of a finished game: a win for `winner`, or a draw.
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
pub struct UnknownVerdict(
    /// The result as written.
    pub String,
);

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
/// `start` under `rules`; the rules and the start follow as fifth and sixth fields where they
/// are not Copenhagen's and the rules' own. Stops at the first move that is not legal.
pub fn write_game<G: Geometry>(
    start: &Board<G>,
    moves: &[Move<G>],
    rules: &NamedRules,
    verdict: Verdict,
    timeout: bool,
) -> String {
    let mut pos = Position::new(*start, rules.rules);
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
    let mut line = format!(
        "{},{},{},{}",
        words.join(" "),
        marks[0],
        marks[1],
        verdict.word()
    );
    let own_start = rules.start_board::<G>().ok() == Some(*start);
    if !rules.is_default() || !own_start {
        line = format!("{line},{}", rules.name);
    }
    if !own_start {
        line = format!("{line},{}", to_fen(start));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Outcome, Reason, Seven};

    #[test]
    fn written_games_read_back() {
        let line = "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Ongoing";
        let game: GameRecord<Eleven> = GameRecord::parse(line).unwrap();
        assert!(game.rules.is_none() && game.start.is_none());
        let moves: Vec<_> = game.moves.iter().map(|m| m.mv).collect();
        let written = write_game(
            &Board::start(),
            &moves,
            &NamedRules::default(),
            Verdict::Ongoing,
            false,
        );
        assert_eq!(written, line);
        let won = write_game(
            &Board::start(),
            &moves,
            &NamedRules::default(),
            Some(Outcome::win(Side::Attackers, Reason::KingCaptured)).into(),
            true,
        );
        assert_eq!(won, "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2 timeout,1,0,Black");
        let back: GameRecord<Eleven> = GameRecord::parse(&won).unwrap();
        assert!(
            back.timeout && back.result == Verdict::Win(Side::Attackers) && back.moves.len() == 5
        );
        assert!(GameRecord::<Eleven>::parse("d1-d3,0,0").is_err());
        assert!(GameRecord::<Eleven>::parse("d1-z3,0,0,Ongoing").is_err());
        assert!(matches!(
            GameRecord::<Eleven>::parse("d1-d3,0,0,Maybe"),
            Err(RecordError::Result(_))
        ));
        for v in Verdict::ALL {
            assert_eq!(v.word().parse(), Ok(v));
        }
    }

    #[test]
    fn other_rules_and_starts_are_named_in_the_record() {
        let brandubh: NamedRules = "brandubh".parse().unwrap();
        let start = brandubh.start_board::<Seven>().unwrap();
        // The defenders move first in brandubh.
        let moves = [Move::parse("c4c6").unwrap(), Move::parse("d6f6").unwrap()];
        let line = write_game(&start, &moves, &brandubh, Verdict::Draw, false);
        assert_eq!(line, "c4-c6 d6-f6,0,0,Draw,brandubh");
        assert_eq!(rules_field(&line), Some("brandubh"));
        let back = GameRecord::<Seven>::parse(&line).unwrap();
        assert_eq!(back.rules.as_deref(), Some("brandubh"));
        assert_eq!(back.positions_from(start, brandubh.rules).len(), 3);
        // From another start: the start's FEN follows.
        let mut after = Position::new(start, brandubh.rules);
        after.play(moves[0]);
        let line = write_game(
            after.board(),
            &moves[1..],
            &brandubh,
            Verdict::Ongoing,
            false,
        );
        assert_eq!(
            line,
            format!("d6-f6,0,0,Ongoing,brandubh,{}", to_fen(after.board()))
        );
        let back = GameRecord::<Seven>::parse(&line).unwrap();
        assert_eq!(back.start, Some(*after.board()));
        // Eleven by eleven, another start under Copenhagen also names the rules.
        let copenhagen = NamedRules::default();
        let mut pos = Position::new(Board::start(), copenhagen.rules);
        pos.play(Move::parse("d1d3").unwrap());
        let line = write_game(pos.board(), &[], &copenhagen, Verdict::Ongoing, false);
        assert!(line.starts_with(",0,0,Ongoing,copenhagen,"), "{line}");
        assert!(GameRecord::<Eleven>::parse("a,0,0,Draw,x,y,z").is_err());
    }
}
