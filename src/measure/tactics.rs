//! `positions/tactics.epd`: short forced wins from the real games, found by the exhaustive
//! solver, and the engine's solve rate on them.

use crate::board::notation::{parse_fen, parse_move, to_fen};
use crate::board::{Move, NotationError, Position, Rules};
use crate::games::record::read_games;
use crate::search::size::Standard;
use crate::search::solve::Solver;
use crate::search::{Go, Options, Searcher};
use rayon::prelude::*;

/// `positions/tactics.epd`, built in so that `hnefi tactics` works from any folder.
pub const BUILT_IN: &str = include_str!("../../positions/tactics.epd");

/// One line of the EPD: a position, the fewest moves to a forced win, every winning move.
#[derive(Clone, Debug)]
pub struct Tactic {
    pub fen: String,
    pub moves_to_win: u32,
    pub winning: Vec<Move<Standard>>,
    pub id: String,
}

impl Tactic {
    pub fn to_epd(&self) -> String {
        let bm: Vec<String> = self.winning.iter().map(Move::to_string).collect();
        format!(
            "{} bm {}; dm {}; id \"{}\";",
            self.fen,
            bm.join(" "),
            self.moves_to_win,
            self.id
        )
    }

    /// One EPD line: `FEN bm MOVE...; dm N; id "..."`.
    pub fn parse(line: &str) -> Result<Tactic, EpdError> {
        let (fen, rest) = line.split_once(" bm ").ok_or(EpdError::NoBestMove)?;
        let fen = fen.trim();
        parse_fen(fen).map_err(EpdError::Fen)?;
        let mut winning = Vec::new();
        let mut moves_to_win = None;
        let mut id = String::new();
        for (i, field) in rest.split(';').map(str::trim).enumerate() {
            if i == 0 {
                winning = field
                    .split_whitespace()
                    .map(parse_move)
                    .collect::<Result<_, _>>()
                    .map_err(EpdError::Move)?;
            } else if let Some(n) = field.strip_prefix("dm ") {
                let n = n.trim();
                moves_to_win = Some(
                    n.parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| EpdError::MovesToWin(n.to_string()))?,
                );
            } else if let Some(s) = field.strip_prefix("id ") {
                id = s.trim_matches('"').to_string();
            }
        }
        if winning.is_empty() {
            return Err(EpdError::NoBestMove);
        }
        Ok(Tactic {
            fen: fen.to_string(),
            moves_to_win: moves_to_win.ok_or(EpdError::NoMovesToWin)?,
            winning,
            id,
        })
    }
}

/// Why a line is not a tactic.
#[derive(Debug, thiserror::Error)]
pub enum EpdError {
    #[error("no ' bm MOVE...;' after the FEN")]
    NoBestMove,
    #[error("bad FEN: {0}")]
    Fen(NotationError<Standard>),
    #[error("bm: {0}")]
    Move(NotationError<Standard>),
    #[error("no 'dm N;' (the moves to the win)")]
    NoMovesToWin,
    #[error("dm: '{0}' is not a number of moves from 1")]
    MovesToWin(String),
}

/// A line of an EPD file that is not a tactic.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {source} (a tactic is `FEN bm MOVE...; dm N; id \"NAME\";`)")]
pub struct EpdLineError {
    pub line: usize,
    pub source: EpdError,
}

/// The tactics of an EPD file; comments (`#`) and blank lines are skipped, any other line
/// must be a tactic.
pub fn parse_epd(text: &str) -> Result<Vec<Tactic>, EpdLineError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            Tactic::parse(l).map_err(|source| EpdLineError {
                line: i + 1,
                source,
            })
        })
        .collect()
}

/// Moves the solver may play per position before it gives the position up.
pub const SOLVER_BUDGET: u64 = 2_000_000;

