//! Hnefi in WebAssembly: the [`Game`] and [`Engine`] of `hnefi-core` behind a C-style interface
//! of numbers and UTF-8 text, which `web/hnefi.js` wraps as the npm package's classes.
//!
//! The calling convention, the same for every export:
//! - text goes in as a pointer and a length into memory the caller took with [`hnefi_alloc`]
//!   (and gives back with [`hnefi_free`]);
//! - a call answers a number: a handle or a count when it is 0 or more, `-1` when it failed;
//! - a call's text answer (a state as JSON, a count too large for a number, or the reason it
//!   failed, in the rules' own words) waits in one buffer, read with [`hnefi_out_ptr`] and
//!   [`hnefi_out_len`] until the next call.
//!
//! Games and engines are held here and named by handles. A search runs on the caller's thread
//! and reports each line through the import `hnefi.info(ptr, len)` (JSON), so that a Worker
//! can pass the lines on while it searches; the search's clock is the import `hnefi.now_ms`
//! (see `hnefi_core`).

use hnefi_core::{Analysis, Engine, Game, Level, Limits, Outcome, Settings};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::time::Duration;

thread_local! {
    static OUT: RefCell<String> = const { RefCell::new(String::new()) };
    static GAMES: RefCell<Vec<Option<Game>>> = const { RefCell::new(Vec::new()) };
    static ENGINES: RefCell<Vec<Option<Engine>>> = const { RefCell::new(Vec::new()) };
}

/// The answer of a call: `Ok(n)` answers `n`, `Err(why)` answers -1 with `why` to read.
type Answer = Result<i32, String>;

fn answer(result: Answer) -> i32 {
    match result {
        Ok(n) => n,
        Err(why) => {
            say(why);
            -1
        }
    }
}

/// Leaves `text` in the buffer for the caller to read.
fn say(text: String) {
    OUT.with(|out| *out.borrow_mut() = text);
}

/// The text at `ptr`, `len` bytes of UTF-8.
///
/// # Safety
/// `ptr` and `len` are a region the caller wrote (from [`hnefi_alloc`]), or `len` is 0.
unsafe fn text<'a>(ptr: *const u8, len: usize) -> Result<&'a str, String> {
    if len == 0 {
        return Ok("");
    }
    // SAFETY: the caller's promise above.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    std::str::from_utf8(bytes).map_err(|e| format!("text that is not UTF-8: {e}"))
}

/// Memory for `len` bytes of text the caller writes and passes to a call.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_alloc(len: usize) -> *mut u8 {
    let mut bytes = Vec::<u8>::with_capacity(len.max(1));
    let ptr = bytes.as_mut_ptr();
    std::mem::forget(bytes);
    ptr
}

/// Gives back memory of [`hnefi_alloc`].
///
/// # Safety
/// `ptr` came from `hnefi_alloc(len)` and is not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hnefi_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller's promise: a vector of this capacity, given up by hnefi_alloc.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// Where the last call's text answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_out_ptr() -> *const u8 {
    OUT.with(|out| out.borrow().as_ptr())
}

/// The last call's text answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_out_len() -> usize {
    OUT.with(|out| out.borrow().len())
}

fn hold<T>(slots: &'static std::thread::LocalKey<RefCell<Vec<Option<T>>>>, item: T) -> Answer {
    slots.with(|slots| {
        let mut slots = slots.borrow_mut();
        let at = match slots.iter().position(Option::is_none) {
            Some(free) => free,
            None => {
                slots.push(None);
                slots.len() - 1
            }
        };
        slots[at] = Some(item);
        i32::try_from(at).map_err(|_| "too many games or engines held".to_string())
    })
}

fn with_game<T>(handle: i32, f: impl FnOnce(&mut Game) -> Result<T, String>) -> Result<T, String> {
    GAMES.with(|games| {
        let mut games = games.borrow_mut();
        let game = usize::try_from(handle)
            .ok()
            .and_then(|i| games.get_mut(i))
            .and_then(Option::as_mut)
            .ok_or_else(|| format!("no game {handle}: it was freed, or never made"))?;
        f(game)
    })
}

