//! [`Engine`]: the search for a [`Game`] of any size, with limits, progress reported to the
//! caller's thread, and a [`StopHandle`] that ends it from any other.

use crate::board::Geometry;
use crate::board::sizes::{AnySize, PerSize};
use crate::board::{Move, Position};
use crate::each_size;
use crate::search::nnue::{NnueError, QuantisedNetwork};
use crate::search::size::Size;
use crate::search::{self, Info, Level, OptionsError, SearchResult, StartError};
use hnefi_rules::{Game, Positions};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Why the engine could not search.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The settings cannot be had: no threads or more than
    /// 256, or a table larger than the memory.
    #[error(transparent)]
    Settings(#[from] OptionsError),
    /// The network file of [`Settings::eval_file`] cannot be read, or is no network this build
    /// runs.
    #[error(transparent)]
    EvalFile(#[from] NnueError),
    /// The search thread could not be started.
    #[error(transparent)]
    Start(#[from] StartError),
}

impl EngineError {
    /// The system's error when the network file could not be read (missing, not allowed, a
    /// folder), for hosts that tell those apart; `None` for every other error.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        match self {
            EngineError::EvalFile(NnueError::Read { source, .. }) => Some(source),
            _ => None,
        }
    }
}

/// What the engine may use (memory for its table, threads) and how it plays (its strength and
/// its network): the settings the command line's UCI options `Hash`, `Threads`, `Skill Level`
/// and `EvalFile` set.
///
/// ```
/// use hnefi_core::{Engine, Game, Level, Limits, Settings};
///
/// let weakest = Settings { level: Level::MIN, ..Settings::default() };
/// let mut engine = Engine::new(weakest)?;
/// let game = Game::new("brandubh", None)?;
/// let analysis = engine.analyse(&game, Limits::depth(4))?;
/// assert!(game.legal_moves().contains(analysis.best.as_ref().unwrap()));
/// // A network file that is not there is refused when the engine is made.
/// let missing = Settings { eval_file: Some("no-such.nnue".into()), ..Settings::default() };
/// let refused = Engine::new(missing).err().expect("no such file");
/// assert!(refused.to_string().contains("cannot read net file no-such.nnue"), "{refused}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The transposition table's size in MiB.
    pub hash_mb: usize,
    /// Search threads, 1 to 256.
    pub threads: usize,
    /// How strongly the engine plays (UCI `Skill Level`): [`Level::MAX`] (20, the default) is
    /// full strength, [`Level::MIN`] (0) a beginner; [`Level::new`] reads a number.
    pub level: Level,
    /// A network file of `hnefi train` to evaluate with (UCI `EvalFile`), read when the engine
    /// is made; on boards of another size than the network's, and without one, the search runs
    /// the network built in for the board and rules.
    pub eval_file: Option<PathBuf>,
    /// Lines searched and reported (UCI `MultiPV`), 1 to 256: each report of
    /// [`Engine::analyse_with`] is one line, [`Analysis::multipv`] its rank.
    pub multipv: usize,
}

// The docs of `Settings::threads` and `EngineError` name the limit.
const _: () = assert!(crate::search::MAX_THREADS == 256);

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_mb: crate::search::params::DEFAULT_HASH_MB,
            threads: 1,
            level: Level::MAX,
            eval_file: None,
            multipv: 1,
        }
    }
}

/// When a search stops: at the first limit reached, or by a [`StopHandle`]. With none set the
/// search goes on until stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Time from the start of the search.
    pub time: Option<Duration>,
}

impl Limits {
    /// Search `depth` plies deep.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for `time`.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// These limits, and at most `depth` plies: `Limits::nodes(50_000).and_depth(8)`.
    pub fn and_depth(self, depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..self
        }
    }

    /// These limits, and at most `nodes` nodes.
    pub fn and_nodes(self, nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..self
        }
    }

    /// These limits, and at most `time`: `Limits::depth(12).and_time(Duration::from_secs(1))`.
    pub fn and_time(self, time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..self
        }
    }
}

/// What a search found: the whole answer at its end, and each deeper line as it searches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The move to play (`d1-d3`); `None` only when the game is over.
    pub best: Option<String>,
    /// The same move as square indices `(from, to)`, as [`Game::legal_move_indices`] gives
    /// them.
    pub best_indices: Option<(usize, usize)>,
    /// The score in centipawns from the attackers' view, whoever is to move; a win is
    /// 30,000 less the plies to it.
    pub score_cp: i32,
    /// The plies to the end of the game where the search saw it (positive: the attackers
    /// win, negative: the defenders).
    pub win_in: Option<i32>,
    /// The expected line, the best move first.
    pub pv: Vec<String>,
    /// The depth of the last iteration.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The line's rank among [`Settings::multipv`] lines, 1 for the best.
    pub multipv: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes searched a second.
    pub nps: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Time since the search started.
    pub time: Duration,
}

