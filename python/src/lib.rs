//! The compiled half of the Python package `hnefi`: thin classes over `hnefi_core`'s embedder
//! API. Rules, move generation, notation and search all stay in the core crate; this file only
//! converts between Python and Rust values, and maps every core error to a Python exception
//! carrying the core's own message, so that nothing panics across the FFI.

use hnefi_core::board::Geometry;
use hnefi_core::board::generic::{Move, Square};
use hnefi_core::{Analysis, EngineError, Limits, Settings, Side, StopHandle};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyBytes;
use std::sync::Mutex;
use std::time::Duration;

/// A writable numpy array of `dtype` holding `bytes`: numpy is imported from Python, not
/// linked, so the package has no build-time dependency on numpy's version.
fn numpy_array<'py>(
    py: Python<'py>,
    bytes: &Bound<'py, PyBytes>,
    dtype: &str,
) -> PyResult<Bound<'py, PyAny>> {
    static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    FROMBUFFER
        .import(py, "numpy", "frombuffer")?
        .call1((bytes, dtype))?
        .call_method0("copy")
}

fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// Settings the caller chose badly are a ValueError; a thread the system would not start is not
/// the caller's doing.
fn engine_error(error: EngineError) -> PyErr {
    match error {
        EngineError::Settings(_) => PyValueError::new_err(error.to_string()),
        EngineError::Start(_) => PyRuntimeError::new_err(error.to_string()),
    }
}

/// How a game ended.
#[pyclass(module = "hnefi", frozen, eq)]
#[derive(Clone, PartialEq)]
struct Outcome {
    /// The winning side ("attackers" or "defenders"), or None for a draw.
    #[pyo3(get)]
    winner: Option<&'static str>,
    /// Why the game ended, as a short label ("king escaped", "repetition", ...).
    #[pyo3(get)]
    reason: &'static str,
    text: String,
}

#[pymethods]
impl Outcome {
    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        let winner = self.winner.map_or("None".into(), |w| format!("'{w}'"));
        format!("Outcome(winner={winner}, reason='{}')", self.reason)
    }
}

impl From<hnefi_core::Outcome> for Outcome {
    fn from(outcome: hnefi_core::Outcome) -> Outcome {
        Outcome {
            winner: outcome.winner.map(Side::name),
            reason: outcome.reason.label(),
            text: outcome.to_string(),
        }
    }
}

/// A game of tafl under any rules, on a board of 7x7 to 13x13.
#[pyclass(module = "hnefi")]
struct Game {
    game: hnefi_core::Game,
    /// What `copy()` rebuilds the game from: the core's game cannot be cloned.
    rules: String,
    start: Option<String>,
}

impl Game {
    fn side(&self) -> usize {
        usize::from(self.game.side())
    }
}

/// The action `from * n² + to` of `mv`, read by the core's notation, or its reason why not.
fn action_of<G: Geometry>(mv: &str) -> Result<usize, String> {
    let mv = Move::<G>::parse(mv).map_err(|e| e.to_string())?;
    Ok(mv.from().index() * G::SQUARES + mv.to().index())
}

