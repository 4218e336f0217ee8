//! The hnefatafl text protocol of hnefatafl-copenhagen (GTP-like): replies `= <result>` or
//! `? <error>`, `#` starts a comment, squares are separate tokens (`play attacker d1 d3`).
//! The host cannot set a position; it replays the moves. Rules default to `hnefatafl-org`.

use super::{Input, Output, parse_amount};
use crate::board::{Move, Position, Preset, Rules, Side, Square};
use crate::search::{Engine, Limits, Options};
use std::sync::mpsc::Receiver;
use std::time::Duration;

const COMMANDS: [&str; 14] = [
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "known_command",
    "board_size",
    "first_move",
    "time_settings",
    "play",
    "generate_move",
    "play_undo",
    "final_status",
    "show_board",
    "quit",
];

pub struct Htp {
    out: Output,
    engine: Engine,
    position: Position,
    /// Fischer clock when set: each side's time left (as Hnefi measures its own thinking, since
    /// the host never says) and the increment.
    clock: Option<([Duration; 2], Duration)>,
    /// Thinking time per move when no clock is set.
    untimed_move: Duration,
    /// The most nodes a search may visit (`--nodes`).
    max_nodes: Option<u64>,
}

fn role(word: &str) -> Option<Side> {
    match word.to_ascii_lowercase().as_str() {
        "attacker" | "attackers" | "a" | "black" => Some(Side::Attackers),
        "defender" | "defenders" | "d" | "white" => Some(Side::Defenders),
        _ => None,
    }
}

