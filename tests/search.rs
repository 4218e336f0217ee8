//! The search with the tools' parts: the tactics suite (`hnefi tactics`'s EPD reader) and
//! networks made by the trainer. (The search's own tests are hnefi-core/src/search/suite.rs.)

use hnefi::board::Position;
use hnefi::board::Rules;
use hnefi::board::notation::parse_fen;
use hnefi::measure::tactics::{Tactic, parse_epd};
use hnefi::search::{Go, Options, Searcher};

fn tactics() -> Vec<Tactic> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/tactics.epd");
    let text = std::fs::read_to_string(path).expect("positions/tactics.epd");
    parse_epd(&text).expect("valid EPD lines")
}

#[test]
fn finds_the_forced_wins_in_one_and_two() {
    // Every win in one; of the wins in two, all but a few. Behind the fitted evaluation's
    // larger scores, reverse futility pruning and the quiescence stand-pat hide some
    // three-ply wins at a shallow depth, and late move and futility pruning cost about a ply
    // of the search's reach: `hnefi tactics` finds 367 of 377 at depth 5 without them, 362
    // with them, and 368 at depth 6 either way.
    let all = tactics();
    let mut engine = Searcher::new(Options::default());
    let mut checked = [0; 3];
    let mut missed = Vec::new();
    for t in all.iter().filter(|t| t.moves_to_win <= 2) {
        let pos = Position::new(parse_fen(&t.fen).unwrap(), Rules::default());
        engine.clear();
        let r = engine.search(
            &pos,
            Go {
                depth: Some(6),
                ..Go::default()
            },
        );
        let best = r.best.expect("a move");
        checked[t.moves_to_win as usize] += 1;
        if !t.winning.contains(&best) && t.moves_to_win == 2 {
            missed.push(t.id.clone());
            continue;
        }
        assert!(
            t.winning.contains(&best),
            "{}: played {best}, winning {:?}",
            t.id,
            t.winning
        );
        let plies = r.score.plies_to_end().expect("a decisive score");
        assert!(
            r.score.0 > 0 && plies < 2 * t.moves_to_win,
            "{}: {}",
            t.id,
            r.score
        );
    }
    assert!(checked[1] >= 10 && checked[2] >= 10, "{checked:?}");
    assert!(
        missed.len() * 100 <= checked[2] * 3,
        "missed {missed:?} of {checked:?}"
    );
}

#[test]
fn the_nnue_evaluation_searches_with_the_embedded_or_a_given_network() {
    use hnefi::learn::network::FloatNetwork;
    use hnefi::search::EvalKind;
    let embedded = Options {
        eval: EvalKind::Nnue,
        threads: 2,
        ..Options::default()
    };
    // A random network: what matters here is that the search keeps its accumulators right
    // (debug builds check each one against a refresh) on two threads, captures included.
    let net = FloatNetwork::random(1, hnefi::search::eval::weights::SCALE as f32, 363).quantise();
    let given = Options {
        net: Some(std::sync::Arc::new(net)),
        ..embedded.clone()
    };
    for options in [embedded, given] {
        let mut engine = Searcher::try_new(options).expect("valid options");
        for fen in [
            hnefi::board::START_FEN,
            "3a3a3/2aa4a2/1a5d1a1/a2d1ad1da1/2d1d4da/8da1/5k2a2/aa1d4aa1/1a2d2d1a1/2a3d1a2/3a3a3 a",
        ] {
            let pos = Position::new(parse_fen(fen).unwrap(), Rules::default());
            let r = engine.search(
                &pos,
                Go {
                    depth: Some(3),
                    ..Go::default()
                },
            );
            let mv = r.best.expect("a move");
            assert!(pos.board().check_move(mv).is_ok(), "{fen}: {mv}");
        }
    }
}

#[test]
fn refreshed_accumulators_search_as_the_updated_ones() {
    use hnefi::learn::network::FloatNetwork;
    use hnefi::search::EvalKind;
    let net = FloatNetwork::random(3, hnefi::search::eval::weights::SCALE as f32, 363).quantise();
    let search = |eval: EvalKind| {
        let mut engine = Searcher::try_new(Options {
            eval,
            net: Some(std::sync::Arc::new(net.clone())),
            ..Options::default()
        })
        .expect("a network given");
        let pos = Position::new(
            parse_fen(
                "3a3a3/2aa4a2/1a5d1a1/a2d1ad1da1/2d1d4da/8da1/5k2a2/aa1d4aa1/1a2d2d1a1/2a3d1a2/3a3a3 a",
            )
            .unwrap(),
            Rules::default(),
        );
        let r = engine.search(
            &pos,
            Go {
                depth: Some(4),
                ..Go::default()
            },
        );
        (r.nodes, r.score, r.best)
    };
    assert_eq!(search(EvalKind::Nnue), search(EvalKind::NnueRefresh));
}
