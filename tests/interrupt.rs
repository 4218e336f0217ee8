//! Words that end a game or the engine stop a long search at once, through the real binary:
//! OpenTafl's `finish` and `goodbye`, the text protocol's `quit`, and the end of input.
//! Every search here would run for minutes or an hour; the bound is generous for a loaded
//! machine but far below that.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const PROMPTLY: Duration = Duration::from_secs(10);

const COPENHAGEN: &str = "rules dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(protocol: &str) -> Engine {
        let mut child = common::spawn_hnefi(&["--protocol", protocol]);
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("open stdin");
        writeln!(stdin, "{line}").expect("write");
        stdin.flush().expect("flush");
    }

    /// The next line that starts with `prefix`, within `within`.
    fn expect(&self, prefix: &str, within: Duration) -> String {
        let until = Instant::now() + within;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return line,
                Ok(_) => {}
                Err(_) => panic!("no '{prefix}' within {within:?}"),
            }
        }
    }

    /// Lets a search get going: it is well under way after this.
    fn let_it_think(&self) {
        std::thread::sleep(Duration::from_millis(500));
    }

    /// Waits for the process to exit by itself; how long that took from `since`.
    fn exits(mut self, since: Instant) -> Duration {
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "{status}");
                return since.elapsed();
            }
            if since.elapsed() > PROMPTLY {
                let _ = self.child.kill();
                panic!("still running {PROMPTLY:?} after it was told to stop");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn close_input(&mut self) -> Instant {
        self.stdin = None;
        Instant::now()
    }
}

#[test]
fn opentafl_goodbye_ends_an_hour_of_analysis() {
    let mut e = Engine::start("otep");
    e.expect("hello", PROMPTLY);
    e.send(COPENHAGEN);
    e.send("analyze 3 3600");
    e.let_it_think();
    e.send("goodbye");
    let asked = Instant::now();
    // The analysis so far is still given.
    e.expect("analysis ", PROMPTLY);
    e.exits(asked);
}

#[test]
fn opentafl_finish_stops_a_move_on_a_huge_clock_and_the_game_goes_on() {
    let mut e = Engine::start("otep");
    e.expect("hello", PROMPTLY);
    e.send(COPENHAGEN);
    e.send("clock 999999999999 999999999999 0 0 0 ");
    e.send("play attackers");
    e.expect("status depth", Duration::from_secs(60));
    e.send("finish 0");
    let mv = e.expect("move ", PROMPTLY);
    assert!(mv.len() > "move ".len(), "{mv}");
    // Still listening: a new game with the same engine.
    e.send(COPENHAGEN);
    e.send("analyze 1 3600");
    e.let_it_think();
    let closed = e.close_input();
    e.expect("analysis ", PROMPTLY);
    e.exits(closed);
}

#[test]
fn text_protocol_quit_stops_a_move_on_a_huge_clock() {
    let mut e = Engine::start("htp");
    e.send("time_settings fischer 1000000000 0");
    e.expect("= ", PROMPTLY);
    e.send("generate_move attacker");
    e.let_it_think();
    e.send("quit");
    let asked = Instant::now();
    // The move comes first, then the answer to quit.
    assert!(e.expect("= ", PROMPTLY).starts_with("= play attacker "));
    assert_eq!(e.expect("=", PROMPTLY), "= ");
    e.exits(asked);
}

#[test]
fn text_protocol_end_of_input_stops_a_move_on_a_huge_clock() {
    let mut e = Engine::start("htp");
    e.send("time_settings fischer 1000000000 0");
    e.send("generate_move");
    e.let_it_think();
    let closed = e.close_input();
    e.expect("= play attacker ", PROMPTLY);
    e.exits(closed);
}

#[test]
fn commands_sent_ahead_of_quit_are_all_answered_in_order() {
    let mut e = Engine::start("htp");
    let script = "time_settings fischer 1000000000 0\ngenerate_move\nfinal_status\n\
                  generate_move\nname\nquit\n";
    let stdin = e.stdin.as_mut().expect("open stdin");
    stdin.write_all(script.as_bytes()).expect("write");
    stdin.flush().expect("flush");
    let asked = Instant::now();
    let replies: Vec<String> = (0..6).map(|_| e.expect("", PROMPTLY)).collect();
    assert_eq!(replies[0], "= ");
    assert!(replies[1].starts_with("= play attacker "), "{replies:?}");
    assert_eq!(replies[2], "= ongoing");
    assert!(replies[3].starts_with("= play defender "), "{replies:?}");
    assert_eq!(replies[4..], ["= hnefi", "= "]);
    e.exits(asked);
}
