//! Hnefi's `hnefatafl-org` preset against the program behind hnefatafl.org itself.
//!
//! hnefatafl-copenhagen's `hnefatafl-text-protocol` judges moves with the same game code as its
//! server. Games are played move by move into both: every move must be legal in both with the
//! same captures, and after every move both must agree whether the game is over and how. The
//! games mix Hnefi's own short searches, which build the blockades that the site's
//! "king cannot escape" test judges, with random moves; the defenders also try moves that
//! recreate an earlier board, which both must refuse.

use crate::reference;

use hnefi::board::{MoveList, Position, Preset, Reason, Rules, Side};
use hnefi::search::size::Standard;
use hnefi::search::{Go, Options, Searcher};
use reference::text_protocol::{Rng, TextProtocol};

/// Plays game `seed` into both judges; returns how it ended, as Hnefi's label.
fn play_game(
    program: &std::path::Path,
    seed: u64,
    engine: &mut Searcher<Standard>,
) -> &'static str {
    let mut reference = TextProtocol::start(program, 11);
    let mut pos = Position::start(Rules::preset(Preset::HnefataflOrg)).unwrap();
    let mut rng = Rng::for_game(seed);
    engine.clear();
    loop {
        let what = format!("game {seed} after {:?}", pos.moves().collect::<Vec<_>>());
        if let Some(end) = reference.same_status(&pos, &what) {
            return end;
        }
        let side = pos.side_to_move();
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        if side == Side::Defenders && rng.below(4) == 0 {
            reference.try_forbidden_repeat(&pos, &mut rng, &what);
        }
        // In odd games the defenders wander and never take a win, which leaves the attackers
        // time to build the blockades that the no-escape test judges.
        let wander = seed % 2 == 1 && side == Side::Defenders;
        let mv = if wander {
            let quiet: Vec<_> = legal
                .iter()
                .filter(|&&m| {
                    let mut after = *pos.board();
                    after.play(m, pos.rulebook());
                    pos.rulebook().mover_win(&after, m).is_none()
                })
                .collect();
            match quiet.len() {
                0 => legal[0],
                n => *quiet[rng.below(n)],
            }
        } else if rng.below(3) == 0 {
            legal[rng.below(legal.len())]
        } else {
            let limits = Go {
                nodes: Some(100 + rng.below(400) as u64),
                ..Go::default()
            };
            engine.search(&pos, limits).best.expect("a legal move")
        };
        if !reference.play_both_or_around_its_ban(&mut pos, mv, &legal, &what) {
            return "stuck on the program's repetition";
        }
    }
}

#[test]
fn the_preset_judges_games_as_the_sites_program_does() {
    let Some(program) = reference::require("hnefatafl-text-protocol", "HNEFATAFL_TEXT_PROTOCOL")
    else {
        return;
    };
    // HNEFI_RULES_GAMES plays more games; HNEFI_RULES_SEED starts at a failing game.
    let number = |name: &str| std::env::var(name).ok().and_then(|n| n.parse::<u64>().ok());
    let games = number("HNEFI_RULES_GAMES").unwrap_or(if cfg!(debug_assertions) { 8 } else { 300 });
    let first = number("HNEFI_RULES_SEED").unwrap_or(0);
    let mut engine = Searcher::new(Options {
        hash_mb: 4,
        ..Options::default()
    });
    let mut ends = std::collections::BTreeMap::new();
    for seed in first..first + games {
        *ends
            .entry(play_game(&program, seed, &mut engine))
            .or_insert(0) += 1;
    }
    eprintln!("{games} games: {ends:?}");
    if games >= 300 {
        // The rules that only the site's program has must have been put to the test.
        for reason in [Reason::NoEscape, Reason::MoveLimit] {
            assert!(ends.contains_key(reason.label()), "{ends:?}");
        }
    }
}
