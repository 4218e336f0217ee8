//! The compiled half of the Python package `hnefi`: thin classes over `hnefi_core`'s embedder
//! API. Rules, move generation, notation and search all stay in the core crate; this file only
//! converts between Python and Rust values, and maps every core error to a Python exception
//! carrying the core's own message, so that nothing panics across the FFI.

use hnefi_core::rules::SIDES;
use hnefi_core::{Analysis, EngineError, Level, Limits, PLANES, Settings, Side, StopHandle};
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyRuntimeError,
    PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString};
use std::io::ErrorKind;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// How often a search asks Python whether a signal (Ctrl-C) is waiting.
const SIGNALS_EVERY: Duration = Duration::from_millis(50);

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

/// A writable numpy array of `dtype` and `shape` over `len` bytes that `fill` writes: a
/// bytearray's buffer, taken by numpy without a copy.
fn numpy_filled<'py, S: IntoPyObject<'py>>(
    py: Python<'py>,
    len: usize,
    dtype: &str,
    shape: S,
    fill: impl FnOnce(&mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let bytes = PyByteArray::new_with(py, len, |bytes| {
        fill(bytes);
        Ok(())
    })?;
    FROMBUFFER
        .import(py, "numpy", "frombuffer")?
        .call1((bytes, dtype))?
        .call_method1("reshape", (shape,))
}

/// Writes `values` into `bytes` in the machine's order, as numpy reads them.
fn write_ne<const N: usize, T: Copy>(bytes: &mut [u8], values: &[T], to_ne: impl Fn(T) -> [u8; N]) {
    for (chunk, &v) in bytes.chunks_exact_mut(N).zip(values) {
        chunk.copy_from_slice(&to_ne(v));
    }
}

fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// Settings the caller chose badly are a ValueError; a network file that cannot be read the
/// OSError of its reason (FileNotFoundError, ...); a thread the system would not start is not
/// the caller's doing.
fn engine_error(error: EngineError) -> PyErr {
    let message = error.to_string();
    if let Some(io) = error.io_error() {
        return match io.kind() {
            ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
            ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
            ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
            _ => PyOSError::new_err(message),
        };
    }
    match error {
        EngineError::Settings(_) => PyValueError::new_err(message),
        EngineError::EvalFile(_) => PyValueError::new_err(message),
        EngineError::Start(_) => PyRuntimeError::new_err(message),
    }
}

/// The text of every move a rook's path allows on the board of `G`, at `from * n² + to`
/// (None elsewhere): made once a size, so that `legal_moves()` hands out shared strings
/// instead of spelling each move anew.
fn move_texts(py: Python<'_>, game: &hnefi_core::Game) -> Vec<Option<Py<PyString>>> {
    let n = usize::from(game.width());
    let squares = n * n;
    (0..squares * squares)
        .map(|action| {
            let (from, to) = (action / squares, action % squares);
            let in_line = from != to && (from / n == to / n || from % n == to % n);
            in_line
                .then(|| game.move_text(from, to))
                .flatten()
                .map(|text| PyString::intern(py, &text).unbind())
        })
        .collect()
}

/// [`move_texts`] of the board of `game`, made at the first use of its size.
fn move_text_table(
    py: Python<'_>,
    game: &hnefi_core::Game,
) -> PyResult<&'static [Option<Py<PyString>>]> {
    static TABLES: [PyOnceLock<Vec<Option<Py<PyString>>>>; 4] = [
        PyOnceLock::new(),
        PyOnceLock::new(),
        PyOnceLock::new(),
        PyOnceLock::new(),
    ];
    let side = game.width();
    let slot = SIDES
        .iter()
        .position(|&s| s == side)
        .ok_or_else(|| PyRuntimeError::new_err(format!("no board of side {side}")))?;
    Ok(TABLES[slot].get_or_init(py, || move_texts(py, game)))
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
}

impl Game {
    fn side(&self) -> usize {
        usize::from(self.game.width())
    }

    /// The legal moves as actions `from * n² + to`.
    fn actions(&self) -> Vec<usize> {
        let squares = self.side().pow(2);
        self.game
            .legal_move_indices()
            .into_iter()
            .map(|(from, to)| from * squares + to)
            .collect()
    }
}

