//! The engine API: set a position, search it under limits, hear about progress, stop it from
//! any thread, get the best move. Knows nothing of text protocols.

mod alphabeta;
pub mod clock;
pub mod eval;
mod huge;
pub mod instant;
pub mod nnue;
pub mod ordering;
pub mod params;
pub mod policy;
pub mod score;
pub mod size;
pub mod skill;
pub mod solve;
#[cfg(test)]
mod suite;
mod threads;
pub mod time;
pub mod tt;

use crate::board::{Geometry, Rules};
use crate::board::{Move, MoveList, Position};
pub use clock::{Clock, SideClock};
use nnue::QuantisedNetwork;
pub use score::Score;
use size::Size;
pub use skill::Level;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use threads::{Memory, run};
use tt::{TableError, TranspositionTable};

/// What a search is asked (a UCI `go`): when to stop, the clocks, and the root moves to try.
/// Everything unset means: search until stopped. (The API's `Limits` is its size-free subset.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go<G: Geometry> {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// The most nodes.
    pub nodes: Option<u64>,
    /// The time for this move.
    pub movetime: Option<Duration>,
    /// The clocks; only the side to move's counts.
    pub clock: Clock,
    /// The moves until the clock gets more time.
    pub movestogo: Option<u32>,
    /// Search until `stop`, whatever else is set.
    pub infinite: bool,
    /// A ponder search: no time limit until [`Searcher::ponderhit`].
    pub ponder: bool,
    /// Search only these root moves (all legal moves when empty or when none is legal).
    pub searchmoves: Vec<Move<G>>,
}

impl<G: Geometry> Go<G> {
    /// These limits with at most `cap` nodes, if a cap is given.
    pub fn with_node_cap(mut self, cap: Option<u64>) -> Go<G> {
        if let Some(cap) = cap {
            self.nodes = Some(self.nodes.map_or(cap, |n| n.min(cap)).max(1));
        }
        self
    }
}

/// Progress of a search: one finished iteration of one principal variation.
#[derive(Clone, Debug)]
pub struct Info<G: Geometry> {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// 1 for the best line.
    pub multipv: usize,
    /// The line's score, for the side to move.
    pub score: Score,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Time since the start.
    pub time: Duration,
    /// The line.
    pub pv: Vec<Move<G>>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<G: Geometry> {
    /// `None` only when the game is over and there is no move.
    pub best: Option<Move<G>>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move<G>>,
    /// For a finished game, its result for the side to move: won or lost 0 plies away, or a
    /// draw.
    pub score: Score,
    /// The last iteration's depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Every line searched, best first (as many as MultiPV asked for).
    pub lines: Vec<Info<G>>,
}

/// Settings that outlive one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The transposition table's size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines searched and reported.
    pub multipv: usize,
    /// Kept back from every time budget for the host's and the pipe's delays.
    pub move_overhead: Duration,
    /// The search's tunable numbers.
    pub params: params::SearchParams,
    /// Which evaluation the search runs.
    pub eval: EvalKind,
    /// The NNUE network of [`EvalKind::Nnue`] (UCI `EvalFile`); without one, the network
    /// built into the binary ([`nnue::embedded`]).
    pub net: Option<Arc<QuantisedNetwork>>,
    /// The move policy (UCI `PolicyFile`); without one, the policy built into the binary for
    /// the network, if there is one. A policy runs only beside the network it was trained on.
    pub policy: Option<Arc<policy::Policy>>,
    /// How strongly the engine plays (UCI `Skill Level`); [`Level::MAX`] leaves the search
    /// untouched.
    pub level: Level,
    /// Below full strength, what the choice among good moves is drawn from, mixed with the
    /// position: the same seed plays the same game. Without one, every search draws afresh.
    pub seed: Option<u64>,
}

/// The evaluations the search can run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The hand-written evaluation of [`eval`], fitted by `hnefi tune`.
    Hand,
    /// The network of [`Options::net`], trained by `hnefi train`: the default since the
    /// first self-trained network, g1, beat the hand evaluation at 200 ms a move.
    #[default]
    Nnue,
    /// The same network, its accumulator computed from scratch at every node instead of
    /// updated move by move: the same search, slower; `hnefi bench` measures the difference.
    NnueRefresh,
}