/// Stops the search of the [`Engine`] it came from, from any thread: the search then answers
/// with the best move found so far.
#[derive(Debug, Clone)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Stops the running search; without one, nothing happens.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The engines of an [`Engine`], one type a size.
struct Engines;

impl PerSize for Engines {
    type Of<G: Geometry> = search::Searcher<G>;
}

/// The search, for games of any size.
///
/// ```
/// use hnefi_core::{Engine, Game, Limits};
///
/// let game = Game::new("brandubh", None)?;
/// let mut engine = Engine::new(Default::default())?;
/// let analysis = engine.analyse(&game, Limits::depth(3))?;
/// assert!(game.legal_moves().contains(analysis.best.as_ref().unwrap()));
/// assert_eq!(analysis.pv[0], *analysis.best.as_ref().unwrap());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Engine {
    options: search::Options,
    stop: Arc<AtomicBool>,
    /// The engine of the last game's size; a game of another size gets a new one.
    engine: Option<AnySize<Engines>>,
}

impl Engine {
    /// An engine with these settings, its table allocated at its first search and its network
    /// file, if it has one, read now.
    pub fn new(settings: Settings) -> Result<Engine, EngineError> {
        let mut options = search::Options {
            hash_mb: settings.hash_mb,
            threads: settings.threads,
            level: settings.level,
            multipv: settings.multipv,
            ..search::Options::default()
        };
        search::check(&options)?;
        if let Some(path) = &settings.eval_file {
            options.net = Some(Arc::new(QuantisedNetwork::load(path)?));
        }
        Ok(Engine {
            options,
            stop: Arc::new(AtomicBool::new(false)),
            engine: None,
        })
    }