/// The action `from * n² + to` of `mv`, read by the core's notation, or its reason why not.
#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = "copenhagen", fen = None))]
    fn new(rules: &str, fen: Option<&str>) -> PyResult<Game> {
        let game = hnefi_core::Game::new(rules, fen).map_err(value_error)?;
        Ok(Game { game })
    }

    /// A game read from one line of the community's record format, every move replayed and
    /// checked; `rules` for a line that names none (else Copenhagen).
    #[staticmethod]
    #[pyo3(signature = (text, rules = None))]
    fn from_record(text: &str, rules: Option<&str>) -> PyResult<Game> {
        let game = hnefi_core::Game::from_record(text, rules).map_err(value_error)?;
        Ok(Game { game })
    }

    /// The game as one line of the community's record format.
    fn to_record(&self) -> String {
        self.game.to_record()
    }

    /// A game read from the text of an OpenTafl saved game (.otg), its main line replayed.
    #[staticmethod]
    fn from_otg(text: &str) -> PyResult<Game> {
        let game = hnefi_core::Game::from_otg(text).map_err(value_error)?;
        Ok(Game { game })
    }

    /// The game as OpenTafl saves it (.otg).
    fn to_otg(&self) -> String {
        self.game.to_otg()
    }

    /// The legal moves as "d1-d3" strings; empty once the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let table = move_text_table(py, &self.game)?;
        let texts = self.actions().into_iter().map(|action| {
            // A legal move runs along a rank or a file: the table has its text.
            table[action]
                .as_ref()
                .map(|text| text.clone_ref(py))
                .ok_or_else(|| PyRuntimeError::new_err(format!("no text for action {action}")))
        });
        PyList::new(py, texts.collect::<PyResult<Vec<_>>>()?)
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

    /// The rules' name: the preset's ("copenhagen"), or the OpenTafl rules string.
    #[getter]
    fn rules(&self) -> &str {
        self.game.rules_name()
    }

    /// The moves played since the start, as "d1-d3".
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.moves()
    }

    /// An independent game with the same start and moves.
    fn copy(&self) -> Game {
        Game {
            game: self.game.clone(),
        }
    }

    fn __copy__(&self) -> Game {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.copy()
    }

    /// The leaves of the legal move tree `depth` plies deep, as `hnefi perft` counts them.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let game = &self.game;
        py.detach(|| game.perft(depth))
    }

    /// The position as a numpy uint8 array of shape (4, n, n): attackers, defenders, king,
    /// and a plane of 1s when the attackers are to move (0s for the defenders), indexed
    /// [plane, rank, file] with a1 at [plane, 0, 0].
    fn planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let planes = self.game.planes();
        let bytes = PyBytes::new(py, &planes);
        let side = self.side();
        // A copy, not a view of the bytes: numpy's views of bytes are read-only, and a
        // learner's observation is often written to in place.
        numpy_array(py, &bytes, "uint8")?.call_method1("reshape", (PLANES, side, side))
    }

    /// The legal moves as actions `from * n² + to` (squares indexed `rank * n + file`).
    fn legal_actions(&self) -> Vec<usize> {
        self.actions()
    }

    /// Plays the move of an action; ValueError for one out of range or not legal here.
    #[pyo3(signature = (action, /))]
    fn play_action(&mut self, action: i64) -> PyResult<()> {
        let squares = self.side().pow(2);
        let action = usize::try_from(action)
            .ok()
            .filter(|&a| a < squares * squares)
            .ok_or_else(|| self.out_of_range(action))?;
        self.game
            .play_indices(action / squares, action % squares)
            .map_err(value_error)
    }

    /// The action of a move text; ValueError if it cannot be read on this board.
    fn action(&self, r#move: &str) -> PyResult<usize> {
        let squares = self.side().pow(2);
        let (from, to) = self.game.move_indices(r#move).map_err(value_error)?;
        Ok(from * squares + to)
    }

    /// The move text of an action; ValueError if it is out of range.
    fn move_of(&self, action: usize) -> PyResult<String> {
        let squares = self.side().pow(2);
        (action < squares * squares)
            .then(|| self.game.move_text(action / squares, action % squares))
            .flatten()
            .ok_or_else(|| self.out_of_range(action))
    }

    /// The legal moves as a numpy bool array of n⁴ actions, True at each legal one.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.side();
        let actions = self.actions();
        let bytes = PyBytes::new_with(py, n.pow(4), |bytes| {
            for action in actions {
                bytes[action] = 1;
            }
            Ok(())
        })?;
        numpy_array(py, &bytes, "bool")
    }

    /// The board as text, the last rank at the top: `a` attackers, `d` defenders, `k` the
    /// king, `+` an empty corner or throne, `.` other empty squares, the files' letters below.
    fn __str__(&self) -> String {
        self.game.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(rules='{}', fen='{}')",
            self.game.rules_name(),
            self.game.fen()
        )
    }
}