/// Scans the last `tail` positions of every game for forced wins in at most `max` moves:
/// the engine proposes the positions where its search sees a win, the solver proves each one
/// exhaustively (and finds every winning move); positions it cannot settle within
/// [`SOLVER_BUDGET`] are left out.
pub fn generate(games_csv: &str, tail: usize, max: u32) -> Vec<Tactic> {
    let rules = Rules::default();
    let games = read_games(games_csv);
    let candidates: Vec<(String, Position<Standard>)> = games
        .iter()
        .flat_map(|(line, game)| {
            let positions = game.positions(rules.without_repetition());
            let n = positions.len();
            positions
                .into_iter()
                .enumerate()
                .skip(n.saturating_sub(tail))
                .filter(|(_, p)| p.outcome().is_none())
                .map(move |(ply, p)| (format!("game {line} ply {ply}"), p))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut found: Vec<Tactic> = candidates
        .par_iter()
        .map_init(
            || {
                Searcher::new(Options {
                    hash_mb: 4,
                    ..Options::default()
                })
            },
            |engine, (id, pos)| {
                // The engine picks the candidates; the solver proves or drops each one.
                engine.clear();
                let guess = engine.search(
                    &Position::new(*pos.board(), rules),
                    Go {
                        depth: Some(2 * max),
                        ..Go::default()
                    },
                );
                if !(guess.score.0 > 0 && guess.score.plies_to_end().is_some_and(|p| p < 2 * max)) {
                    return None;
                }
                let board = pos.board();
                let mut solver = Solver::new(rules, SOLVER_BUDGET);
                let n = solver.shortest_win(board, max).ok()??;
                let winning = solver.winning_moves(board, n).ok()?;
                Some(Tactic {
                    fen: to_fen(board),
                    moves_to_win: n,
                    winning,
                    id: id.clone(),
                })
            },
        )
        .flatten()
        .collect();
    // One line per position, in game order.
    let mut seen = std::collections::HashSet::new();
    found.retain(|t| seen.insert(t.fen.clone()));
    found
}

/// How many tactics of each length the engine solves at `depth`: (moves to win, solved, total).
/// `each` is called after every tactic, for a progress display.
pub fn solve_rate(
    tactics: &[Tactic],
    depth: u32,
    mut each: impl FnMut(),
) -> Vec<(u32, usize, usize)> {
    let mut engine = Searcher::new(Options::default());
    let mut rows: Vec<(u32, usize, usize)> = Vec::new();
    for t in tactics {
        if let Ok(board) = parse_fen(&t.fen) {
            engine.clear();
            let result = engine.search(
                &Position::new(board, Rules::default()),
                Go {
                    depth: Some(depth),
                    ..Go::default()
                },
            );
            let solved = result.best.is_some_and(|m| t.winning.contains(&m))
                && result.score.plies_to_end().is_some()
                && result.score.0 > 0;
            match rows.iter_mut().find(|r| r.0 == t.moves_to_win) {
                Some(r) => {
                    r.1 += solved as usize;
                    r.2 += 1;
                }
                None => rows.push((t.moves_to_win, solved as usize, 1)),
            }
        }
        each();
    }
    rows.sort();
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_read_back_and_bad_ones_say_why() {
        let line = "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a \
                    bm d1d3 h1h3; dm 2; id \"game 7 ply 40\";";
        let t = Tactic::parse(line).unwrap();
        assert_eq!(Tactic::parse(&t.to_epd()).unwrap().to_epd(), t.to_epd());
        assert_eq!((t.moves_to_win, t.winning.len()), (2, 2));
        let text = format!("# comment\n\n{line}\ngarbage\n");
        let e = parse_epd(&text).unwrap_err().to_string();
        assert!(
            e.starts_with("line 4: no ' bm MOVE...;'") && e.contains("dm N"),
            "{e}"
        );
        for (bad, why) in [
            (line.replace("dm 2", "dm 0"), "dm: '0'"),
            (line.replace("; dm 2", ""), "no 'dm N;'"),
            (line.replace("d1d3", "d1z3"), "bm: "),
            (line.replace("3aaaaa3 a", "3aaaaa3 x"), "bad FEN"),
        ] {
            let e = Tactic::parse(&bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