    /// A handle that stops this engine's running search from another thread.
    ///
    /// ```
    /// use hnefi_core::{Engine, Game, Limits};
    ///
    /// let game = Game::new("copenhagen", None)?;
    /// let mut engine = Engine::new(Default::default())?;
    /// let stop = engine.stop_handle();
    /// // With no limit the search runs until stopped: here by its first report.
    /// let analysis = engine.analyse_with(&game, Limits::default(), |_| stop.stop())?;
    /// assert!(analysis.best.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.stop.clone())
    }

    /// Searches `game` within `limits` and answers when the search ends.
    pub fn analyse(&mut self, game: &Game, limits: Limits) -> Result<Analysis, EngineError> {
        self.analyse_with(game, limits, |_| {})
    }

    /// Like [`Engine::analyse`], calling `on_info` on this thread with each finished iteration
    /// of the search while it runs.
    pub fn analyse_with(
        &mut self,
        game: &Game,
        limits: Limits,
        on_info: impl FnMut(&Analysis),
    ) -> Result<Analysis, EngineError> {
        self.analyse_watched(game, limits, on_info, Duration::MAX, || true)
    }

    /// Like [`Engine::analyse_with`], also asking `keep_going` on this thread every `every`
    /// while the search runs: the search stops, and answers, once it says `false`. This is how
    /// a caller whose thread must take part (a Python interpreter looking for Ctrl-C) ends a
    /// search at once rather than when its iteration finishes.
    ///
    /// ```
    /// use hnefi_core::{Engine, Game, Limits};
    /// use std::time::{Duration, Instant};
    ///
    /// let game = Game::new("copenhagen", None)?;
    /// let mut engine = Engine::new(Default::default())?;
    /// let deadline = Instant::now() + Duration::from_millis(50);
    /// let every = Duration::from_millis(10);
    /// let keep_going = || Instant::now() < deadline;
    /// let analysis = engine.analyse_watched(&game, Limits::default(), |_| {}, every, keep_going)?;
    /// assert!(analysis.best.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn analyse_watched(
        &mut self,
        game: &Game,
        limits: Limits,
        on_info: impl FnMut(&Analysis),
        every: Duration,
        keep_going: impl FnMut() -> bool,
    ) -> Result<Analysis, EngineError> {
        let positions: &AnySize<Positions> = game.held();
        each_size!(positions, p => self.search(p, limits, on_info, (every, keep_going)))
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.engine = None;
    }

    fn search<G: Size>(
        &mut self,
        position: &Position<G>,
        limits: Limits,
        mut on_info: impl FnMut(&Analysis),
        (every, mut keep_going): (Duration, impl FnMut() -> bool),
    ) -> Result<Analysis, EngineError> {
        let mut engine = match self.engine.take().and_then(G::unhold::<Engines>) {
            Some(engine) => engine,
            None => search::Searcher::<G>::try_new(self.options.clone())?
                .with_stopper(self.stop.clone()),
        };
        let limits = search::Go::<G> {
            depth: limits.depth,
            nodes: limits.nodes,
            movetime: limits.time,
            ..search::Go::default()
        };
        let side = position.side_to_move();
        // Without threads (WebAssembly for the web) the search runs here, reporting as it goes;
        // `keep_going` is asked at each report.
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        {
            let _ = every;
            let stop = self.stop.clone();
            let result = engine.search_here(position, limits, |info| {
                on_info(&of_info(info, side));
                if !keep_going() {
                    stop.store(true, Ordering::Relaxed);
                }
            });
            self.engine = Some(G::hold::<Engines>(engine));
            return Ok(finished(&result, side));
        }
        // Reports cross to this thread, so that `on_info` needs neither `Send` nor `'static`.
        #[allow(unreachable_code)]
        let (reports, received) = mpsc::channel();
        let report = move |info: &Info<G>| {
            let line = of_info(info, side);
            // This thread stopped listening only if it is gone: nothing to tell.
            let _ = reports.send(line);
        };
        let started = engine.start(position, limits, Box::new(report), None);
        let answer = started.map(|()| {
            let mut watching = true;
            loop {
                match received.recv_timeout(every) {
                    Ok(line) => on_info(&line),
                    // The search has ended and dropped its end of the channel.
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                }
                if watching && !keep_going() {
                    watching = false;
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
            engine.wait()
        });
        self.engine = Some(G::hold::<Engines>(engine));
        let result = answer?.unwrap_or_else(|| search::fallback_result(position, &[]));
        Ok(finished(&result, side))
    }
}

/// A move as the API writes it: `d1-d3`.
fn text<G: Geometry>(mv: &Move<G>) -> String {
    format!("{}-{}", mv.from(), mv.to())
}

/// The [`Analysis`] of a line the search reports.
fn of_info<G: Geometry>(info: &Info<G>, side: crate::board::Side) -> Analysis {
    let score = info.score.for_attackers(side);
    let best = info.pv.first();
    Analysis {
        best: best.map(text),
        best_indices: best.map(|mv| (mv.from().index(), mv.to().index())),
        score_cp: score.0,
        win_in: score.plies_to_end().map(|plies| {
            if score.0 > 0 {
                plies as i32
            } else {
                -(plies as i32)
            }
        }),
        pv: info.pv.iter().map(text).collect(),
        depth: info.depth,
        seldepth: info.seldepth,
        multipv: info.multipv,
        nodes: info.nodes,
        nps: info.nps,
        hashfull: info.hashfull,
        time: info.time,
    }
}

/// The [`Analysis`] of a search's answer: its best line, led by the move it chose, with the
/// whole search's depth and nodes.
fn finished<G: Geometry>(result: &SearchResult<G>, side: crate::board::Side) -> Analysis {
    let line = match result.lines.first() {
        Some(line) => line.clone(),
        None => Info {
            depth: result.depth,
            seldepth: result.depth,
            multipv: 1,
            score: result.score,
            nodes: result.nodes,
            nps: 0,
            hashfull: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
        },
    };
    let whole = Info {
        depth: result.depth,
        nodes: result.nodes,
        score: result.score,
        ..line
    };
    let mut answer = of_info(&whole, side);
    let best = result.best.as_ref();
    if answer.pv.first() != best.map(text).as_ref() {
        answer.pv = best.map(text).into_iter().collect();
    }
    answer.best = best.map(text);
    answer.best_indices = best.map(|mv| (mv.from().index(), mv.to().index()));
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_build_up() {
        let second = Duration::from_secs(1);
        let limits = Limits::nodes(50_000).and_depth(8).and_time(second);
        assert_eq!(
            limits,
            Limits {
                depth: Some(8),
                nodes: Some(50_000),
                time: Some(second)
            }
        );
        assert_eq!(
            Limits::depth(3).and_nodes(10),
            Limits::nodes(10).and_depth(3)
        );
    }

    #[test]
    fn several_lines_are_reported_each_with_its_rank() {
        let settings = Settings {
            multipv: 3,
            ..Settings::default()
        };
        let mut engine = Engine::new(settings).unwrap();
        let game = Game::new("brandubh", None).unwrap();
        let mut ranks = Vec::new();
        let found = engine
            .analyse_with(&game, Limits::depth(3), |line| {
                ranks.push(line.multipv);
                assert!(line.seldepth >= line.depth && line.nodes > 0);
            })
            .unwrap();
        assert_eq!(&ranks[ranks.len() - 3..], [1, 2, 3]);
        assert_eq!((found.multipv, found.depth), (1, 3));
        let too_many = Settings {
            multipv: 257,
            ..Settings::default()
        };
        let refused = Engine::new(too_many).err().expect("257 lines");
        assert_eq!(refused.to_string(), "MultiPV must be at most 256, not 257");
    }

    #[test]
    fn the_best_move_comes_as_text_and_as_indices_alike() {
        let mut engine = Engine::new(Settings::default()).unwrap();
        for rules in ["brandubh", "copenhagen"] {
            let game = Game::new(rules, None).unwrap();
            let found = engine.analyse(&game, Limits::nodes(3_000)).unwrap();
            let (best, indices) = (found.best.unwrap(), found.best_indices.unwrap());
            let at = game.legal_moves().iter().position(|m| *m == best).unwrap();
            assert_eq!(game.legal_move_indices()[at], indices, "{rules}");
            assert_eq!(found.pv.first(), Some(&best));
        }
    }
}
