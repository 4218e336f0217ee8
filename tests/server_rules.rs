//! Hnefi's `hnefatafl-org` preset against the program behind hnefatafl.org itself.
//!
//! hnefatafl-copenhagen's `hnefatafl-text-protocol` judges moves with the same game code as its
//! server. Games are played move by move into both: every move must be legal in both with the
//! same captures, and after every move both must agree whether the game is over and how. The
//! games mix Hnefi's own short searches, which build the blockades that the site's
//! "king cannot escape" test judges, with random moves; the defenders also try moves that
//! recreate an earlier board, which both must refuse.

mod reference;

use hnefi::board::no_escape::king_cannot_escape;
use hnefi::board::{Bitboard, MoveList, Outcome, Position, Preset, Reason, Rules, Side, Square};
use hnefi::search::{Engine, Limits, Options};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// One running copy of the reference program.
struct Reference {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Reference {
    fn start(program: &std::path::Path) -> Reference {
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hnefatafl-text-protocol");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Reference {
            child,
            input,
            output,
        }
    }

    /// Sends one command and returns its reply line (`= ...` or `? ...`).
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").expect("write to the program");
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).expect("read");
            assert!(n > 0, "the program ended after '{command}'");
            let line = line.trim_end_matches(['\r', '\n']);
            if line.starts_with('=') || line.starts_with('?') {
                return line.to_string();
            }
        }
    }

    fn play(&mut self, side: Side, from: Square, to: Square) -> String {
        let role = match side {
            Side::Attackers => "attacker",
            Side::Defenders => "defender",
        };
        self.ask(&format!("play {role} {from} {to}"))
    }
}

impl Drop for Reference {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn status(outcome: Option<Outcome>) -> &'static str {
    match outcome.map(|o| o.winner) {
        None => "ongoing",
        Some(None) => "draw",
        Some(Some(Side::Attackers)) => "attacker_wins",
        Some(Some(Side::Defenders)) => "defender_wins",
    }
}

fn squares(bb: Bitboard) -> BTreeSet<String> {
    bb.into_iter().map(|s| s.to_string()).collect()
}

/// A small fixed generator, so that a failing game can be played again.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Plays game `seed` into both judges; returns how it ended, as Hnefi's label.
fn play_game(program: &std::path::Path, seed: u64, engine: &mut Engine) -> &'static str {
    let mut reference = Reference::start(program);
    let mut pos = Position::start(Rules::preset(Preset::HnefataflOrg));
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    engine.clear();
    loop {
        let what = format!("game {seed} after {:?}", pos.moves().collect::<Vec<_>>());
        let theirs = reference.ask("final_status");
        if let Some(end) = pos.outcome()
            && end.reason == Reason::MoveLimit
        {
            // The preset takes the server's count; this program draws one ply later, so at
            // this ply it still runs its king-cannot-escape test, which must agree with ours.
            assert_eq!(pos.plies(), 141, "{what}");
            let expected = if king_cannot_escape(pos.board()) {
                "= attacker_wins"
            } else {
                "= ongoing"
            };
            assert_eq!(theirs, expected, "{what}");
            if theirs != "= ongoing" {
                return end.reason.label();
            }
            let mut list = MoveList::new();
            pos.board()
                .generate_moves(&hnefi::board::Rulebook::default(), &mut list);
            if let Some(&mv) = list.iter().find(|&&m| {
                let mut after = *pos.board();
                after.play(m, pos.rulebook());
                pos.rulebook().mover_win(&after, m).is_none()
                    && !pos.recreates_board_before_captures(m)
                    && !pos.repeats_forbidden_board(m)
            }) {
                reference.play(pos.side_to_move(), mv.from(), mv.to());
                assert_eq!(reference.ask("final_status"), "= draw", "{what} {mv}");
            }
            return end.reason.label();
        }
        assert_eq!(theirs, format!("= {}", status(pos.outcome())), "{what}");
        if let Some(end) = pos.outcome() {
            return end.reason.label();
        }
        let side = pos.side_to_move();
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        if side == Side::Defenders && rng.below(4) == 0 {
            let mut all = MoveList::new();
            pos.board()
                .generate_moves(&hnefi::board::Rulebook::default(), &mut all);
            let forbidden: Vec<_> = all
                .iter()
                .filter(|&&m| pos.repeats_forbidden_board(m))
                .collect();
            if !forbidden.is_empty() {
                let mv = *forbidden[rng.below(forbidden.len())];
                let reply = reference.play(side, mv.from(), mv.to());
                assert!(reply.starts_with('?'), "{what}: {mv} repeats: {reply}");
            }
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
            let limits = Limits {
                nodes: Some(100 + rng.below(400) as u64),
                ..Limits::default()
            };
            engine.search(&pos, limits).best.expect("a legal move")
        };
        let reply = reference.play(side, mv.from(), mv.to());
        if pos.recreates_board_before_captures(mv) {
            // The one reading where the program differs from the preset (PROTOCOL.md).
            assert!(reply.starts_with('?'), "{what}: {mv}: {reply}");
            let other = legal
                .iter()
                .find(|&&m| !pos.recreates_board_before_captures(m));
            let Some(&other) = other else {
                return "stuck on the program's repetition";
            };
            let reply = reference.play(side, other.from(), other.to());
            let captured = pos.try_play(other).expect("legal");
            same_captures(&reply, &pos, captured, &what);
            continue;
        }
        let captured = pos.try_play(mv).expect("legal");
        same_captures(&reply, &pos, captured, &what);
    }
}

/// The program's reply to a move lists its captures, each followed by a space, and the king
/// among them when he is taken.
fn same_captures(reply: &str, pos: &Position, captured: Bitboard, what: &str) {
    let theirs = reply
        .strip_prefix('=')
        .unwrap_or_else(|| panic!("{what}: refused: {reply}"));
    let theirs: BTreeSet<String> = theirs.split_whitespace().map(String::from).collect();
    let mut ours = squares(captured);
    if pos
        .outcome()
        .is_some_and(|o| o.reason == Reason::KingCaptured)
    {
        ours.insert(pos.board().king().to_string());
    }
    assert_eq!(theirs, ours, "{what}: captures");
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
    let mut engine = Engine::new(Options {
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