fn role_name(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

impl Htp {
    pub fn new(out: Output) -> Htp {
        Htp {
            out,
            engine: Engine::new(Options::default()),
            position: Position::start(Rules::preset(Preset::HnefataflOrg)),
            clock: None,
            untimed_move: Duration::from_secs(2),
            max_nodes: None,
        }
    }

    /// Caps every search at `nodes` nodes, if given.
    pub fn with_max_nodes(mut self, nodes: Option<u64>) -> Htp {
        self.max_nodes = nodes;
        self
    }

    /// Sets the thinking time per move for games without a clock.
    pub fn with_move_time(mut self, time: Duration) -> Htp {
        self.untimed_move = time;
        self
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn run(mut self, first: Option<Input>, input: Receiver<Input>) {
        for line in first.into_iter().chain(input.iter()) {
            let reply = match line {
                Input::Line(text) => {
                    let text = text
                        .split('#')
                        .next()
                        .unwrap_or_default()
                        .trim()
                        .to_string();
                    if text.is_empty() {
                        continue;
                    }
                    if text.split_whitespace().next() == Some("quit") {
                        self.out.line("= ");
                        break;
                    }
                    self.handle(&text)
                }
                Input::TooLong(n) => Err(format!("line of {n} bytes is too long")),
            };
            match reply {
                Ok(r) => self.out.line(&format!("= {r}")),
                Err(e) => self.out.line(&format!("? {e}")),
            }
        }
    }

    /// One command (comments stripped); the reply without its `= ` or `? `.
    pub fn handle(&mut self, line: &str) -> Result<String, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        // `run` skips blank lines, but `handle` is public (`hnefi connect` calls it).
        let Some(&command) = words.first() else {
            return Err("empty command".into());
        };
        match command {
            "protocol_version" => Ok("1-beta".into()),
            "name" => Ok("hnefi".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "list_commands" => Ok(format!("\n{}", COMMANDS.join("\n"))),
            "known_command" => Ok(words
                .get(1)
                .is_some_and(|c| COMMANDS.contains(c))
                .to_string()),
            "board_size" => match words.get(1) {
                Some(&"11") => Ok(String::new()),
                Some(n) => Err(format!("board size {n} not supported (only 11)")),
                None => Err("board_size needs a size".into()),
            },
            "first_move" => Ok(role_name(Side::Attackers).into()),
            "time_settings" => self.time_settings(&words[1..]),
            "play" => self.play(&words[1..]),
            "generate_move" => self.generate_move(),
            "play_undo" => self
                .position
                .undo()
                .map(|_| String::new())
                .ok_or_else(|| "no move to undo".to_string()),
            "final_status" => Ok(match self.position.outcome() {
                None => "ongoing",
                Some(o) => match o.winner {
                    Some(Side::Attackers) => "attacker_wins",
                    Some(Side::Defenders) => "defender_wins",
                    None => "draw",
                },
            }
            .into()),
            "show_board" => Ok(format!(
                "\n{}",
                super::uci::diagram(self.position.board()).trim_end()
            )),
            other => Err(format!(
                "unknown command '{}'",
                other.chars().take(40).collect::<String>()
            )),
        }
    }

    fn time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        match args {
            ["un-timed"] => {
                self.clock = None;
                Ok(String::new())
            }
            ["fischer", main, inc] => {
                let main = parse_amount(main)
                    .map_err(|e| format!("time_settings: minutes of main time: {e}"))?;
                let inc = parse_amount(inc)
                    .map_err(|e| format!("time_settings: seconds of increment: {e}"))?;
                // Saturates: a clock of more than 584 billion years is as good as endless.
                let main = Duration::from_secs(main.saturating_mul(60));
                self.clock = Some(([main; 2], Duration::from_secs(inc)));
                Ok(String::new())
            }
            _ => Err("time_settings takes 'un-timed' or 'fischer MINUTES SECONDS'".into()),
        }
    }

    fn play(&mut self, args: &[&str]) -> Result<String, String> {
        let side = args
            .first()
            .and_then(|r| role(r))
            .ok_or("play needs a role: attacker or defender")?;
        if args.get(1) == Some(&"resigns") {
            return Ok(String::new());
        }
        if side != self.position.side_to_move() {
            return Err(format!("it is the {}' turn", self.position.side_to_move()));
        }
        let (Some(from), Some(to)) = (args.get(1), args.get(2)) else {
            return Err("play needs ROLE FROM TO".into());
        };
        let from = Square::parse(from).map_err(|e| format!("from: {e}"))?;
        let to = Square::parse(to).map_err(|e| format!("to: {e}"))?;
        if from == to {
            return Err("from and to are the same square".into());
        }
        let captured = self
            .position
            .try_play(Move::new(from, to))
            .map_err(|e| e.to_string())?;
        Ok(captured.map(|s| format!("{s} ")).collect())
    }

    fn generate_move(&mut self) -> Result<String, String> {
        let side = self.position.side_to_move();
        let limits = match self.clock {
            // The host does not report the time left: Hnefi keeps its own clock.
            Some((left, inc)) => Limits {
                attackers_time: Some(left[0]),
                defenders_time: Some(left[1]),
                attackers_inc: Some(inc),
                defenders_inc: Some(inc),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(self.untimed_move),
                ..Limits::default()
            },
        };
        // hnefatafl-copenhagen refuses some captures its repetition rule does not forbid
        // (see `recreates_board_before_captures`): leave those to the last resort.
        let mut legal = crate::board::MoveList::new();
        self.position.legal_moves(&mut legal);
        let limits = Limits {
            searchmoves: legal
                .into_iter()
                .filter(|&m| !self.position.recreates_board_before_captures(m))
                .collect(),
            ..limits
        }
        .with_node_cap(self.max_nodes);
        let started = std::time::Instant::now();
        let result = self.engine.search(&self.position, limits);
        if let Some((left, inc)) = &mut self.clock {
            let l = &mut left[side.index()];
            *l = l.saturating_sub(started.elapsed()).saturating_add(*inc);
        }
        let mv = result.best.ok_or("no legal move: the game is over")?;
        self.position.play(mv);
        Ok(format!(
            "play {} {} {}",
            role_name(side),
            mv.from(),
            mv.to()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fischer_clock_runs_down_with_hnefi_thinking() {
        let mut htp = Htp::new(Output::new(Box::new(std::io::sink())));
        htp.handle("time_settings fischer 1 2").unwrap();
        let minute = Duration::from_secs(60);
        assert_eq!(htp.clock, Some(([minute; 2], Duration::from_secs(2))));
        // No main time left: Hnefi must live on the increment.
        htp.clock = Some(([Duration::ZERO; 2], Duration::from_secs(1)));
        assert!(
            htp.handle("generate_move")
                .unwrap()
                .starts_with("play attacker ")
        );
        let (left, _) = htp.clock.unwrap();
        // The attackers' clock lost the thinking time and gained the increment.
        assert!(left[0] <= Duration::from_secs(1), "{left:?}");
        assert!(left[0] > Duration::ZERO, "{left:?}");
        assert_eq!(left[1], Duration::ZERO);
        htp.handle("time_settings un-timed").unwrap();
        assert_eq!(htp.clock, None);
    }

    #[test]
    fn huge_clocks_saturate_and_negative_ones_are_refused() {
        let mut htp = Htp::new(Output::new(Box::new(std::io::sink()))).with_max_nodes(Some(300));
        htp.handle("time_settings fischer 1 18446744073709551615")
            .unwrap();
        assert!(htp.handle("generate_move").unwrap().starts_with("play "));
        assert!(htp.handle("generate_move").unwrap().starts_with("play "));
        // The increment took the clock to its ceiling instead of overflowing.
        let (left, _) = htp.clock.unwrap();
        assert!(left[0] >= Duration::from_secs(u64::MAX), "{left:?}");
        for main in ["18446744073709551615", &"9".repeat(100)] {
            htp.handle(&format!("time_settings fischer {main} 0"))
                .unwrap();
            assert!(htp.handle("generate_move").unwrap().starts_with("play "));
        }
        let before = htp.clock;
        for (line, word) in [
            (
                "time_settings fischer -1 5",
                "minutes of main time: '-1' is negative",
            ),
            (
                "time_settings fischer 5 -3",
                "seconds of increment: '-3' is negative",
            ),
            (
                "time_settings fischer five 3",
                "'five' is not a whole number",
            ),
            ("time_settings fischer 1.5 3", "'1.5' is not a whole number"),
        ] {
            let e = htp.handle(line).unwrap_err();
            assert!(e.contains(word), "{line}: {e}");
        }
        assert_eq!(htp.clock, before, "a refused setting changes nothing");
        assert!(htp.handle("").is_err());
    }
}