impl Game {
    fn out_of_range(&self, action: impl std::fmt::Display) -> PyErr {
        let n = self.side();
        PyValueError::new_err(format!(
            "action {action} is not in 0..{} on a {n}x{n} board",
            n.pow(4)
        ))
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
    #[pyo3(signature = (threads = 1, hash_mb = 16, level = 20, eval_file = None))]
    fn new(threads: i64, hash_mb: i64, level: i64, eval_file: Option<PathBuf>) -> PyResult<Engine> {
        // 0 and below are ValueErrors, not an OverflowError or a table of no size.
        let count = |what: &str, n: i64| {
            usize::try_from(n)
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| PyValueError::new_err(format!("{what} must be at least 1, not {n}")))
        };
        // Below 0: the core's "a level is a whole number from 0 to 20".
        let level = u64::try_from(level)
            .map_err(|_| hnefi_core::LevelError::NotANumber)
            .and_then(Level::new)
            .map_err(value_error)?;
        let settings = Settings {
            hash_mb: count("hash_mb", hash_mb)?,
            threads: count("threads", threads)?,
            level,
            eval_file,
            ..Settings::default()
        };
        let engine = hnefi_core::Engine::new(settings).map_err(engine_error)?;
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
        depth: Option<i64>,
        nodes: Option<i64>,
    ) -> PyResult<AnalysisResult> {
        // Any int is taken, so that a bad one is a ValueError that says what would do, never
        // an OverflowError.
        let at_least_one = |what: &str, n: Option<i64>| {
            n.map(|n| {
                u64::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| {
                    PyValueError::new_err(format!("{what} must be at least 1, not {n}"))
                })
            })
            .transpose()
        };
        let depth = at_least_one("depth", depth)?.map(|d| u32::try_from(d).unwrap_or(u32::MAX));
        let nodes = at_least_one("nodes", nodes)?;
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
        let engine = &self.engine;
        let mut interrupted = None;
        let answer = py.detach(|| {
            // A search that panicked poisons the mutex; its engine holds nothing a later
            // search could trip on that `analyse` does not rebuild, so take it back.
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            // Python runs its signal handlers only when asked: ask every 50 ms, so that
            // Ctrl-C ends even a search without a limit at once.
            let keep_going = || match Python::attach(|py| py.check_signals()) {
                Ok(()) => true,
                Err(error) => {
                    interrupted = Some(error);
                    false
                }
            };
            engine.analyse_watched(game, limits, |_| {}, SIGNALS_EVERY, keep_going)
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

/// Many games of one board and rules stepped together: one call a ply for all of them, the
/// games spread over the cores, and numpy arrays in and out.
#[pyclass(module = "hnefi")]
struct Batch {
    batch: hnefi_core::Batch,
}

impl Batch {
    fn side(&self) -> usize {
        usize::from(self.batch.width())
    }

    /// The batch's flags as a numpy bool array.
    fn flags<'py>(&self, py: Python<'py>, flags: &[bool]) -> PyResult<Bound<'py, PyAny>> {
        numpy_filled(py, flags.len(), "bool", (flags.len(),), |b| {
            for (byte, &flag) in b.iter_mut().zip(flags) {
                *byte = u8::from(flag);
            }
        })
    }
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (count, rules = "copenhagen", fen = None, max_plies = None, seed = 0))]
    fn new(
        count: i64,
        rules: &str,
        fen: Option<&str>,
        max_plies: Option<i64>,
        seed: u64,
    ) -> PyResult<Batch> {
        let count = usize::try_from(count)
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| {
                PyValueError::new_err(format!("count must be at least 1, not {count}"))
            })?;
        let max_plies = max_plies
            .map(|m| {
                u32::try_from(m).ok().filter(|&m| m >= 1).ok_or_else(|| {
                    PyValueError::new_err(format!("max_plies must be at least 1, not {m}"))
                })
            })
            .transpose()?;
        let start = hnefi_core::Game::new(rules, fen).map_err(value_error)?;
        let batch = hnefi_core::Batch::new(&start, count, max_plies, seed).map_err(value_error)?;
        Ok(Batch { batch })
    }

    fn __len__(&self) -> usize {
        self.batch.len()
    }

    /// The board's side: 7, 9, 11 or 13.
    #[getter]
    fn size(&self) -> usize {
        self.side()
    }

    /// Plays one action a game (a sequence or array of ints, `from * n**2 + to`); returns the
    /// rewards for each game's mover (float32: +1 won, -1 lost, else 0), and which games the
    /// rules ended and which the ply limit did (bool). ValueError, and no game changed, for
    /// actions not one a game, out of range, not legal, or for a game already finished.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        static CONTIGUOUS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let array = CONTIGUOUS
            .import(py, "numpy", "ascontiguousarray")?
            .call1((actions, "int64"))?;
        if array.getattr("ndim")?.extract::<usize>()? != 1 {
            return Err(PyValueError::new_err(format!(
                "actions must be one int a game, a flat sequence of {}; got shape {}",
                self.batch.len(),
                array.getattr("shape")?
            )));
        }
        let bytes = array.call_method0("tobytes")?;
        let bytes = bytes.cast::<PyBytes>()?.as_bytes();
        let actions: Vec<i64> = bytes
            .chunks_exact(8)
            .map(|c| i64::from_ne_bytes(c.try_into().expect("eight bytes")))
            .collect();
        let batch = &mut self.batch;
        py.detach(|| batch.step(&actions)).map_err(value_error)?;
        let rewards = self.batch.rewards();
        let count = rewards.len();
        let rewards = numpy_filled(py, 4 * count, "float32", (count,), |b| {
            write_ne(b, rewards, f32::to_ne_bytes)
        })?;
        Ok((
            rewards,
            self.flags(py, self.batch.terminated())?,
            self.flags(py, self.batch.truncated())?,
        ))
    }

    /// Starts the games `games` (indices; every game if None) again from the start.
    #[pyo3(signature = (games = None))]
    fn reset(&mut self, games: Option<Vec<i64>>) -> PyResult<()> {
        let count = self.batch.len();
        let games = games
            .map(|games| {
                games
                    .into_iter()
                    .map(|g| {
                        usize::try_from(g).map_err(|_| {
                            PyValueError::new_err(format!(
                                "game {g} is not in this batch of {count} games (0..{count})"
                            ))
                        })
                    })
                    .collect::<PyResult<Vec<usize>>>()
            })
            .transpose()?;
        self.batch.reset(games.as_deref()).map_err(value_error)
    }

    /// The legal actions, int64 of shape (count, most): each game's row holds its own, in
    /// the order of `Game.legal_actions()`, then -1; and how many each game has (int64), none
    /// for a finished game.
    fn legal_actions<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let count = self.batch.len();
        let batch = &mut self.batch;
        let counts = py.detach(|| batch.legal_counts());
        let width = counts.iter().copied().max().unwrap_or(0);
        let legal = numpy_filled(py, 8 * count * width, "int64", (count, width), |b| {
            // Straight into the array's buffer where it is aligned for i64, as allocators
            // give it; through a copy where not. SAFETY: any bytes are a valid i64.
            let (head, aligned, _) = unsafe { b.align_to_mut::<i64>() };
            if head.is_empty() && aligned.len() == count * width {
                py.detach(|| batch.legal_actions(aligned, width));
            } else {
                let mut legal = vec![0; count * width];
                py.detach(|| batch.legal_actions(&mut legal, width));
                write_ne(b, &legal, i64::to_ne_bytes);
            }
        })?;
        let counts: Vec<i64> = counts.iter().map(|&c| c as i64).collect();
        Ok((
            legal,
            numpy_filled(py, 8 * count, "int64", (count,), |b| {
                write_ne(b, &counts, i64::to_ne_bytes)
            })?,
        ))
    }

    /// A legal action of each game drawn uniformly at random from the game's own stream
    /// (seeded by the batch's `seed`), -1 for a finished game: int64 of shape (count,).
    fn sample<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let count = self.batch.len();
        let mut actions = vec![0; count];
        let batch = &mut self.batch;
        py.detach(|| batch.sample(&mut actions));
        numpy_filled(py, 8 * count, "int64", (count,), |b| {
            write_ne(b, &actions, i64::to_ne_bytes)
        })
    }

    /// The legal actions as masks, bool of shape (count, n**4), all False for a finished game.
    fn action_masks<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let count = self.batch.len();
        let width = self.side().pow(4);
        let batch = &mut self.batch;
        numpy_filled(py, count * width, "bool", (count, width), |b| {
            py.detach(|| batch.action_masks(b))
        })
    }

    /// The positions as `Game.planes()` gives them: uint8 of shape (count, 4, n, n).
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let count = self.batch.len();
        let n = self.side();
        let batch = &self.batch;
        numpy_filled(
            py,
            count * PLANES * n * n,
            "uint8",
            (count, PLANES, n, n),
            |b| py.detach(|| batch.observations(b)),
        )
    }

    /// Game `index` as a `Game` of its own: its moves, position and outcome.
    fn game(&self, index: i64) -> PyResult<Game> {
        let count = self.batch.len();
        usize::try_from(index)
            .ok()
            .filter(|&i| i < count)
            .map(|i| Game {
                game: self.batch.game(i),
            })
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "game {index} is not in this batch of {count} games (0..{count})"
                ))
            })
    }

    fn __repr__(&self) -> String {
        format!(
            "Batch(count={}, rules='{}')",
            self.batch.len(),
            self.batch.game(0).rules_name()
        )
    }
}

#[pymodule]
fn _hnefi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Game>()?;
    m.add_class::<Batch>()?;
    m.add_class::<Engine>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<AnalysisResult>()?;
    Ok(())
}
