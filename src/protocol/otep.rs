//! OpenTafl's engine protocol (OTEP), as the OpenTafl host behaves (see PROTOCOL.md): `hello`
//! at once, `rules`, `position`, `side`, `clock`, `play`, `opponent-move`, `move`, `error`,
//! `analyze`, `finish`, `goodbye`. Positions are OpenTafl strings (rank 1 first, `t` `T` `K`).

use super::{Input, Output, parse_amount, parse_clock};
use crate::board::notation::{parse_opentafl, parse_record_move, to_opentafl};
use crate::board::rules::Repetition;
use crate::board::{Board, Position, Rules, Side};
use crate::search::{Engine, Limits, Options, SearchResult};
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// Reads an OpenTafl rules string into Hnefi's rules and the start board, or says why Hnefi
/// cannot play it.
pub fn parse_rules(text: &str) -> Result<(Rules, Board), String> {
    // OpenTafl's defaults for keys left out.
    let mut rules = Rules {
        shieldwall: false,
        exit_fort: false,
        repetition: Repetition::ThirdIsDraw,
        ..Rules::default()
    };
    let mut start = None;
    let mut copenhagen = false;
    for field in text.split_whitespace() {
        let Some((key, value)) = field.split_once(':') else {
            return Err(format!("'{field}' is not key:value"));
        };
        match key {
            "dim" if value != "11" => return Err(format!("board size {value} (only 11)")),
            "dim" => {}
            "name" => copenhagen = value.to_ascii_lowercase().contains("copenhagen"),
            "atkf" if value != "y" => return Err("defenders moving first".into()),
            "esc" if value != "c" => return Err("edge escape".into()),
            "sw" => rules.shieldwall = value != "n",
            "efe" => rules.exit_fort = value == "y",
            "ka" => rules.king_armed = value != "n",
            "ks" if value != "s" => return Err(format!("king strength '{value}'")),
            "tfr" => {
                rules.repetition = match value {
                    "w" => Repetition::ThirdLosesForMover,
                    "d" => Repetition::ThirdIsDraw,
                    "n" => Repetition::Off,
                    other => return Err(format!("threefold repetition rule '{other}'")),
                }
            }
            "start" => {
                start = Some(
                    parse_opentafl(value, Side::Attackers).map_err(|e| format!("start: {e}"))?,
                )
            }
            other => log::info!("rules: ignoring key '{other}'"),
        }
    }
    rules.encirclement = copenhagen;
    let board = start.ok_or("no start position")?;
    Ok((rules, board))
}

/// The OpenTafl rules string a host sends for `rules` from `start`: as close as OpenTafl's
/// keys come (it has no key for "the third repetition loses for the defenders", so
/// Copenhagen is sent as the host sends it, with `tfr:w`).
pub fn rules_string(rules: &Rules, start: &Board) -> String {
    let name = if rules.encirclement {
        "Copenhagen"
    } else {
        "Fetlar"
    };
    let tfr = match rules.repetition {
        Repetition::Off => "n",
        Repetition::ThirdIsDraw => "d",
        _ => "w",
    };
    format!(
        "dim:11 name:{name} atkf:y tfr:{tfr} sw:{} efe:{} ka:{} start:{}",
        if rules.shieldwall { "s" } else { "n" },
        if rules.exit_fort { "y" } else { "n" },
        if rules.king_armed { "a" } else { "n" },
        to_opentafl(start)
    )
}

pub struct Otep {
    out: Output,
    engine: Engine,
    position: Position,
    rules: Rules,
    /// Milliseconds left on each clock, attackers first, as the last `clock` gave them.
    clock: [Option<u64>; 2],
    /// Thinking time per move when the host sends no clock.
    untimed_move: Duration,
    /// The most nodes a search may visit (`--nodes`).
    max_nodes: Option<u64>,
}

impl Otep {
    pub fn new(out: Output) -> Otep {
        Otep {
            out,
            engine: Engine::new(Options::default()),
            position: Position::start(Rules::default()),
            rules: Rules::default(),
            clock: [None; 2],
            untimed_move: Duration::from_secs(3),
            max_nodes: None,
        }
    }

    /// Caps every search at `nodes` nodes, if given.
    pub fn with_max_nodes(mut self, nodes: Option<u64>) -> Otep {
        self.max_nodes = nodes;
        self
    }

    /// Sets the thinking time per move for games without a clock.
    pub fn with_move_time(mut self, time: Duration) -> Otep {
        self.untimed_move = time;
        self
    }