/// A new game under `rules` (a preset's name or an OpenTafl rules string) from its start, or
/// from `fen` when one is given: its handle.
///
/// # Safety
/// Text arguments as [`text`] says.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hnefi_game_new(
    rules: *const u8,
    rules_len: usize,
    fen: *const u8,
    fen_len: usize,
) -> i32 {
    answer((|| {
        // SAFETY: the caller's promise.
        let (rules, fen) = unsafe { (text(rules, rules_len)?, text(fen, fen_len)?) };
        let fen = (!fen.trim().is_empty()).then_some(fen);
        let game = Game::new(rules, fen).map_err(|e| e.to_string())?;
        hold(&GAMES, game)
    })())
}

/// A game read from a record (a line of `data/copenhagen.csv`: `d1-d3 e5-e2xe3,1,0,Ongoing`),
/// from an OpenTafl `.otg` file's text when it starts with `[`, or from moves alone
/// (`d1-d3 e5-e2`) played from the start of `rules`: its handle.
///
/// # Safety
/// Text arguments as [`text`] says.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hnefi_game_from_record(
    record: *const u8,
    record_len: usize,
    rules: *const u8,
    rules_len: usize,
) -> i32 {
    answer((|| {
        // SAFETY: the caller's promise.
        let (record, rules) = unsafe { (text(record, record_len)?, text(rules, rules_len)?) };
        let rules = (!rules.trim().is_empty()).then_some(rules);
        let game = if record.trim_start().starts_with('[') {
            Game::from_otg(record).map_err(|e| e.to_string())?
        } else if record.contains(',') {
            Game::from_record(record, rules).map_err(|e| e.to_string())?
        } else {
            let mut game =
                Game::new(rules.unwrap_or("copenhagen"), None).map_err(|e| e.to_string())?;
            for (i, mv) in record.split_whitespace().enumerate() {
                game.play(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
            }
            game
        };
        hold(&GAMES, game)
    })())
}

/// A copy of game `handle`: its handle.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_game_clone(handle: i32) -> i32 {
    answer(with_game(handle, |game| Ok(game.clone())).and_then(|copy| hold(&GAMES, copy)))
}

/// Forgets game `handle`.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_game_free(handle: i32) {
    GAMES.with(|games| {
        let mut games = games.borrow_mut();
        if let Some(slot) = usize::try_from(handle).ok().and_then(|i| games.get_mut(i)) {
            *slot = None;
        }
    });
}

fn outcome(outcome: Option<Outcome>) -> Value {
    match outcome {
        None => Value::Null,
        Some(o) => json!({
            "winner": o.winner.map(|side| side.name()),
            "reason": o.reason.describe(),
            "text": o.to_string(),
        }),
    }
}

/// Game `handle` as JSON: `rules`, `width`, `fen`, `sideToMove`, `moves`, `legalMoves`,
/// `outcome` (null, or `winner` (null for a draw), `reason` and `text`), `record`.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_game_state(handle: i32) -> i32 {
    answer(with_game(handle, |game| {
        let state = json!({
            "rules": game.rules_name(),
            "width": game.width(),
            "fen": game.fen(),
            "sideToMove": game.side_to_move().name(),
            "moves": game.moves(),
            "legalMoves": game.legal_moves(),
            "outcome": outcome(game.outcome()),
            "record": game.to_record(),
        });
        say(state.to_string());
        Ok(0)
    }))
}

/// Game `handle` as an OpenTafl `.otg` file.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_game_otg(handle: i32) -> i32 {
    answer(with_game(handle, |game| {
        say(game.to_otg());
        Ok(0)
    }))
}

/// Plays `mv` (`d1-d3`, `d1d3`) in game `handle`; refused, and the game unchanged, unless it
/// is legal.
///
/// # Safety
/// Text arguments as [`text`] says.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hnefi_game_play(handle: i32, mv: *const u8, mv_len: usize) -> i32 {
    answer(with_game(handle, |game| {
        // SAFETY: the caller's promise.
        let mv = unsafe { text(mv, mv_len)? };
        game.play(mv).map_err(|e| e.to_string())?;
        Ok(0)
    }))
}

/// Takes back the last move of game `handle`.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_game_undo(handle: i32) -> i32 {
    answer(with_game(handle, |game| {
        game.undo().map_err(|e| e.to_string())?;
        Ok(0)
    }))
}