/// The move text of an action, or None for an index that names no pair of squares.
fn move_of<G: Geometry>(action: usize) -> Option<String> {
    let (from, to) = (action / G::SQUARES, action % G::SQUARES);
    let from = Square::<G>::new(u8::try_from(from).ok()?)?;
    let to = Square::<G>::new(u8::try_from(to).ok()?)?;
    Some(format!("{from}-{to}"))
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = "copenhagen", fen = None))]
    fn new(rules: &str, fen: Option<&str>) -> PyResult<Game> {
        let game = hnefi_core::Game::new(rules, fen).map_err(value_error)?;
        Ok(Game {
            game,
            rules: rules.to_string(),
            start: fen.map(str::to_string),
        })
    }

    /// The legal moves as "d1-d3" strings; empty once the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// Plays `move` ("d1-d3" or "d1d3"); an illegal move raises ValueError and changes nothing.
    #[pyo3(signature = (r#move, /))]
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        self.game.play(r#move).map_err(value_error)
    }

    /// Takes back the last move; ValueError when none has been played.
    fn undo(&mut self) -> PyResult<()> {
        self.game.undo().map_err(value_error)
    }

    /// The side to move: "attackers" or "defenders".
    #[getter]
    fn turn(&self) -> &'static str {
        self.game.side_to_move().name()
    }

    /// None while the game goes on, else its Outcome.
    #[getter]
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(Outcome::from)
    }

    /// The position as a FEN.
    #[getter]
    fn fen(&self) -> String {
        self.game.fen()
    }

    /// The board's side: 7, 9, 11 or 13.
    #[getter]
    fn size(&self) -> usize {
        self.side()
    }

    /// The rules as given to the constructor.
    #[getter]
    fn rules(&self) -> &str {
        &self.rules
    }

    /// The moves played since the start, as "d1-d3".
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.moves()
    }

    /// An independent game with the same start and moves.
    fn copy(&self) -> PyResult<Game> {
        let mut copy = Game::new(&self.rules, self.start.as_deref())?;
        for mv in self.game.moves() {
            // The moves were legal here once, so this fails only if the core changed its mind:
            // a bug to report, not to hide.
            copy.game
                .play(&mv)
                .map_err(|e| PyRuntimeError::new_err(format!("copy: {e}")))?;
        }
        Ok(copy)
    }

    fn __copy__(&self) -> PyResult<Game> {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Game> {
        self.copy()
    }

    /// The leaves of the legal move tree `depth` plies deep, as `hnefi perft` counts them.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let game = &self.game;
        py.detach(|| game.perft(depth))
    }

    /// The pieces as a numpy uint8 array of shape (3, n, n): attackers, defenders, king,
    /// indexed [plane, rank, file] with a1 at [plane, 0, 0].
    fn planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let planes = self.game.planes();
        let n = planes.attackers.len();
        let bytes = PyBytes::new_with(py, 3 * n, |bytes| {
            bytes[..n].copy_from_slice(&planes.attackers);
            bytes[n..2 * n].copy_from_slice(&planes.defenders);
            bytes[2 * n..].copy_from_slice(&planes.king);
            Ok(())
        })?;
        let side = self.side();
        // A copy, not a view of the bytes: numpy's views of bytes are read-only, and a
        // learner's observation is often written to in place.
        numpy_array(py, &bytes, "uint8")?.call_method1("reshape", (3, side, side))
    }

    /// The legal moves as actions `from * n² + to` (squares indexed `rank * n + file`).
    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        let side = self.game.side();
        self.game
            .legal_moves()
            .iter()
            .map(|mv| {
                // The core wrote these moves: one it cannot read back is its bug.
                hnefi_core::with_size!(side, action_of(mv))
                    .map_err(|e| e.to_string())
                    .and_then(|read| read)
                    .map_err(PyRuntimeError::new_err)
            })
            .collect()
    }

    /// The action of a move text; ValueError if it cannot be read on this board.
    fn action(&self, r#move: &str) -> PyResult<usize> {
        hnefi_core::with_size!(self.game.side(), action_of(r#move))
            .map_err(|e| e.to_string())
            .and_then(|read| read)
            .map_err(PyValueError::new_err)
    }

    /// The move text of an action; ValueError if it is out of range.
    fn move_of(&self, action: usize) -> PyResult<String> {
        let n = self.side();
        hnefi_core::with_size!(self.game.side(), move_of(action))
            .ok()
            .flatten()
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "action {action} is not in 0..{} on a {n}x{n} board",
                    n.pow(4)
                ))
            })
    }

    /// The legal moves as a numpy bool array of n⁴ actions, True at each legal one.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.side();
        let actions = self.legal_actions()?;
        let bytes = PyBytes::new_with(py, n.pow(4), |bytes| {
            for action in actions {
                bytes[action] = 1;
            }
            Ok(())
        })?;
        numpy_array(py, &bytes, "bool")
    }

    fn __repr__(&self) -> String {
        format!("Game(rules='{}', fen='{}')", self.rules, self.game.fen())
    }
}

