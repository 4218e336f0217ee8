//! The engine's view of every position of a game, and what it makes of every move: one search
//! per position through the engine API, the score turned into the attackers' chance of
//! winning, each move judged by what it cost its side, and the turning points found.

use super::classify::{Judgement, turning_points};
use super::game::{RecordedGame, ReplayError};
use super::scale::{attackers_win, for_side};
use crate::board::notation::record_move;
use crate::board::{Board, Position, RecordMove};
use crate::board::{Geometry, Outcome, Rules, Side};
use crate::search::size::Size;
use crate::search::{Go, Options, OptionsError, Score, Searcher};

/// A position of the game as the engine sees it.
#[derive(Clone, Debug)]
pub struct Point<G: Size> {
    pub board: Board<G>,
    /// From the attackers' view.
    pub score: Score,
    /// The attackers' chance of winning.
    pub chance: f64,
    /// The engine's best line from here, with the captures of each move (empty at the end).
    pub line: Vec<RecordMove<G>>,
    /// Depth the search completed (0 where the game is over).
    pub depth: u32,
}

/// A move of the game and what the engine makes of it.
#[derive(Clone, Debug)]
pub struct Step<G: Size> {
    /// 1 for the first move.
    pub ply: usize,
    pub side: Side,
    /// The move and what it really captured.
    pub played: RecordMove<G>,
    /// The mover's chance of winning lost by the move against the engine's choice, each
    /// judged by the position after it (negative: gained; 0 where the engine agrees).
    pub loss: f64,
    /// Set only for a move other than the engine's choice.
    pub judgement: Option<Judgement>,
    /// The lead changed hands with this move.
    pub turning: bool,
}

/// A whole game analysed.
#[derive(Clone, Debug)]
pub struct Analysis<G: Size> {
    /// How it was analysed.
    pub settings: AnalysisSettings<G>,
    /// One per position: the start, then after each move.
    pub points: Vec<Point<G>>,
    /// One per move.
    pub steps: Vec<Step<G>>,
    /// How the rules ended the game, if they did.
    pub outcome: Option<Outcome>,
}

impl<G: Size> Analysis<G> {
    /// The engine's better move and line for a judged step: its line from the position before.
    pub fn better(&self, step: &Step<G>) -> Option<&[RecordMove<G>]> {
        step.judgement?;
        let line = &self.points[step.ply - 1].line;
        (!line.is_empty()).then_some(line.as_slice())
    }

    /// The number of the full move `step` belongs to; a full move is an attackers' move and
    /// the defenders' answer, so a game set up with the defenders to move starts with a half.
    pub fn move_number(&self, step: &Step<G>) -> usize {
        let offset = usize::from(self.points[0].board.side_to_move() == Side::Defenders);
        (step.ply - 1 + offset) / 2 + 1
    }

    /// `12. g3-e3xe2` for an attackers' move, `12... e5-e2` for the defenders'.
    pub fn label(&self, step: &Step<G>) -> String {
        let dots = match step.side {
            Side::Attackers => ".",
            Side::Defenders => "...",
        };
        format!(
            "{}{dots} {}",
            self.move_number(step),
            record_move(step.played.mv, step.played.captures)
        )
    }
}

/// How hard to look at each position.
#[derive(Clone, Debug)]
pub struct AnalysisSettings<G: Geometry> {
    pub limits: Go<G>,
    pub threads: usize,
    pub hash_mb: usize,
    pub rules: Rules,
    /// How the rules are named, for the report.
    pub rules_name: String,
}

#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error(transparent)]
    Options(#[from] OptionsError),
}

