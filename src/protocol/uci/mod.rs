//! The UCI-style protocol that TaflZero speaks, as an engine speaks it. Searches and perft
//! run in the background: every command is handled as it comes, and one that needs a quiet
//! engine stops what runs first. Each board size has its loop, compiled for it; a command for
//! another size (`position fen` of another board, rules of another board) hands the engine to
//! the loop of that size, which handles the same line again.

pub mod message;
pub mod options;

use super::driver::hand_across_sizes;
use super::session::ReplayError;
use super::{Flow, Input, LoopSettings, Output, Resize, Session};
use crate::board::notation::to_fen;
use crate::board::{Board, Move, Position};
use crate::board::{Geometry, Preset, Rules};
use crate::perft::Progress;
use crate::search::size::{Size, SizedTask, Standard, run_sized};
use crate::search::{Clock, Go, Info, Options, SearchResult, Searcher, fallback_result};
use message::{CommandError, Reply, Setup, UciCommand};
use options::{Change, ChosenRules};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::thread::JoinHandle;
use std::time::Duration;

const NAME: &str = concat!("Hnefi ", env!("CARGO_PKG_VERSION"));
const AUTHOR: &str = "the Hnefi developers";

/// The deepest `go perft` here; `hnefi perft` counts deeper.
const MAX_PERFT: u32 = 8;

/// What the host has set that outlives a board size: the loop of the next size starts from it.
#[derive(Clone)]
struct Host {
    settings: LoopSettings,
    options: Options,
    ponder: bool,
    /// The rules the host chose last, of whatever size.
    chosen: ChosenRules,
}

impl Host {
    /// The rules of a game on boards of `side`: the host's choice if it is for them, else
    /// the size's default.
    fn rules_for<G: Geometry>(&self) -> ChosenRules {
        if self.chosen.side() == G::SIDE {
            self.chosen.clone()
        } else {
            ChosenRules::Preset(G::PRESET)
        }
    }
}

/// Handles lines (`first`, then the input) until `quit` or end of input, each on the loop of
/// the board size the game is on (11x11 at first); a search still running is stopped first.
pub fn run(out: Output, settings: LoopSettings, first: Option<Input>, input: Receiver<Input>) {
    let mut host = Host {
        settings,
        options: Options {
            level: settings.level,
            ..Options::default()
        },
        ponder: false,
        chosen: ChosenRules::Preset(Preset::default()),
    };
    let side = host.chosen.side();
    hand_across_sizes(side, first, |side, next| {
        let size_loop = SizeLoop {
            out: &out,
            host: &mut host,
            first: next,
            input: &input,
        };
        run_sized(side, size_loop)
    });
}

/// The loop of one board size, compiled for it.
struct SizeLoop<'a> {
    out: &'a Output,
    host: &'a mut Host,
    first: Option<Input>,
    input: &'a Receiver<Input>,
}

impl SizedTask for SizeLoop<'_> {
    type Output = Option<Resize>;
    fn run<G: Size>(self) -> Self::Output {
        run_size::<G>(self.out, self.host, self.first, self.input)
    }
}

/// Why the loop of another board would refuse `text` (see [`refusal`]).
struct Refusal<'a> {
    text: &'a str,
    host: &'a Host,
}

impl SizedTask for Refusal<'_> {
    type Output = Option<String>;
    fn run<G: Size>(self) -> Self::Output {
        refusal::<G>(self.text, self.host)
    }
}

/// The loop on boards of `G`, until the input ends or a command for another board comes.
fn run_size<G: Size>(
    out: &Output,
    host: &mut Host,
    first: Option<Input>,
    input: &Receiver<Input>,
) -> Option<Resize> {
    let mut uci = Uci::<G>::new(out.clone(), host.clone());
    let resize = uci.run(first, input);
    *host = uci.host;
    resize
}

struct Uci<G: Size> {
    out: Output,
    engine: Searcher<G>,
    session: Session<G>,
    /// The host's settings; its options are the engine's, kept here when a loop ends.
    host: Host,
    /// The rules of the game and their start.
    rules: ChosenRules,
    start: Board<G>,
    /// A `go perft` counting in the background, so that a deep one never blocks `isready`,
    /// `stop` or `quit`.
    perft: Option<PerftRun>,
}

struct PerftRun {
    progress: Arc<Progress>,
    handle: JoinHandle<()>,
}