/// What a search found.
#[pyclass(module = "hnefi", name = "Analysis", frozen, get_all)]
struct AnalysisResult {
    /// The move to play ("d1-d3"), or None when the game is over.
    best: Option<String>,
    /// Centipawns from the attackers' view, whoever is to move.
    score: i32,
    /// Plies to the end where the search saw it: positive, the attackers win.
    win_in: Option<i32>,
    /// The expected line, the best move first.
    pv: Vec<String>,
    /// The depth of the last iteration.
    depth: u32,
    /// Nodes searched.
    nodes: u64,
}

#[pymethods]
impl AnalysisResult {
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        // Python's reprs of the fields, not Rust's Debug (`Some("d1-d3")`).
        let this = slf.get();
        let py = slf.py();
        Ok(format!(
            "Analysis(best={}, score={}, depth={}, nodes={}, pv={})",
            this.best.clone().into_pyobject(py)?.repr()?,
            this.score,
            this.depth,
            this.nodes,
            this.pv.clone().into_pyobject(py)?.repr()?
        ))
    }
}

impl From<Analysis> for AnalysisResult {
    fn from(a: Analysis) -> AnalysisResult {
        AnalysisResult {
            best: a.best,
            score: a.score_cp,
            win_in: a.win_in,
            pv: a.pv,
            depth: a.depth,
            nodes: a.nodes,
        }
    }
}

/// The search. Frozen so that `stop()` from another thread needs no borrow of a class whose
/// `analyse` runs: the engine itself sits behind a mutex.
#[pyclass(module = "hnefi", frozen)]
struct Engine {
    engine: Mutex<hnefi_core::Engine>,
    stop: StopHandle,
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (threads = 1, hash_mb = 16))]
    fn new(threads: usize, hash_mb: usize) -> PyResult<Engine> {
        let engine =
            hnefi_core::Engine::new(Settings { hash_mb, threads }).map_err(engine_error)?;
        Ok(Engine {
            stop: engine.stop_handle(),
            engine: Mutex::new(engine),
        })
    }

    /// Searches `game` until the first limit reached (milliseconds, plies, nodes) or `stop()`.
    #[pyo3(signature = (game, movetime = None, depth = None, nodes = None))]
    fn analyse(
        &self,
        py: Python<'_>,
        game: PyRef<'_, Game>,
        movetime: Option<f64>,
        depth: Option<u32>,
        nodes: Option<u64>,
    ) -> PyResult<AnalysisResult> {
        // `try_`: a time too long for a Duration (1e300 ms) is refused, not a panic.
        let time = movetime
            .map(|ms| {
                Duration::try_from_secs_f64(ms / 1000.0).map_err(|_| {
                    PyValueError::new_err(format!(
                        "movetime {ms} is not a number of milliseconds from 0"
                    ))
                })
            })
            .transpose()?;
        let limits = Limits { depth, nodes, time };
        let game = &game.game;
        let (engine, stop) = (&self.engine, &self.stop);
        let mut interrupted = None;
        let answer = py.detach(|| {
            // A search that panicked poisons the mutex; its engine holds nothing a later
            // search could trip on that `analyse` does not rebuild, so take it back.
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            // Python runs its signal handlers only when asked: ask at each finished
            // iteration, so that Ctrl-C ends a search without a limit.
            engine.analyse_with(game, limits, |_| {
                if interrupted.is_none()
                    && let Err(error) = Python::attach(|py| py.check_signals())
                {
                    interrupted = Some(error);
                    stop.stop();
                }
            })
        });
        if let Some(error) = interrupted {
            return Err(error);
        }
        answer.map(AnalysisResult::from).map_err(engine_error)
    }

    /// Stops the running search from any thread; it answers with its best move so far.
    fn stop(&self) {
        self.stop.stop();
    }

    /// Forgets what earlier searches learnt (for a new game).
    fn clear(&self, py: Python<'_>) {
        let engine = &self.engine;
        py.detach(|| engine.lock().unwrap_or_else(|e| e.into_inner()).clear());
    }
}

#[pymodule]
fn _hnefi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Engine>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<AnalysisResult>()?;
    Ok(())
}