/// Analyses `game`, calling `progress(done, total)` after each position searched.
pub fn analyse<G: Size>(
    game: &RecordedGame<G>,
    settings: &AnalysisSettings<G>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis<G>, AnalysisError> {
    let positions = game.replay(settings.rules)?;
    let mut engine = Searcher::<G>::try_new(Options {
        threads: settings.threads,
        hash_mb: settings.hash_mb,
        // Nothing stands between the search and its caller here to be allowed for.
        move_overhead: std::time::Duration::ZERO,
        ..Options::default()
    })?;
    // A search a position, and a second for each move the engine would not have played: at
    // most one a move, the total lowered as the engine agrees.
    let moves = positions.len().saturating_sub(1);
    let mut total = positions.len() + moves;
    let mut done = 0;
    let mut points = Vec::with_capacity(positions.len());
    for pos in &positions {
        points.push(assess(&mut engine, pos, &settings.limits));
        done += 1;
        progress(done, total);
    }
    let chances: Vec<f64> = points.iter().map(|p| p.chance).collect();
    let turns = turning_points(&chances);
    let mut steps = Vec::with_capacity(moves);
    for (i, pair) in positions.windows(2).enumerate() {
        let ply = i + 1;
        let side = pair[0].side_to_move();
        let mv = game.moves[i].mv;
        let captured =
            pair[0].board().pieces(side.opponent()) & !pair[1].board().pieces(side.opponent());
        let best = points[i].line.first().map(|m| m.mv);
        // Like with like (issue 90): set against the position before it, a move would lose the
        // score's swing with the side to move, on every move of a quiet stretch. So the
        // position after the played move is set against the position after the engine's move,
        // both with the opponent to move; and the mover's chance at its next turn against its
        // chance at this one, both with the mover to move, so that an opportunity that stays
        // open (the engine's better move still there a move later) is no ground lost. The move
        // lost what both say it lost.
        let loss = match best {
            Some(best) if best != mv => {
                let mut after_best = pair[0].clone();
                let chance = match after_best.try_play(best) {
                    Ok(_) => assess(&mut engine, &after_best, &settings.limits).chance,
                    Err(_) => chances[i],
                };
                done += 1;
                let against_best = for_side(chance, side) - for_side(chances[ply], side);
                match chances.get(ply + 1) {
                    Some(&next_turn) => {
                        against_best.min(for_side(chances[i], side) - for_side(next_turn, side))
                    }
                    None => against_best,
                }
            }
            _ => {
                total -= 1;
                0.0
            }
        };
        progress(done, total);
        steps.push(Step {
            ply,
            side,
            played: RecordMove {
                mv,
                captures: captured,
            },
            loss,
            // Only a move other than the engine's choice is judged.
            judgement: if best.is_some_and(|b| b != mv) {
                Judgement::of_loss(loss)
            } else {
                None
            },
            turning: turns.contains(&ply),
        });
    }
    Ok(Analysis {
        settings: settings.clone(),
        outcome: positions.last().and_then(Position::outcome),
        points,
        steps,
    })
}

/// One position: the rulebook's verdict where the game is over, else a search.
fn assess<G: Size>(engine: &mut Searcher<G>, pos: &Position<G>, limits: &Go<G>) -> Point<G> {
    let side = pos.side_to_move();
    if let Some(end) = pos.outcome() {
        let score = Score::of_outcome(end, side, 0).for_attackers(side);
        return Point {
            board: *pos.board(),
            score,
            chance: attackers_win(score),
            line: Vec::new(),
            depth: 0,
        };
    }
    let limits = Go::<G> {
        depth: limits.depth,
        movetime: limits.movetime,
        nodes: limits.nodes,
        ..Go::default()
    };
    let result = engine.search(pos, limits);
    let pv = result
        .lines
        .first()
        .map(|l| l.pv.clone())
        .unwrap_or_else(|| result.best.into_iter().collect());
    let mut after = pos.clone();
    let mut line = Vec::with_capacity(pv.len());
    for mv in pv {
        match after.try_play(mv) {
            Ok(captures) => line.push(RecordMove { mv, captures }),
            Err(_) => break,
        }
    }
    let score = result.score.for_attackers(side);
    Point {
        board: *pos.board(),
        score,
        chance: attackers_win(score),
        line,
        depth: result.depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_fen, parse_move};
    use crate::games::record::Verdict;

    #[test]
    fn a_planted_blunder_is_judged_with_the_better_move() {
        // The lone king on c11, boxed in but for b11, threatens to escape to a11; b5-b11, the
        // only move to b11, leaves the defenders without a move and wins at once. The attackers
        // play e1-e2 instead, and the king walks out: from won to lost, whatever the
        // evaluation's weights say of anything in between.
        let start =
            parse_fen("2ka7/2a8/11/11/a9a/a9a/1a9/11/11/5a5/3aaaaa3 a").expect("a valid FEN");
        let game = RecordedGame {
            start,
            moves: [("e1-e2"), ("c11-a11")]
                .iter()
                .map(|m| RecordMove {
                    mv: parse_move(m).unwrap(),
                    captures: crate::board::Bitboard::EMPTY,
                })
                .collect(),
            attackers: None,
            defenders: None,
            verdict: Verdict::Win(Side::Defenders),
            termination: None,
            details: Vec::new(),
        };
        let settings = AnalysisSettings {
            limits: Go {
                depth: Some(3),
                ..Go::default()
            },
            threads: 1,
            hash_mb: 1,
            rules: Rules::default(),
            rules_name: "copenhagen".into(),
        };
        let analysis = analyse(&game, &settings, &mut |_, _| {}).unwrap();
        let blunder = &analysis.steps[0];
        assert_eq!(blunder.judgement, Some(Judgement::Blunder), "{analysis:?}");
        assert_eq!(analysis.points[1].chance, 0.0);
        let better = analysis.better(blunder).unwrap();
        assert_eq!(better[0].mv, parse_move("b5-b11").unwrap());
        assert_eq!(analysis.label(blunder), "1. e1-e2");
        // The escape is the engine's own move: not judged, and the game is over.
        assert_eq!(analysis.steps[1].judgement, None);
        assert_eq!(
            analysis.outcome.and_then(|o| o.winner),
            Some(Side::Defenders)
        );
    }
}