    /// Greets the host, then handles lines (starting with `first`, if given) until `goodbye`
    /// or end of input.
    pub fn run(mut self, first: Option<String>, input: Receiver<Input>) {
        self.out.line("hello");
        if let Some(line) = first
            && !self.handle(&line)
        {
            return;
        }
        while let Ok(line) = input.recv() {
            let go_on = match line {
                Input::Line(text) => self.handle(&text),
                Input::TooLong(n) => {
                    self.out
                        .line(&format!("status error: line of {n} bytes ignored"));
                    true
                }
            };
            if !go_on {
                break;
            }
        }
    }

    fn side_word(word: Option<&&str>) -> Option<Side> {
        match word.copied() {
            Some("attackers") => Some(Side::Attackers),
            Some("defenders") => Some(Side::Defenders),
            _ => None,
        }
    }

    /// Sets the game to `text` (an OpenTafl position) with `side` to move, keeping the history
    /// when it is the board we already have.
    fn resync(&mut self, text: &str, side: Side) -> Result<(), String> {
        let board = parse_opentafl(text, side).map_err(|e| e.to_string())?;
        if *self.position.board() != board {
            log::warn!("position differs from the host's; taking the host's");
            self.position = Position::new(board, self.rules);
        }
        Ok(())
    }

    fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else {
            return true;
        };
        match command {
            "hello" | "start" | "simple-moves" => {}
            "rules" => match parse_rules(&words[1..].join(" ")) {
                Ok((rules, board)) => {
                    self.rules = rules;
                    self.position = Position::new(board, rules);
                    self.engine.clear();
                }
                Err(e) => {
                    self.out.line(&format!("status unsupported rules: {e}"));
                    self.out.line("error 0");
                }
            },
            "position" => {
                let side = self.position.side_to_move();
                if let Some(text) = words.get(1)
                    && let Err(e) = self.resync(text, side)
                {
                    self.out.line(&format!("status error: position: {e}"));
                }
            }
            "side" => {}
            "clock" => match (words.get(1), words.get(2)) {
                (Some(att), Some(def)) => {
                    // Main times in ms; a trailing '*' marks main time spent (overtime running).
                    let ms = |w: &str| parse_clock(w.trim_end_matches('*'));
                    match (ms(att), ms(def)) {
                        (Ok(a), Ok(d)) => self.clock = [Some(a), Some(d)],
                        (Err(e), _) | (_, Err(e)) => {
                            self.out.line(&format!("status error: clock: {e}"))
                        }
                    }
                }
                _ => self
                    .out
                    .line("status error: clock needs the attackers' and defenders' ms"),
            },
            "play" => match Self::side_word(words.get(1)) {
                Some(side) => self.play(side),
                None => self
                    .out
                    .line("status error: play needs attackers or defenders"),
            },
            "opponent-move" => self.opponent_move(&words),
            "move" => {
                // The host's confirmation of our move, with the position after it.
                let side = self.position.side_to_move();
                if let Some(text) = words.get(1)
                    && let Err(e) = self.resync(text, side)
                {
                    self.out.line(&format!("status error: move: {e}"));
                }
            }
            "error" => {
                // Our last move was refused: take it back; the host repeats its last move.
                self.position.undo();
            }
            "analyze" => self.analyze(&words),
            "finish" => {
                self.engine.stop();
            }
            "goodbye" => return false,
            other => self
                .out
                .line(&format!("status error: unknown command '{other}'")),
        }
        true
    }

    fn opponent_move(&mut self, words: &[&str]) {
        let Some(text) = words.get(1) else {
            return self.out.line("status error: opponent-move needs a move");
        };
        let mv = parse_record_move(text.trim_start_matches(['T', 't', 'K'])).map(|r| r.mv);
        let applied = match mv {
            Ok(mv) => self.position.try_play(mv).is_ok(),
            Err(_) => false,
        };
        if let Some(pos) = words.get(2) {
            let side = self.position.side_to_move();
            let side = if applied { side } else { side.opponent() };
            if let Err(e) = self.resync(pos, side) {
                self.out.line(&format!("status error: opponent-move: {e}"));
            }
        } else if !applied {
            self.out.line(&format!("status error: cannot play {text}"));
        }
    }

    fn limits(&self, side: Side) -> Limits {
        let left = self.clock[side.index()];
        let limits = match left {
            Some(ms) => {
                let t = Some(Duration::from_millis(ms));
                Limits {
                    attackers_time: t,
                    defenders_time: t,
                    ..Limits::default()
                }
            }
            None => Limits {
                movetime: Some(self.untimed_move),
                ..Limits::default()
            },
        };
        limits.with_node_cap(self.max_nodes)
    }

    fn play(&mut self, side: Side) {
        if self.position.side_to_move() != side {
            let board = self.position.board().with_side_to_move(side);
            self.position = Position::new(board, self.rules);
        }
        let out = self.out.clone();
        let result: SearchResult = self.engine.search_with(
            &self.position,
            self.limits(side),
            Box::new(move |info| {
                out.line(&format!(
                    "status depth {} score {} nodes {}",
                    info.depth, info.score, info.nodes
                ))
            }),
        );
        match result.best {
            Some(mv) => {
                self.position.play(mv);
                self.out.line(&format!("move {}-{}", mv.from(), mv.to()));
            }
            None => self.out.line("status no legal move"),
        }
    }

    fn analyze(&mut self, words: &[&str]) {
        let number = |at: usize, default: u64, what: &str| match words.get(at) {
            None => Ok(default),
            Some(w) => parse_amount(w).map_err(|e| format!("analyze: {what}: {e}")),
        };
        let (n, secs) = match (number(1, 1, "lines"), number(2, 5, "seconds")) {
            (Ok(n), Ok(secs)) => (n.clamp(1, 32) as usize, secs.clamp(1, 3600)),
            (Err(e), _) | (_, Err(e)) => {
                return self.out.line(&format!("status error: {e}"));
            }
        };
        let options = self.engine.options().clone();
        // Only MultiPV changes, which needs no memory: this cannot fail, but say so if it did.
        if let Err(e) = self.engine.set_options(Options {
            multipv: n,
            ..options.clone()
        }) {
            return self.out.line(&format!("status error: analyze: {e}"));
        }
        let result = self.engine.search(
            &self.position,
            Limits {
                movetime: Some(Duration::from_secs(secs)),
                ..Limits::default()
            }
            .with_node_cap(self.max_nodes),
        );
        if let Err(e) = self.engine.set_options(options) {
            self.out.line(&format!("status error: analyze: {e}"));
        }
        let mut parts = vec![format!("analysis {}", result.lines.len())];
        for line in &result.lines {
            let pv: Vec<String> = line
                .pv
                .iter()
                .map(|m| format!("{}-{}", m.from(), m.to()))
                .collect();
            parts.push(format!("{} {}", pv.join("|"), line.score.0));
        }
        self.out.line(&parts.join(" "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Preset;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Sink {
        fn take(&self) -> String {
            String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).unwrap()
        }
    }

    #[test]
    fn huge_negative_and_bad_clocks() {
        let sink = Sink::default();
        let mut otep = Otep::new(Output::new(Box::new(sink.clone()))).with_max_nodes(Some(300));
        otep.handle("clock 18446744073709551615 99999999999999999999999* 0 0 0 ");
        assert_eq!(otep.clock, [Some(u64::MAX); 2]);
        otep.handle("play attackers");
        assert!(sink.take().contains("\nmove "));
        // A clock run past zero is no time left.
        otep.handle("clock -20 5000 0 0 0");
        assert_eq!(otep.clock, [Some(0), Some(5000)]);
        for bad in ["clock 1000 lots 0 0 0", "clock 5", "clock 1e3 5"] {
            otep.handle(bad);
            assert!(sink.take().starts_with("status error: clock"), "{bad}");
            assert_eq!(otep.clock, [Some(0), Some(5000)], "{bad}: unchanged");
        }
        otep.handle("play defenders");
        assert!(sink.take().contains("\nmove "));
    }

    #[test]
    fn analyze_refuses_negative_numbers_and_caps_huge_ones() {
        let sink = Sink::default();
        let mut otep = Otep::new(Output::new(Box::new(sink.clone()))).with_max_nodes(Some(300));
        for (bad, word) in [
            ("analyze -1 5", "lines: '-1' is negative"),
            ("analyze 2 -5", "seconds: '-5' is negative"),
            ("analyze two", "lines: 'two' is not a whole number"),
        ] {
            otep.handle(bad);
            let out = sink.take();
            assert!(
                out.starts_with("status error: analyze") && out.contains(word),
                "{out}"
            );
        }
        // Huge numbers are capped at 32 lines and an hour; the node cap ends it at once.
        otep.handle("analyze 18446744073709551615 18446744073709551615");
        let out = sink.take();
        assert!(out.starts_with("analysis "), "{out}");
        assert_eq!(otep.engine.options().multipv, 1, "MultiPV restored");
    }

    #[test]
    fn rules_strings_read_back() {
        for preset in Preset::ALL {
            let rules = Rules::preset(preset);
            let text = rules_string(&rules, &Board::start());
            let (back, board) = parse_rules(&text).unwrap();
            assert_eq!(board, Board::start(), "{text}");
            assert_eq!(
                (
                    back.shieldwall,
                    back.exit_fort,
                    back.king_armed,
                    back.encirclement
                ),
                (
                    rules.shieldwall,
                    rules.exit_fort,
                    rules.king_armed,
                    rules.encirclement
                ),
                "{text}"
            );
        }
    }
}