impl EvalKind {
    /// The network this evaluation runs on boards of `G` under `rules`: `file` (a net read
    /// from an `EvalFile`) if it is for them, or else the network built into the binary for
    /// them where it plays those rules; none for the hand evaluation, nor on a board without
    /// a network, where the hand evaluation plays.
    pub fn network<'a, G: Size>(
        self,
        file: Option<&'a QuantisedNetwork>,
        rules: &Rules,
    ) -> Option<&'a QuantisedNetwork> {
        match self {
            EvalKind::Hand => None,
            EvalKind::Nnue | EvalKind::NnueRefresh => match file {
                Some(net) if net.fits::<G>() => Some(net),
                _ => nnue::embedded_for::<G>(rules),
            },
        }
    }
}

impl Options {
    /// The network the search evaluates with on boards of `G` under `rules`, if it runs one.
    pub fn network<G: Size>(&self, rules: &Rules) -> Option<&QuantisedNetwork> {
        self.eval.network::<G>(self.net.as_deref(), rules)
    }

    /// The move policy the search orders by on boards of `G` under `rules`: the policy file's
    /// or the built-in one, where it reads the network the search runs; none when
    /// `PolicyOrder` is 0.
    pub fn move_policy<G: Size>(&self, rules: &Rules) -> Option<&policy::Policy> {
        if self.params.policy_order == 0 {
            return None;
        }
        let net = self.network::<G>(rules)?;
        match self.policy.as_deref() {
            Some(p) if p.fits::<G>(net) => Some(p),
            _ => policy::embedded_for::<G>(net),
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: params::DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            move_overhead: params::DEFAULT_MOVE_OVERHEAD,
            params: params::SearchParams::default(),
            eval: EvalKind::default(),
            net: None,
            policy: None,
            level: Level::MAX,
            seed: None,
        }
    }
}

/// Why options could not be applied; the engine keeps its previous options.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    #[error(transparent)]
    /// The table cannot be had.
    Hash(#[from] TableError),
    #[error("{what} must be at least 1")]
    /// A setting that must be at least 1 is 0.
    Zero {
        /// The setting.
        what: &'static str,
    },
    #[error("{what} must be at most {max}, not {value}")]
    /// A setting above its most.
    TooMany {
        /// The setting.
        what: &'static str,
        /// Its value.
        value: usize,
        /// The most it may be.
        max: usize,
    },
}

/// The most search threads an engine runs (UCI `Threads` offers 1 to this).
pub const MAX_THREADS: usize = 256;
/// The most lines a search reports (UCI `MultiPV`, `hnefi analyse --multipv`).
pub const MAX_MULTIPV: usize = 256;

/// A callback for progress reports.
pub type Reporter<G> = Box<dyn FnMut(&Info<G>) + Send>;
/// A callback for the end of a search, called on the search thread as soon as it ends.
pub type OnDone<G> = Box<dyn FnOnce(&SearchResult<G>) + Send>;

/// A searching engine: a transposition table, options, and at most one search at a time,
/// running on threads of its own.
pub struct Searcher<G: Geometry> {
    options: Options,
    tt: Arc<TranspositionTable>,
    /// The main search thread's move history, kept from one search of a game to the next
    /// as the table is, and forgotten with it.
    history: Arc<Mutex<Vec<i32>>>,
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
    running: Option<Running<G>>,
}

/// A search started: on its own thread, or, where there are no threads (WebAssembly for the
/// web), already done on the caller's.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
type Running<G> = std::thread::JoinHandle<SearchResult<G>>;

/// A search done on the caller's thread, its answer kept for [`Searcher::wait`].
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
struct Running<G: Geometry>(SearchResult<G>);

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
impl<G: Geometry> Running<G> {
    fn is_finished(&self) -> bool {
        true
    }

    fn join(self) -> Result<SearchResult<G>, std::convert::Infallible> {
        Ok(self.0)
    }
}

