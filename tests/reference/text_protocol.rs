//! Driving hnefatafl-copenhagen's `hnefatafl-text-protocol` move by move beside a Hnefi
//! position, for the tests that compare Hnefi's rules with the program's on every board size.

use hnefi::board::bitboard::Bitboard;
use hnefi::board::geometry::Geometry;
use hnefi::board::moves::{Move, MoveList};
use hnefi::board::no_escape::king_cannot_escape;
use hnefi::board::position::Position;
use hnefi::board::square::Square;
use hnefi::board::{Outcome, Reason, Side};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// One running copy of the reference program.
pub struct TextProtocol {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl TextProtocol {
    /// Starts the program on a board of `side` (it starts on 11x11 unless told).
    pub fn start(program: &Path, side: u8) -> TextProtocol {
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hnefatafl-text-protocol");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut program = TextProtocol {
            child,
            input,
            output,
        };
        if side != 11 {
            let reply = program.ask(&format!("board_size {side}"));
            assert!(reply.starts_with('='), "board_size {side}: {reply}");
        }
        program
    }

    /// Sends one command and returns its reply line (`= ...` or `? ...`).
    pub fn ask(&mut self, command: &str) -> String {
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

    pub fn play<G: Geometry>(&mut self, side: Side, mv: Move<G>) -> String {
        let role = match side {
            Side::Attackers => "attacker",
            Side::Defenders => "defender",
        };
        self.ask(&format!("play {role} {} {}", mv.from(), mv.to()))
    }

    /// Asks the program whether the game is over after the moves both have played, checks
    /// that Hnefi's `pos` says the same, and returns how it ended, as Hnefi's label.
    pub fn same_status<G: Geometry>(
        &mut self,
        pos: &Position<G>,
        what: &str,
    ) -> Option<&'static str> {
        let theirs = self.ask("final_status");
        let end = pos.outcome();
        if let Some(end) = end
            && end.reason == Reason::MoveLimit
        {
            // Hnefi's presets take the server's count; this program draws one ply later, so
            // at this ply it still runs its king-cannot-escape test, which must agree with
            // Hnefi's, and then draws with any move that does not win.
            assert_eq!(pos.plies(), 141, "{what}");
            let expected = if king_cannot_escape(pos.board()) {
                "= attacker_wins"
            } else {
                "= ongoing"
            };
            assert_eq!(theirs, expected, "{what}");
            if theirs != "= ongoing" {
                return Some(end.reason.label());
            }
            let mut list = MoveList::new();
            pos.board().generate_moves(pos.rulebook(), &mut list);
            if let Some(&mv) = list.iter().find(|&&m| {
                let mut after = *pos.board();
                after.play(m, pos.rulebook());
                pos.rulebook().mover_win(&after, m).is_none()
                    && !pos.recreates_board_before_captures(m)
                    && !pos.repeats_forbidden_board(m)
            }) {
                self.play(pos.side_to_move(), mv);
                assert_eq!(self.ask("final_status"), "= draw", "{what} {mv}");
            }
            return Some(end.reason.label());
        }
        assert_eq!(theirs, format!("= {}", status(end)), "{what}");
        end.map(|e| e.reason.label())
    }

    /// Plays `mv`, legal for Hnefi, into both; checks that the program takes it with the
    /// same captures.
    pub fn play_both<G: Geometry>(&mut self, pos: &mut Position<G>, mv: Move<G>, what: &str) {
        let side = pos.side_to_move();
        let reply = self.play(side, mv);
        let captured = pos
            .try_play(mv)
            .unwrap_or_else(|e| panic!("{what}: {mv}: {e}"));
        same_captures(&reply, pos, captured, &format!("{what} {mv}"));
    }

    /// Plays `mv` into both, or, where it is a capture the program refuses as a repeat (the
    /// one reading where it differs from the preset, PROTOCOL.md), checks the refusal and
    /// plays another of `legal` instead. `false` when every legal move is such a capture.
    pub fn play_both_or_around_its_ban<G: Geometry>(
        &mut self,
        pos: &mut Position<G>,
        mv: Move<G>,
        legal: &MoveList<G>,
        what: &str,
    ) -> bool {
        if !pos.recreates_board_before_captures(mv) {
            self.play_both(pos, mv, what);
            return true;
        }
        let reply = self.play(pos.side_to_move(), mv);
        assert!(reply.starts_with('?'), "{what}: {mv}: {reply}");
        let Some(&other) = legal
            .iter()
            .find(|&&m| !pos.recreates_board_before_captures(m))
        else {
            return false;
        };
        self.play_both(pos, other, what);
        true
    }

    /// The defenders try a move that recreates an earlier board, if there is one: both
    /// must refuse it.
    pub fn try_forbidden_repeat<G: Geometry>(
        &mut self,
        pos: &Position<G>,
        rng: &mut Rng,
        what: &str,
    ) {
        let mut all = MoveList::new();
        pos.board().generate_moves(pos.rulebook(), &mut all);
        let forbidden: Vec<_> = all
            .iter()
            .filter(|&&m| pos.repeats_forbidden_board(m))
            .collect();
        if !forbidden.is_empty() {
            let mv = *forbidden[rng.below(forbidden.len())];
            let reply = self.play(pos.side_to_move(), mv);
            assert!(reply.starts_with('?'), "{what}: {mv} repeats: {reply}");
        }
    }
}

impl Drop for TextProtocol {
    fn drop(&mut self) {
        // At the end of its input the program waits forever; it is stopped instead.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The program's name for a game's state.
pub fn status(outcome: Option<Outcome>) -> &'static str {
    match outcome.map(|o| o.winner) {
        None => "ongoing",
        Some(None) => "draw",
        Some(Some(Side::Attackers)) => "attacker_wins",
        Some(Some(Side::Defenders)) => "defender_wins",
    }
}

/// The program's reply to a move lists its captures, each followed by a space, and the king
/// among them when he is taken; on 13x13 in upper case.
pub fn same_captures<G: Geometry>(
    reply: &str,
    pos: &Position<G>,
    captured: Bitboard<G>,
    what: &str,
) {
    let theirs = reply
        .strip_prefix('=')
        .unwrap_or_else(|| panic!("{what}: refused: {reply}"));
    let theirs: BTreeSet<String> = theirs.split_whitespace().map(str::to_lowercase).collect();
    let mut ours: BTreeSet<String> = captured
        .into_iter()
        .map(|s: Square<G>| s.to_string())
        .collect();
    if pos
        .outcome()
        .is_some_and(|o| o.reason == Reason::KingCaptured)
    {
        ours.insert(pos.board().king().to_string());
    }
    assert_eq!(theirs, ours, "{what}: captures");
}

/// A small fixed generator, so that a failing game can be played again.
pub struct Rng(pub u64);

impl Rng {
    /// The generator of game `seed`.
    pub fn for_game(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}
