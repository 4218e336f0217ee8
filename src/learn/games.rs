//! Training samples from the real games: every position of every finished game, with the
//! game's recorded result and no search score.

use crate::board::Rules;
use crate::games::record::{Verdict, read_games};
use crate::learn::sample::{GameResult, Sample};
use crate::search::size::Standard;

/// What became of the lines of a games file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamesReport {
    /// Non-empty lines of the file.
    pub lines: usize,
    /// Lines that are not a game record, an unknown result word among them (logged, skipped).
    pub unreadable: usize,
    /// Games without a result (`Ongoing`), skipped.
    pub ongoing: usize,
    /// Games whose replay stopped at a move that is not legal; their positions up to it are used.
    pub cut_short: usize,
    /// Games used, by result: attackers won, defenders won, drawn.
    pub games: [usize; 3],
    /// Samples written, by the result of their game.
    pub positions: [usize; 3],
}

fn slot(result: GameResult) -> usize {
    match result {
        GameResult::AttackersWon => 0,
        GameResult::DefendersWon => 1,
        GameResult::Draw => 2,
    }
}

/// Every position of every finished game of a `copenhagen.csv`-format file, from the start up
/// to (not including) the first position where the game is over, each with its game's result
/// and the game's line number as `GAME`.
///
/// The games are replayed with Copenhagen rules but without repetition: the site they come
/// from did not enforce the third repetition, and eleven of the games play on through one
/// (see tests/replay.rs); their later positions are real play all the same. A replay stops at
/// the first move that is not legal.
pub fn samples_from_games(games_csv: &str) -> (Vec<Sample<Standard>>, GamesReport) {
    let rules = Rules::default().without_repetition();
    let mut report = GamesReport {
        lines: games_csv.lines().filter(|l| !l.trim().is_empty()).count(),
        ..GamesReport::default()
    };
    let games = read_games(games_csv);
    report.unreadable = report.lines - games.len();
    let mut samples = Vec::new();
    for (line, game) in games {
        let result = match game.result {
            Verdict::Win(side) => GameResult::of(Some(side)),
            Verdict::Draw => GameResult::Draw,
            Verdict::Ongoing => {
                report.ongoing += 1;
                continue;
            }
        };
        let positions = game.positions(rules);
        if positions.len() < game.moves.len() + 1 {
            report.cut_short += 1;
        }
        report.games[slot(result)] += 1;
        for pos in positions.iter().take_while(|p| p.outcome().is_none()) {
            samples.push(Sample {
                board: *pos.board(),
                score: None,
                result,
                best: None,
                game: line as u64,
            });
            report.positions[slot(result)] += 1;
        }
    }
    (samples, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_games_give_their_positions() {
        // Lines 817, 818, 405 and 1 of copenhagen.csv, with a junk line and a bad result.
        let csv = "g1-g3 timeout,0,0,Black\n\
                   h1-h3 g5-i5 timeout,0,0,White\n\
                   \n\
                   d1-d3 h6-h9 a4-c4,0,0,Draw\n\
                   h1-h3 f8-i8 f10-i10 d6-d3,0,0,Ongoing\n\
                   not a game\n\
                   d1-d3,0,0,Maybe\n";
        let (samples, report) = samples_from_games(csv);
        assert_eq!(report.lines, 6);
        assert_eq!(report.unreadable, 2);
        assert_eq!(report.ongoing, 1);
        assert_eq!(report.games, [1, 1, 1]);
        assert_eq!(report.positions, [2, 3, 4]);
        assert_eq!(samples.len(), 9);
        assert!(samples.iter().all(|s| s.score.is_none()));
        let games: Vec<u64> = samples.iter().map(|s| s.game).collect();
        assert_eq!(games, [1, 1, 2, 2, 2, 4, 4, 4, 4]);
        assert_eq!(samples[0].result, GameResult::AttackersWon);
        assert_eq!(samples[2].result, GameResult::DefendersWon);
        assert_eq!(samples[8].result, GameResult::Draw);
    }

    #[test]
    fn no_position_after_the_end_or_an_illegal_move() {
        // Line 1694: the king reaches a11 on the 12th move; then a game whose second move
        // starts from an empty square.
        let csv = "e1-e3 g7-g10 h11-h10xg10 f7-g7 f10-g10 f8-f10 h10-h9 f6-f9 b6-b1 f9-a9 \
                   e11-e10xf10 a9-a11,2,0,White\n\
                   d1-d3 d1-d4 e5-e2,0,0,Black\n";
        let (samples, report) = samples_from_games(csv);
        assert_eq!(report.positions, [2, 12, 0]);
        assert_eq!(report.cut_short, 1);
        assert!(samples[..12].iter().all(|s| s.game == 1));
        let rules = Rules::default();
        for s in &samples {
            assert!(
                crate::board::Position::new(s.board, rules)
                    .outcome()
                    .is_none()
            );
        }
    }
}