// What needs no search of the size: stopping and waiting, so that a holder of any size's
// engine (a table of `hnefi serve`) can stop it when dropped.
impl<G: Geometry> Searcher<G> {
    /// A handle that stops the running search from any thread.
    pub fn stopper(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Stops the running search; it answers with the best move so far.
    pub fn stop(&self) {
        self.pondering.store(false, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The ponder move was played: the running ponder search now keeps to its time limits.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Whether a search runs.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Waits for the running search and returns its result (`None` if none was started).
    pub fn wait(&mut self) -> Option<SearchResult<G>> {
        self.running.take().and_then(|h| h.join().ok())
    }

    fn stop_and_wait(&mut self) {
        if self.running.is_some() {
            self.stop();
            self.wait();
        }
    }
}

impl<G: Size> Default for Searcher<G> {
    fn default() -> Searcher<G> {
        Searcher::new(Options::default())
    }
}

impl<G: Size> Searcher<G> {
    /// An engine with `options`. The table is allocated infallibly: for a size that comes
    /// from a user, use [`Searcher::try_new`].
    pub fn new(options: Options) -> Searcher<G> {
        let tt = TranspositionTable::new(options.hash_mb);
        Searcher::with_table(options, tt)
    }

    /// An engine with `options`, or why they cannot be had (a table larger than the memory).
    pub fn try_new(options: Options) -> Result<Searcher<G>, OptionsError> {
        check(&options)?;
        let tt = TranspositionTable::try_new(options.hash_mb)?;
        Ok(Searcher::with_table(options, tt))
    }

    fn with_table(options: Options, tt: TranspositionTable) -> Searcher<G> {
        Searcher {
            tt: Arc::new(tt),
            history: Arc::default(),
            options,
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(false)),
            running: None,
        }
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes options; a new hash size reallocates (and clears) the table. Waits for a running
    /// search to finish first. On an error nothing changes: the old table and options stay.
    pub fn set_options(&mut self, options: Options) -> Result<(), OptionsError> {
        check(&options)?;
        self.stop_and_wait();
        if options.hash_mb != self.options.hash_mb {
            // The old table goes only once the new one is there: on failure it stays in use.
            self.tt = Arc::new(TranspositionTable::try_new(options.hash_mb)?);
        }
        self.options = options;
        Ok(())
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.stop_and_wait();
        self.tt.clear();
        self.history
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// This engine, stopped by `stop` instead of a flag of its own: for a host that keeps one
    /// stop handle across engines of several sizes.
    pub fn with_stopper(mut self, stop: Arc<AtomicBool>) -> Searcher<G> {
        self.stop = stop;
        self
    }

    /// Starts searching `pos` on background threads. Progress goes to `report` and the result
    /// to `done` (both on the search thread); [`Searcher::wait`] returns the result as well.
    /// A search that fails (a bug: it panics) still ends with a result, a legal move, so that
    /// a host waiting for a move gets one.
    pub fn start(
        &mut self,
        pos: &Position<G>,
        limits: Go<G>,
        report: Reporter<G>,
        done: Option<OnDone<G>>,
    ) -> Result<(), StartError> {
        self.stop_and_wait();
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(limits.ponder, Ordering::Relaxed);
        let pos = pos.clone();
        let tt = self.tt.clone();
        let history = self.history.clone();
        let stop = self.stop.clone();
        let pondering = self.pondering.clone();
        let options = self.options.clone();
        let search = move || {
            let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let memory = Memory {
                    tt: &tt,
                    history: &history,
                };
                run(&pos, &limits, &options, memory, &stop, &pondering, report)
            }));
            let result = searched.unwrap_or_else(|_| {
                log::error!("the search failed; answering with the first legal move");
                fallback_result(&pos, &limits.searchmoves)
            });
            if let Some(done) = done {
                done(&result);
            }
            result
        };
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        let running = std::thread::Builder::new()
            .name("search".into())
            .spawn(search)?;
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        let running = Running(search());
        self.running = Some(running);
        Ok(())
    }

    /// Searches `pos` on this thread, calling `report` here with each finished iteration: for
    /// a host without threads (WebAssembly for the web), or whose callback cannot cross to
    /// another. An infinite or ponder search has nothing to end it here and is searched as if
    /// neither were asked.
    pub fn search_here(
        &mut self,
        pos: &Position<G>,
        mut limits: Go<G>,
        report: impl FnMut(&Info<G>),
    ) -> SearchResult<G> {
        self.stop_and_wait();
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
        limits.infinite = false;
        limits.ponder = false;
        let memory = Memory {
            tt: &self.tt,
            history: &self.history,
        };
        let stop = &self.stop;
        run(
            pos,
            &limits,
            &self.options,
            memory,
            stop,
            &self.pondering,
            report,
        )
    }

    /// Searches and waits: the simple blocking call.
    pub fn search(&mut self, pos: &Position<G>, limits: Go<G>) -> SearchResult<G> {
        self.search_with(pos, limits, Box::new(|_| {}))
    }

    /// Like [`Searcher::search`], reporting progress to `report`. Always has a result: without a
    /// search thread, the first legal move.
    pub fn search_with(
        &mut self,
        pos: &Position<G>,
        limits: Go<G>,
        report: Reporter<G>,
    ) -> SearchResult<G> {
        let searchmoves = limits.searchmoves.clone();
        let started = self.start(pos, limits, report, None);
        if let Err(e) = &started {
            log::error!("{e}; answering with the first legal move");
        }
        started
            .ok()
            .and_then(|()| self.wait())
            .unwrap_or_else(|| fallback_result(pos, &searchmoves))
    }
}

/// Why a search could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot start the search thread: {0}")]
    /// The thread could not be started.
    Thread(#[from] std::io::Error),
}

/// The answer when there is no search to give one: the first legal move (of `searchmoves`,
/// if any of them is legal), unscored.
pub fn fallback_result<G: Geometry>(pos: &Position<G>, searchmoves: &[Move<G>]) -> SearchResult<G> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let best = list
        .iter()
        .find(|m| searchmoves.contains(m))
        .or(list.first())
        .copied();
    SearchResult {
        best,
        ponder: None,
        score: Score::ZERO,
        depth: 0,
        nodes: 0,
        lines: Vec::new(),
    }
}