impl<G: Size> Uci<G> {
    fn new(out: Output, host: Host) -> Uci<G> {
        let default = G::PRESET;
        // UCI hosts always give the limits, so the move time is never used.
        let mut session = Session::new(Rules::preset(default), Duration::ZERO, host.settings);
        let mut rules = ChosenRules::Preset(default);
        let chosen = host.rules_for::<G>();
        // The host's rules were checked when it chose them, their start included.
        if let Ok(start) = chosen.start::<G>() {
            session.new_game(start, chosen.rules());
            rules = chosen;
        }
        let engine = match Searcher::try_new(host.options.clone()) {
            Ok(engine) => engine,
            Err(e) => {
                // The table the last board's engine had, freed just now, did not fit again.
                out.line(&Reply::<G>::Error(format!("setoption name Hash: {e}")).to_string());
                Searcher::new(Options {
                    hash_mb: Options::default().hash_mb,
                    ..host.options.clone()
                })
            }
        };
        Uci {
            out,
            engine,
            start: *session.position().board(),
            session,
            host,
            rules,
            perft: None,
        }
    }

    /// Handles lines (`first`, then the input) until `quit`, the end of input, or a line for
    /// another board size, which is returned; a search still running is stopped first.
    fn run(&mut self, first: Option<Input>, input: &Receiver<Input>) -> Option<Resize> {
        let mut resize = None;
        for line in first.into_iter().chain(input.iter()) {
            let flow = match line.command::<UciCommand<G>>() {
                Some(Ok(command)) => self.handle(command),
                Some(Err(CommandError::OtherBoard(side))) => Flow::Resize(side),
                Some(Err(e)) => {
                    self.error(&e);
                    Flow::Continue
                }
                None => Flow::Continue,
            };
            match flow {
                Flow::Continue => {}
                Flow::Quit => break,
                Flow::Resize(side) => match &line {
                    Input::Line(text) => match run_sized(
                        side,
                        Refusal {
                            text,
                            host: &self.host,
                        },
                    )
                    .unwrap_or_else(|e| Some(e.to_string()))
                    {
                        Some(why) => self.error(&why),
                        None => {
                            resize = Some(Resize { side, line });
                            break;
                        }
                    },
                    Input::TooLong(_) => {}
                },
            }
        }
        self.finish_search();
        self.host.options = self.engine.options().clone();
        resize
    }

    fn reply(&self, reply: Reply<G>) {
        self.out.line(&reply.to_string());
    }

    fn error(&self, error: &dyn std::fmt::Display) {
        self.reply(Reply::Error(error.to_string()));
    }

