//! The UCI-style protocol that TaflZero speaks, as an engine speaks it. Searches and perft
//! run in the background: every command is handled as it comes, and one that needs a quiet
//! engine stops what runs first.

pub mod message;
pub mod options;

use super::{Flow, Input, Output, Session, Settings};
use crate::board::Rules;
use crate::search::{Engine, Info, SearchResult, fallback_result};
use message::{Command, Reply};
use options::Change;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::thread::JoinHandle;
use std::time::Duration;

const NAME: &str = concat!("Hnefi ", env!("CARGO_PKG_VERSION"));
const AUTHOR: &str = "the Hnefi developers";

/// The deepest `go perft` here; `hnefi perft` counts deeper.
const MAX_PERFT: u32 = 8;

pub struct Uci {
    out: Output,
    engine: Engine,
    session: Session,
    ponder_enabled: bool,
    /// A `go perft` counting in the background, so that a deep one never blocks `isready`,
    /// `stop` or `quit`.
    perft: Option<PerftRun>,
}

struct PerftRun {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl Uci {
    pub fn new(out: Output, settings: Settings) -> Uci {
        // UCI hosts always give the limits, so the move time is never used.
        let session = Session::new(Rules::default(), Duration::ZERO, settings);
        Uci {
            out,
            engine: Engine::new(session.engine_options()),
            session,
            ponder_enabled: false,
            perft: None,
        }
    }

    /// Handles lines (`first`, then the input) until `quit` or end of input; a search still
    /// running is stopped first.
    pub fn run(mut self, first: Option<Input>, input: Receiver<Input>) {
        for line in first.into_iter().chain(input.iter()) {
            match line.command::<Command>() {
                Some(Ok(command)) => {
                    if let Flow::Quit = self.handle(command) {
                        break;
                    }
                }
                Some(Err(e)) => self.error(&e),
                None => {}
            }
        }
        self.engine.stop();
        self.engine.wait();
        self.finish_perft();
    }

    fn reply(&self, reply: Reply) {
        self.out.line(&reply.to_string());
    }

    fn error(&self, error: &dyn std::fmt::Display) {
        self.reply(Reply::Error(error.to_string()));
    }

    fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => {
                self.reply(Reply::IdName(NAME.into()));
                self.reply(Reply::IdAuthor(AUTHOR.into()));
                for option in options::offered(self.engine.options()) {
                    self.reply(Reply::Option(option));
                }
                self.reply(Reply::UciOk);
            }
            Command::IsReady => self.reply(Reply::ReadyOk),
            Command::SetOption { name, value } => self.setoption(&name, value.as_deref()),
            Command::UciNewGame => {
                self.finish_search();
                self.engine.clear();
                self.session
                    .new_game(crate::board::Board::start(), self.session.rules());
            }
            Command::Position { setup, moves } => {
                match self.session.replay(setup.board(), &moves) {
                    Ok(game) => {
                        self.finish_search();
                        self.session.set_position(game);
                    }
                    Err(e) => self.error(&e),
                }
            }
            Command::Go(limits) => self.go(self.session.capped(limits)),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => {
                self.engine.stop();
                if let Some(p) = &self.perft {
                    p.stop.store(true, Ordering::Relaxed);
                }
            }
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => return Flow::Quit,
            Command::Help => {
                for line in super::HELP.lines() {
                    self.out.line(line);
                }
            }
            Command::Display => self.display(),
            Command::Eval => {
                let pos = self.session.position();
                let mut text = crate::search::eval::breakdown(pos.board(), pos.rulebook());
                if let Some(net) = self.engine.options().network::<crate::board::Eleven>() {
                    text += &crate::search::nnue::describe(net, pos.board(), pos.rulebook());
                }
                for l in text.lines() {
                    self.reply(Reply::InfoString(l.to_string()));
                }
            }
        }
        Flow::Continue
    }

    /// Waits for a running search to end (its bestmove is printed), so that what follows
    /// applies to a quiet engine.
    fn finish_search(&mut self) {
        if self.engine.is_searching() {
            self.engine.stop();
        }
        self.engine.wait();
        self.finish_perft();
    }

    /// Stops a background perft and waits for it (it says `info string perft stopped`).
    fn finish_perft(&mut self) {
        if let Some(p) = self.perft.take() {
            p.stop.store(true, Ordering::Relaxed);
            let _ = p.handle.join();
        }
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) {
        match options::change(name, value, self.engine.options()) {
            Ok(Change::Search(options)) => {
                if &options != self.engine.options() {
                    self.finish_search();
                    if let Err(e) = self.engine.set_options(options) {
                        self.error(&format!("setoption name {name}: {e}"));
                    }
                }
            }
            Ok(Change::Rules(preset)) => {
                self.finish_search();
                self.session.change_rules(Rules::preset(preset));
            }
            Ok(Change::Ponder(on)) => self.ponder_enabled = on,
            Ok(Change::ClearHash) => {
                self.finish_search();
                self.engine.clear();
            }
            Err(e) => self.error(&e),
        }
    }

    fn go(&mut self, limits: crate::search::Limits) {
        self.finish_search();
        let out = self.out.clone();
        let done_out = self.out.clone();
        let ponder = self.ponder_enabled;
        let searchmoves = limits.searchmoves.clone();
        let pos = self.session.position();
        let started = self.engine.start(
            pos,
            limits,
            Box::new(move |info: &Info| out.line(&Reply::Info(info.into()).to_string())),
            Some(Box::new(move |r: &SearchResult| {
                done_out.line(&best_move(r, ponder).to_string())
            })),
        );
        if let Err(e) = started {
            // A host waits for its bestmove whatever happens.
            self.error(&e);
            self.reply(best_move(&fallback_result(pos, &searchmoves), false));
        }
    }

    fn perft(&mut self, depth: u32) {
        if depth > MAX_PERFT {
            return self.error(&format!(
                "go perft: depth at most {MAX_PERFT} here (use `hnefi perft` for more)"
            ));
        }
        self.finish_search();
        let board = *self.session.position().board();
        let rules = self.session.rules();
        let out = self.out.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let say = move |reply: Reply| out.line(&reply.to_string());
        let counting = std::thread::Builder::new()
            .name("perft".into())
            .spawn(
                move || match crate::perft::divide_until(&board, depth, &rules, &flag) {
                    Some(lines) => {
                        let total = crate::perft::total(depth, &lines);
                        for (mv, n) in lines {
                            say(Reply::PerftMove(mv, n));
                        }
                        say(Reply::Plain(String::new()));
                        say(Reply::PerftTotal(total));
                    }
                    None => say(Reply::InfoString("perft stopped".into())),
                },
            );
        match counting {
            Ok(handle) => self.perft = Some(PerftRun { stop, handle }),
            Err(e) => self.error(&format!("go perft: cannot start a thread: {e}")),
        }
    }

    fn display(&self) {
        let pos = self.session.position();
        let b = pos.board();
        let plain = |text: String| self.reply(Reply::Plain(text));
        for line in super::diagram(b).lines() {
            plain(line.to_string());
        }
        plain(format!("Fen: {}", crate::board::notation::to_fen(b)));
        plain(format!("Key: {:016X}", b.key()));
        plain(format!("Side to move: {}", b.side_to_move()));
        plain(format!("Rules: {}", pos.rules().preset));
        let status = match pos.outcome() {
            Some(o) => o.to_string(),
            None => "ongoing".to_string(),
        };
        plain(format!("Status: {status}"));
    }
}

fn best_move(r: &SearchResult, ponder: bool) -> Reply {
    Reply::BestMove {
        best: r.best,
        ponder: r.ponder.filter(|_| ponder),
    }
}

/// The table size a UCI line asks for, read as the loop reads it: `Some(mb)` for a
/// `setoption name Hash value <mb>` it would take.
pub fn hash_request(line: &str) -> Option<u64> {
    match line.parse() {
        Ok(Command::SetOption {
            name,
            value: Some(value),
        }) if name.eq_ignore_ascii_case("hash") => {
            crate::protocol::number::parse_amount(value.trim()).ok()
        }
        _ => None,
    }
}