/// The leaves of game `handle`'s move tree `depth` plies deep, as decimal text (a count may
/// pass what a JavaScript number holds exactly).
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_game_perft(handle: i32, depth: u32) -> i32 {
    answer(with_game(handle, |game| {
        say(game.perft(depth).to_string());
        Ok(0)
    }))
}

/// A new engine: `hash_mb` MiB of table, `level` 0 (a beginner) to 20 (full strength),
/// `multipv` lines: its handle.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_engine_new(hash_mb: u32, level: u32, multipv: u32) -> i32 {
    answer((|| {
        let level = Level::new(u64::from(level)).map_err(|e| e.to_string())?;
        let settings = Settings {
            hash_mb: hash_mb as usize,
            threads: 1,
            level,
            multipv: multipv as usize,
            ..Settings::default()
        };
        let engine = Engine::new(settings).map_err(|e| e.to_string())?;
        hold(&ENGINES, engine)
    })())
}

/// Forgets engine `handle`.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_engine_free(handle: i32) {
    ENGINES.with(|engines| {
        let mut engines = engines.borrow_mut();
        if let Some(slot) = usize::try_from(handle)
            .ok()
            .and_then(|i| engines.get_mut(i))
        {
            *slot = None;
        }
    });
}

/// Engine `handle` forgets what its searches learnt (a new game).
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_engine_clear(handle: i32) -> i32 {
    answer(take_engine(handle).map(|mut engine| {
        engine.clear();
        give_back(handle, engine);
        0
    }))
}

/// The engine out of its slot for a search, so that a report's callback that calls back in
/// finds it busy rather than borrowed twice.
fn take_engine(handle: i32) -> Result<Engine, String> {
    ENGINES.with(|engines| {
        let mut engines = engines.borrow_mut();
        let slot = usize::try_from(handle)
            .ok()
            .and_then(|i| engines.get_mut(i))
            .ok_or_else(|| format!("no engine {handle}: it was freed, or never made"))?;
        slot.take()
            .ok_or_else(|| format!("engine {handle} is searching, or was freed"))
    })
}

fn give_back(handle: i32, engine: Engine) {
    ENGINES.with(|engines| {
        let mut engines = engines.borrow_mut();
        if let Some(slot) = usize::try_from(handle)
            .ok()
            .and_then(|i| engines.get_mut(i))
        {
            *slot = Some(engine);
        }
    });
}