    fn handle(&mut self, command: UciCommand<G>) -> Flow {
        match command {
            UciCommand::Uci => {
                self.reply(Reply::IdName(NAME.into()));
                self.reply(Reply::IdAuthor(AUTHOR.into()));
                for option in options::offered(self.engine.options()) {
                    self.reply(Reply::Option(option));
                }
                self.reply(Reply::UciOk);
            }
            UciCommand::IsReady => self.reply(Reply::ReadyOk),
            UciCommand::SetOption { name, value } => {
                return self.setoption(&name, value.as_deref());
            }
            UciCommand::UciNewGame => {
                self.finish_search();
                self.engine.clear();
                self.session.new_game(self.start, self.session.rules());
            }
            UciCommand::Position { setup, moves } => self.position(setup, &moves, None),
            UciCommand::PositionInPart {
                setup,
                moves,
                refused,
            } => self.position(setup, &moves, Some(refused.to_string())),
            UciCommand::Go(limits) => self.go(self.session.capped(limits)),
            UciCommand::GoInPart {
                mut limits,
                refused,
            } => {
                // A host waits for its bestmove whatever the words: the search goes with what
                // was understood, and ends by itself where nothing understood would end it.
                let ends = limits.depth.is_some()
                    || limits.nodes.is_some()
                    || limits.movetime.is_some()
                    || limits.infinite
                    || limits.ponder
                    || limits.clock != Clock::NONE;
                if !ends {
                    limits.depth = Some(1);
                }
                self.error(&format!(
                    "{refused}; searching with the rest{}",
                    if ends { "" } else { " to depth 1" }
                ));
                self.go(self.session.capped(limits));
            }
            UciCommand::Perft(depth) => self.perft(depth),
            UciCommand::Bench(depth) => self.bench(depth),
            UciCommand::Stop => {
                self.engine.stop();
                if let Some(p) = &self.perft {
                    p.progress.stop.store(true, Ordering::Relaxed);
                }
            }
            UciCommand::PonderHit => self.engine.ponderhit(),
            UciCommand::Quit => return Flow::Quit,
            UciCommand::Help => {
                for line in super::HELP.lines() {
                    self.out.line(line);
                }
            }
            UciCommand::Display => self.display(),
            UciCommand::Eval => {
                let pos = self.session.position();
                let mut text = crate::search::eval::breakdown(pos.board(), pos.rulebook());
                if let Some(net) = self.engine.options().network::<G>(pos.rules()) {
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
            p.progress.stop.store(true, Ordering::Relaxed);
            let _ = p.handle.join();
        }
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) -> Flow {
        match options::change(name, value, self.engine.options()) {
            Ok(Change::Search(options)) => {
                if &options != self.engine.options() {
                    self.finish_search();
                    if let Err(e) = self.engine.set_options(options) {
                        self.error(&format!("setoption name {name}: {e}"));
                    }
                }
            }
            Ok(Change::Rules(chosen)) if chosen.side() != G::SIDE => {
                return Flow::Resize(chosen.side());
            }
            Ok(Change::Rules(chosen)) => match checked_start::<G>(&chosen) {
                Ok(start) => {
                    self.finish_search();
                    self.change_rules(chosen, start);
                }
                Err(e) => self.error(&e),
            },
            Ok(Change::Ponder(on)) => self.host.ponder = on,
            Ok(Change::ClearHash) => {
                self.finish_search();
                self.engine.clear();
            }
            Err(e) => self.error(&e),
        }
        Flow::Continue
    }

    /// Takes the host's rules. A game from the old rules' start goes on from the new start if
    /// that is the same (a new game if not); a game from a position the host set keeps it.
    /// Either way its moves are replayed as far as they stay legal.
    fn change_rules(&mut self, chosen: ChosenRules, start: Board<G>) {
        let mut first = self.session.position().clone();
        while first.undo().is_some() {}
        if *first.board() == self.start && start != self.start {
            self.session.new_game(start, chosen.rules());
        } else {
            self.session.change_rules(chosen.rules());
        }
        self.start = start;
        self.rules = chosen.clone();
        self.host.chosen = chosen;
    }

    /// Sets up the game of a `position`: as far as its moves are legal, saying where it
    /// stopped (`cut`: a move that could not be read, after `moves`).
    fn position(&mut self, setup: Setup<G>, moves: &[Move<G>], cut: Option<String>) {
        let board = match setup {
            Setup::StartPos => self.start,
            Setup::Fen(board) => board,
        };
        let (game, refused) = match self.session.replay(board, moves) {
            Ok(game) => (game, cut),
            Err(ReplayError::Move(illegal)) => {
                let legal = &moves[..illegal.number - 1];
                match self.session.replay(board, legal) {
                    Ok(game) => (game, Some(illegal.to_string())),
                    Err(e) => return self.error(&e),
                }
            }
            // No game to set up: the one before stays.
            Err(e) => return self.error(&e),
        };
        self.finish_search();
        let plies = game.plies();
        self.session.set_position(game);
        if let Some(why) = refused {
            self.error(&format!(
                "{why}; the position is set up to the move before it ({plies} moves played)"
            ));
        }
    }

    fn go(&mut self, limits: Go<G>) {
        self.finish_search();
        let out = self.out.clone();
        let done_out = self.out.clone();
        let ponder = self.host.ponder;
        let searchmoves = limits.searchmoves.clone();
        let pos = self.session.position();
        let started = self.engine.start(
            pos,
            limits,
            Box::new(move |info: &Info<G>| out.line(&Reply::Info(info.into()).to_string())),
            Some(Box::new(move |r: &SearchResult<G>| {
                done_out.line(&best_move(r, ponder).to_string())
            })),
        );
        if let Err(e) = started {
            // A host waits for its bestmove whatever happens.
            self.error(&e);
            self.reply(best_move(&fallback_result(pos, &searchmoves), false));
        }
    }

    /// `hnefi bench`'s search with this engine's evaluation, as Stockfish's `bench`: a line a
    /// position, then `N nodes M nps`. It holds the loop until it ends.
    fn bench(&mut self, depth: u32) {
        self.finish_search();
        let options = self.engine.options();
        let run = crate::measure::bench::run::<Standard>(
            Rules::default(),
            depth,
            options.eval,
            options.net.clone(),
            |i, fen, nodes| {
                self.reply(Reply::InfoString(format!(
                    "position {i}: {nodes} nodes {fen}"
                )))
            },
        );
        match run {
            Ok(result) => self
                .out
                .line(&format!("{} nodes {} nps", result.nodes, result.nps())),
            Err(e) => self.error(&e),
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
        let progress = Arc::new(Progress::default());
        let counting_progress = progress.clone();
        let say = move |reply: Reply<G>| out.line(&reply.to_string());
        let counting = std::thread::Builder::new()
            .name("perft".into())
            .spawn(
                move || match crate::perft::divide(&board, depth, &rules, &counting_progress) {
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
            Ok(handle) => self.perft = Some(PerftRun { progress, handle }),
            Err(e) => self.error(&format!("go perft: cannot start a thread: {e}")),
        }
    }

    fn display(&self) {
        let pos = self.session.position();
        let b = pos.board();
        let plain = |text: String| self.reply(Reply::Plain(text));
        for line in b.to_string().lines() {
            plain(line.to_string());
        }
        plain(format!("Fen: {}", to_fen(b)));
        plain(format!("Key: {:016X}", b.key()));
        plain(format!("Side to move: {}", b.side_to_move()));
        plain(format!("Rules: {}", self.rules));
        let status = match pos.outcome() {
            Some(o) => o.to_string(),
            None => "ongoing".to_string(),
        };
        plain(format!("Status: {status}"));
    }
}

/// The start of `chosen` on boards of `G`, if men stand there only where its rules let them.
fn checked_start<G: Size>(chosen: &ChosenRules) -> Result<Board<G>, String> {
    let start = chosen.start::<G>().map_err(|e| e.to_string())?;
    Position::new(start, chosen.rules())
        .rulebook()
        .check_setup(&start)
        .map_err(|e| format!("option 'Rules': start: {e}"))?;
    Ok(start)
}

/// Why the loop of boards of `G` would refuse `line`, a command for them: asked before the
/// game on the current board is given up, so that a refused command changes nothing.
fn refusal<G: Size>(line: &str, host: &Host) -> Option<String> {
    match line.parse::<UciCommand<G>>() {
        Err(e) => Some(e.to_string()),
        Ok(UciCommand::Position { setup, moves }) => {
            let rules = host.rules_for::<G>();
            let board = match setup {
                Setup::StartPos => checked_start::<G>(&rules).ok()?,
                Setup::Fen(board) => board,
            };
            let mut session =
                Session::<G>::new(Rules::preset(G::PRESET), Duration::ZERO, host.settings);
            session.new_game(board, rules.rules());
            session.replay(board, &moves).err().map(|e| e.to_string())
        }
        Ok(UciCommand::SetOption { name, value }) => {
            match options::change(&name, value.as_deref(), &host.options) {
                Ok(Change::Rules(chosen)) => checked_start::<G>(&chosen).err(),
                _ => None,
            }
        }
        Ok(_) => None,
    }
}

fn best_move<G: Size>(r: &SearchResult<G>, ponder: bool) -> Reply<G> {
    Reply::BestMove {
        best: r.best,
        ponder: r.ponder.filter(|_| ponder),
    }
}

/// The table size a UCI line asks for, read as the loop reads it: `Some(mb)` for a
/// `setoption name Hash value <mb>` it would take.
pub fn hash_request(line: &str) -> Option<u64> {
    // `setoption` reads the same on every board.
    match line.parse::<UciCommand<Standard>>() {
        Ok(UciCommand::SetOption {
            name,
            value: Some(value),
        }) if name.eq_ignore_ascii_case("hash") => {
            crate::protocol::number::parse_amount(value.trim()).ok()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::testing::Sink;

    /// What the loop says to `lines`, with searches capped at 5000 nodes. A line `wait P`
    /// waits for the loop to say a line that starts with `P` (a search would otherwise be
    /// stopped by the next command).
    fn said(lines: &[&str]) -> Vec<String> {
        let sink = Sink::default();
        let (tx, rx) = std::sync::mpsc::channel();
        let settings = LoopSettings {
            max_nodes: Some(5000),
            ..LoopSettings::default()
        };
        let out = Output::new(Box::new(sink.clone()));
        let engine = std::thread::spawn(move || run(out, settings, None, rx));
        let mut seen = 0;
        for line in lines {
            match line.strip_prefix("wait ") {
                Some(prefix) => {
                    for _ in 0..6000 {
                        let text = sink.text();
                        let mut fresh = text.lines().skip(seen);
                        if let Some(i) = fresh.position(|l| l.starts_with(prefix)) {
                            seen += i + 1;
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(10));
                    }
                }
                None => tx.send(Input::Line(line.to_string())).unwrap(),
            }
        }
        drop(tx);
        engine.join().unwrap();
        sink.text().lines().map(String::from).collect()
    }

    fn starting<'a>(lines: &'a [String], prefix: &str) -> Vec<&'a str> {
        lines
            .iter()
            .filter(|l| l.starts_with(prefix))
            .map(String::as_str)
            .collect()
    }

    #[test]
    fn the_engine_goes_to_the_board_of_each_command_with_the_hosts_options() {
        let brandubh = format!("position fen {}", Preset::Brandubh.start_fen());
        let tablut = format!("position fen {}", Preset::Tablut.start_fen());
        let out = said(&[
            "setoption name MultiPV value 2",
            "setoption name Ponder value true",
            "setoption name UCI_Variant value foteviken-tablut",
            "d",
            "go depth 2",
            "wait bestmove",
            &brandubh,
            "d",
            "go depth 2",
            "wait bestmove",
            &tablut,
            "d",
            "setoption name Rules value copenhagen",
            "position startpos moves d1d3",
            "d",
        ]);
        assert_eq!(
            starting(&out, "Rules: "),
            [
                "Rules: foteviken-tablut",
                "Rules: brandubh",
                "Rules: foteviken-tablut",
                "Rules: copenhagen"
            ],
            "the host's rules for their board, else the board's default"
        );
        let fens = starting(&out, "Fen: ");
        assert_eq!(fens[0], format!("Fen: {}", Preset::Tablut.start_fen()));
        assert_eq!(fens[1], format!("Fen: {}", Preset::Brandubh.start_fen()));
        assert!(fens[3].starts_with("Fen: 3aaaaa3/5a5/11/") && fens[3].ends_with(" d"));
        let bests = starting(&out, "bestmove ");
        assert_eq!(bests.len(), 2);
        assert!(bests.iter().all(|b| b.contains(" ponder ")), "{bests:?}");
        assert!(
            starting(&out, "info depth 2 ")
                .iter()
                .any(|l| l.contains(" multipv 2 "))
        );
        assert!(starting(&out, "info string error").is_empty(), "{out:?}");
    }

    #[test]
    fn a_refused_command_for_another_board_changes_nothing() {
        let out = said(&[
            "position startpos moves d1d3",
            "d",
            &format!("position fen {} moves e1e9", Preset::Tablut.start_fen()),
            "position fen 3a3/3a3/3d3/aadkdaa/3d3/3a3/3a2 d",
            "setoption name Rules value dim:7 start:/7/",
            "setoption name Rules value dim:7 start:/t2t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
            "setoption name UCI_Variant value dim:9",
            "d",
        ]);
        let errors = starting(&out, "info string error: ");
        assert_eq!(errors.len(), 5, "{out:?}");
        assert!(
            errors[0].contains("move 1 (e1e9) is illegal"),
            "{}",
            errors[0]
        );
        assert!(errors[1].contains("bad FEN: rank 1"), "{}", errors[1]);
        assert!(
            errors[2].contains("option 'Rules': start: "),
            "{}",
            errors[2]
        );
        assert!(
            errors[3].contains("option 'Rules': start: "),
            "{}",
            errors[3]
        );
        let diagram = |from: &str| {
            let at = out.iter().position(|l| l.starts_with(from)).unwrap();
            out[at..]
                .iter()
                .take_while(|l| !l.starts_with("Status"))
                .cloned()
                .collect::<Vec<_>>()
        };
        let shown: Vec<usize> = out
            .iter()
            .enumerate()
            .filter(|(_, l)| l.starts_with("11 "))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(shown.len(), 2);
        assert_eq!(diagram(&out[shown[0]]), diagram(&out[shown[1]]));
        assert_eq!(starting(&out, "Rules: "), ["Rules: copenhagen"; 2]);
    }
}
