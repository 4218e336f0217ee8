//! A session's game written out: as an OpenTafl `.otg` file, and as the annotated report of
//! `hnefi annotate` (the record line is the library's own, `record::write_game`).

use super::error::ApiError;
use crate::board::variant::NamedRules;
use crate::board::{Board, Position, RecordMove};
use crate::games::record::Verdict;
use crate::report::analysis::{AnalysisSettings, analyse};
use crate::report::game::RecordedGame;
use crate::report::page;
use crate::search::Go;
use crate::search::size::Size;
use std::time::Duration;

/// The report's search a position: short, as the page waits for it.
const REPORT_MOVETIME: Duration = Duration::from_millis(40);
/// The report's table, MB.
const REPORT_HASH_MB: usize = 16;

/// The game as OpenTafl saves it, with the players' names and the result of its last
/// position: [`crate::report::otg::write`].
pub fn otg<G: Size>(
    rules: &NamedRules,
    positions: &[Position<G>],
    moves: &[RecordMove<G>],
    (attackers, defenders): (String, String),
) -> String {
    let result = Verdict::from(positions.last().and_then(Position::outcome));
    crate::report::otg::write(
        &rules.rules,
        positions[0].board(),
        moves,
        result,
        Some((&attackers, &defenders)),
    )
}

/// The annotated report of the game, to run on a thread of its own: a search a position.
pub fn report_job<G: Size>(
    rules: NamedRules,
    start: Board<G>,
    moves: Vec<RecordMove<G>>,
    (attackers, defenders): (String, String),
    verdict: Verdict,
) -> Box<dyn FnOnce() -> Result<String, ApiError> + Send> {
    Box::new(move || {
        if moves.is_empty() {
            return Err(ApiError::Report("the game has no moves yet".into()));
        }
        let game = RecordedGame {
            start,
            moves,
            attackers: Some(attackers),
            defenders: Some(defenders),
            verdict,
            termination: None,
            details: vec![("site".into(), "hnefi serve".into())],
        };
        let settings = AnalysisSettings {
            limits: Go {
                movetime: Some(REPORT_MOVETIME),
                ..Go::default()
            },
            threads: 1,
            hash_mb: REPORT_HASH_MB,
            rules: rules.rules,
            rules_name: rules.name.clone(),
        };
        let analysis = analyse(&game, &settings, &mut |_, _| {})
            .map_err(|e| ApiError::Report(e.to_string()))?;
        Ok(page::render(&game, &analysis))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::board::Seven;
    use crate::report::otg;

    #[test]
    fn an_otg_reads_back_as_the_same_game() {
        let rules: NamedRules = "brandubh".parse().unwrap();
        let mut pos = Position::new(rules.start_board::<Seven>().unwrap(), rules.rules);
        let mut positions = vec![pos.clone()];
        let mut moves = Vec::new();
        for text in ["d5-f5", "d7-e7", "f5-f6", "e7-e6"] {
            let mv = Move::<Seven>::parse(text).unwrap();
            let captures = pos.try_play(mv).unwrap();
            moves.push(RecordMove { mv, captures });
            positions.push(pos.clone());
        }
        let text = otg(&rules, &positions, &moves, ("A".into(), "B".into()));
        let read = otg::parse::<Seven>(&text).unwrap();
        assert_eq!(read.start.as_ref(), Some(positions[0].board()), "{text}");
        let read: Vec<_> = read.moves.iter().map(|m| m.mv).collect();
        let played: Vec<_> = moves.iter().map(|m| m.mv).collect();
        assert_eq!(read, played, "{text}");
        assert!(text.contains("[attackers:A]"));
    }
}
