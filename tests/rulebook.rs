//! The search and the referee read one rulebook: at the end of every real game, replayed
//! under each preset, they agree on whether the game is over and how.

use crate::common;

use hnefi::board::notation::parse_record_move;
use hnefi::board::{Outcome, Position, Preset, Reason, Rules, START_FEN, Side};
use hnefi::search::size::Standard;
use hnefi::search::{Go, Options, Score, Searcher};
use std::collections::BTreeMap;

/// The game of `rec` replayed under `rules` as far as its moves stay legal there (a move after
/// the end of the game is not).
fn replay(rec: &common::Record, rules: Rules) -> Position<Standard> {
    let mut pos = Position::start(rules).unwrap();
    for text in &rec.moves {
        let claimed =
            parse_record_move(text).unwrap_or_else(|e| panic!("line {}: {text}: {e}", rec.line));
        if pos.try_play(claimed.mv).is_err() {
            break;
        }
    }
    pos
}

/// What a search should score for `side` when the game ended `plies` plies from its root.
fn score_of(end: Outcome, side: Side, plies: u32) -> Score {
    match end.winner {
        None => Score::DRAW,
        Some(winner) if winner == side => Score::win_in(plies),
        Some(_) => Score::loss_in(plies),
    }
}

fn depth_1(searchmoves: Vec<hnefi::board::Move<Standard>>) -> Go<hnefi::search::size::Standard> {
    Go {
        depth: Some(1),
        searchmoves,
        ..Go::default()
    }
}

#[test]
fn search_and_referee_agree_at_the_end_of_every_real_game() {
    let games = common::games();
    // At depth 1 the table is never probed below the root, so it need not be cleared.
    let mut engine = Searcher::new(Options {
        hash_mb: 1,
        ..Options::default()
    });
    // The real games are Copenhagen games: replayed under each reading from their start.
    for preset in Preset::ALL
        .into_iter()
        .filter(|p| p.start_fen() == START_FEN)
    {
        let rules = Rules::preset(preset);
        let mut ends: BTreeMap<&str, usize> = BTreeMap::new();
        for rec in &games {
            let pos = replay(rec, rules);
            let end = pos.outcome();
            let what = format!(
                "{preset}, line {}, {} plies, {end:?}",
                rec.line,
                pos.plies()
            );
            *ends
                .entry(end.map_or("ongoing", |o| o.reason.label()))
                .or_default() += 1;

            // At the final position: no move and the result when over, a move when not.
            let side = pos.side_to_move();
            let found = engine.search(&pos, depth_1(Vec::new()));
            match end {
                Some(end) => {
                    assert_eq!(found.best, None, "{what}");
                    assert_eq!(found.score, score_of(end, side, 0), "{what}");
                }
                None => {
                    assert!(found.best.is_some(), "{what}: the search sees no move");
                    assert!(found.score.plies_to_end() != Some(0), "{what}");
                }
            }

            // The last move, searched from the position before it: the search's own judgement
            // of the move's end, one ply into its tree.
            let Some(last) = pos.last_move() else {
                continue;
            };
            let mut before = pos.clone();
            before.undo();
            let found = engine.search(&before, depth_1(vec![last]));
            assert_eq!(found.best, Some(last), "{what}");
            match end {
                Some(end) => assert_eq!(
                    found.score,
                    score_of(end, side.opponent(), 1),
                    "{what}: the search scores the last move {}",
                    found.score
                ),
                None => assert!(
                    found.score.plies_to_end() != Some(1),
                    "{what}: the search ends the game with the last move: {}",
                    found.score
                ),
            }
        }
        eprintln!("{preset}: {ends:?}");
        // The rules the search once judged its own way all end some real game.
        let expected: &[Reason] = match preset {
            Preset::Copenhagen => &[Reason::Repetition],
            Preset::Copenhagen2017 => &[Reason::Repetition, Reason::DrawFort],
            Preset::HnefataflOrg => &[Reason::MoveLimit],
            Preset::Fetlar => &[Reason::Repetition],
            _ => &[],
        };
        for reason in expected {
            assert!(
                ends.contains_key(reason.label()),
                "{preset}: no game ends by {}: {ends:?}",
                reason.label()
            );
        }
    }
}