/// `Ok` unless no search can run with `options`: no threads, or more than [`MAX_THREADS`].
pub fn check(options: &Options) -> Result<(), OptionsError> {
    if options.threads == 0 {
        return Err(OptionsError::Zero { what: "threads" });
    }
    if options.threads > MAX_THREADS {
        return Err(OptionsError::TooMany {
            what: "threads",
            value: options.threads,
            max: MAX_THREADS,
        });
    }
    if options.multipv == 0 {
        return Err(OptionsError::Zero { what: "MultiPV" });
    }
    if options.multipv > MAX_MULTIPV {
        return Err(OptionsError::TooMany {
            what: "MultiPV",
            value: options.multipv,
            max: MAX_MULTIPV,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Eleven;

    #[test]
    fn the_move_history_lasts_from_search_to_search_until_the_game_is_cleared() {
        let mut engine = Searcher::<Eleven>::new(Options::default());
        let pos = Position::<Eleven>::start(Rules::default()).unwrap();
        let history = |e: &Searcher<Eleven>| e.history.lock().unwrap().clone();
        let limits = || Go {
            nodes: Some(20_000),
            ..Go::default()
        };
        engine.search(&pos, limits());
        let first = history(&engine);
        assert!(first.iter().any(|&h| h != 0), "a search learns a history");
        engine.search(&pos, limits());
        let second = history(&engine);
        assert_eq!(second.len(), first.len());
        assert_ne!(
            second, first,
            "the second search goes on from the first's history"
        );
        engine.clear();
        assert!(history(&engine).is_empty(), "a new game starts without one");
    }

    #[test]
    fn the_network_is_the_eval_files_or_else_the_built_in_one() {
        let rules = Rules::default();
        let built_in = nnue::embedded::<Eleven>().unwrap();
        let file = built_in.clone();
        assert!(
            EvalKind::Hand
                .network::<Eleven>(Some(&file), &rules)
                .is_none()
        );
        for kind in [EvalKind::Nnue, EvalKind::NnueRefresh] {
            assert!(std::ptr::eq(
                kind.network::<Eleven>(None, &rules).unwrap(),
                built_in
            ));
            assert!(std::ptr::eq(
                kind.network::<Eleven>(Some(&file), &rules).unwrap(),
                &file
            ));
        }
        let options = Options {
            net: Some(Arc::new(file)),
            ..Options::default()
        };
        assert!(std::ptr::eq(
            options.network::<Eleven>(&rules).unwrap(),
            options.net.as_deref().unwrap()
        ));
        let hand = Options {
            eval: EvalKind::Hand,
            ..options
        };
        assert!(hand.network::<Eleven>(&rules).is_none());
    }
}