/// An analysis line as the package's JavaScript objects have it.
fn line(a: &Analysis) -> Value {
    json!({
        "best": a.best,
        "score": a.score_cp,
        "winIn": a.win_in,
        "pv": a.pv,
        "depth": a.depth,
        "seldepth": a.seldepth,
        "multipv": a.multipv,
        "nodes": a.nodes,
        "nps": a.nps,
        "hashfull": a.hashfull,
        "timeMs": a.time.as_secs_f64() * 1000.0,
    })
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[link(wasm_import_module = "hnefi")]
unsafe extern "C" {
    /// Hears one analysis line, JSON of `len` bytes at `ptr`, while the search runs.
    fn info(ptr: *const u8, len: usize);
}

/// Passes a line to the host while the search runs (nowhere outside WebAssembly).
fn report(text: &str) {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    // SAFETY: the import reads `len` bytes at `ptr` during the call and keeps nothing.
    unsafe {
        info(text.as_ptr(), text.len())
    };
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let _ = text;
}

/// The limits of a call: each a number of at least 1, or below 0 for none.
fn limits(depth: f64, nodes: f64, time_ms: f64) -> Result<Limits, String> {
    let given = |name: &str, value: f64, most: f64| -> Result<Option<f64>, String> {
        if value.is_nan() || (0.0..1.0).contains(&value) || value > most {
            Err(format!(
                "{name} {value}: must be at least 1 and at most {most}"
            ))
        } else {
            Ok((value >= 1.0).then_some(value))
        }
    };
    let limits = Limits {
        depth: given("depth", depth, 255.0)?.map(|d| d as u32),
        nodes: given("nodes", nodes, 1e15)?.map(|n| n as u64),
        time: given("time", time_ms, 1e10)?.map(|t| Duration::from_secs_f64(t / 1000.0)),
    };
    if limits == Limits::default() {
        return Err("give a limit (depth, nodes or time): a search here runs until one".into());
    }
    Ok(limits)
}

/// Searches game `game` with engine `engine` within the limits (each below 0 for none, one at
/// least given), reporting each line through `hnefi.info`; the answer, JSON of the best line
/// (`best` null where the game is over), waits in the buffer.
#[unsafe(no_mangle)]
pub extern "C" fn hnefi_engine_analyse(
    engine: i32,
    game: i32,
    depth: f64,
    nodes: f64,
    time_ms: f64,
) -> i32 {
    answer((|| {
        let limits = limits(depth, nodes, time_ms)?;
        let position = with_game(game, |g| Ok(g.clone()))?;
        let mut searcher = take_engine(engine)?;
        let found = searcher.analyse_with(&position, limits, |a| report(&line(a).to_string()));
        give_back(engine, searcher);
        let found = found.map_err(|e| e.to_string())?;
        say(line(&found).to_string());
        Ok(0)
    })())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out() -> String {
        OUT.with(|out| out.borrow().clone())
    }

    fn call_text(
        f: unsafe extern "C" fn(*const u8, usize, *const u8, usize) -> i32,
        a: &str,
        b: &str,
    ) -> i32 {
        // SAFETY: the strings outlive the call.
        unsafe { f(a.as_ptr(), a.len(), b.as_ptr(), b.len()) }
    }

    #[test]
    fn a_game_is_made_played_and_refused_in_the_rules_words() {
        let game = call_text(hnefi_game_new, "brandubh", "");
        assert!(game >= 0, "{}", out());
        assert_eq!(hnefi_game_perft(game, 2), 0);
        assert_eq!(out(), "944");
        assert_eq!(hnefi_game_state(game), 0);
        let state: Value = serde_json::from_str(&out()).unwrap();
        let first = state["legalMoves"][0].as_str().unwrap().to_string();
        let illegal = "a1-a2";
        // SAFETY: the strings outlive the calls.
        unsafe {
            assert_eq!(hnefi_game_play(game, illegal.as_ptr(), illegal.len()), -1);
            assert!(out().starts_with("move 'a1-a2': "), "{}", out());
            assert_eq!(hnefi_game_play(game, first.as_ptr(), first.len()), 0);
        }
        assert_eq!(hnefi_game_state(game), 0);
        let after: Value = serde_json::from_str(&out()).unwrap();
        assert_eq!(after["moves"], json!([first]));
        assert_eq!(hnefi_game_undo(game), 0);
        assert_eq!(hnefi_game_undo(game), -1);
        assert_eq!(out(), "no move to undo");
        hnefi_game_free(game);
        assert_eq!(hnefi_game_state(game), -1);
        assert!(call_text(hnefi_game_new, "chess", "") < 0);
        assert!(out().contains("copenhagen"), "{}", out());
    }

    #[test]
    fn the_engine_answers_a_legal_move_and_refuses_bad_limits() {
        let game = call_text(hnefi_game_new, "brandubh", "");
        let engine = hnefi_engine_new(16, 20, 2);
        assert!(engine >= 0, "{}", out());
        assert_eq!(
            hnefi_engine_analyse(engine, game, 3.0, -1.0, -1.0),
            0,
            "{}",
            out()
        );
        let best: Value = serde_json::from_str(&out()).unwrap();
        assert_eq!(best["depth"], 3);
        hnefi_game_state(game);
        let state: Value = serde_json::from_str(&out()).unwrap();
        assert!(
            state["legalMoves"]
                .as_array()
                .unwrap()
                .contains(&best["best"])
        );
        for (depth, nodes, time, why) in [
            (-1.0, -1.0, -1.0, "give a limit"),
            (0.5, -1.0, -1.0, "depth 0.5: must be at least 1"),
            (f64::NAN, -1.0, -1.0, "depth NaN"),
        ] {
            assert_eq!(hnefi_engine_analyse(engine, game, depth, nodes, time), -1);
            assert!(out().starts_with(why), "{}", out());
        }
        assert_eq!(hnefi_engine_new(16, 21, 1), -1);
        assert_eq!(hnefi_engine_new(16, 20, 0), -1);
        hnefi_engine_free(engine);
        assert_eq!(hnefi_engine_analyse(engine, game, 1.0, -1.0, -1.0), -1);
    }
}
