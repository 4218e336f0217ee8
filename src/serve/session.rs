//! The sessions: one per page, each a thread of its own that owns the page's game and engine
//! and takes its requests one at a time, so that a slow request of one page (a new engine, a
//! search stopping) never holds up another. A session ends when its page stops listening to
//! its events (the page was closed or reloaded), when no page listens within a while of its
//! start, or after long silence; its search stops and its memory goes with it.

use super::api::{Event, Export, NewGame, Request, View};
use super::error::ApiError;
use super::load;
use super::table::{Desk, Exported, Seat};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long sessions wait for their pages.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// For a new session's page to listen to its events.
    pub attach: Duration,
    /// For a request from the page.
    pub idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            attach: Duration::from_secs(30),
            idle: Duration::from_secs(30 * 60),
        }
    }
}

/// Events waiting for a page that does not read them; beyond, analysis lines are dropped.
const EVENT_BACKLOG: usize = 256;

pub type Reply<T> = tokio::sync::oneshot::Sender<Result<T, ApiError>>;

/// What a session's thread is told.
pub enum Msg {
    Do(Request, Reply<View>),
    Export(Export, Reply<String>),
    /// The search of this generation has ended.
    Searched(u64),
    /// A page listens to the events.
    Attached,
    /// The page stopped listening: the session ends.
    Detached,
}

/// The ways into a session's thread: for its search's callbacks and its table.
#[derive(Clone)]
pub struct Wire {
    actor: Sender<Msg>,
    events: tokio::sync::mpsc::Sender<Event>,
    /// The session's last generation, across its games: the page keeps the newest view.
    generation: Arc<AtomicU64>,
    /// The session's last view, across its games.
    serial: Arc<AtomicU64>,
}

impl Wire {
    /// A generation newer than every one before in the session.
    pub fn next_generation(&self) -> u64 {
        self.generation.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// The serial number of a view made now: later than every one before in the session.
    pub fn next_serial(&self) -> u64 {
        self.serial.fetch_add(1, Ordering::Relaxed) + 1
    }

    pub fn tell(&self, msg: Msg) {
        // A session that has ended hears nothing more, rightly.
        let _ = self.actor.send(msg);
    }

    pub fn event(&self, event: Event) {
        if self.events.try_send(event).is_err() {
            log::debug!("an event was dropped: its page does not read them");
        }
    }
}

#[cfg(test)]
impl Wire {
    /// A wire to nowhere but the returned ends, for a table tested alone.
    pub fn for_tests() -> (Wire, Receiver<Msg>, tokio::sync::mpsc::Receiver<Event>) {
        let (actor, inbox) = std::sync::mpsc::channel();
        let (events, outbox) = tokio::sync::mpsc::channel(EVENT_BACKLOG);
        let wire = Wire {
            actor,
            events,
            generation: Arc::default(),
            serial: Arc::default(),
        };
        (wire, inbox, outbox)
    }
}

/// A session as the server reaches it.
pub struct Handle {
    actor: Sender<Msg>,
    events: Mutex<Option<tokio::sync::mpsc::Receiver<Event>>>,
}

impl Handle {
    /// Asks the session's thread and waits for its answer.
    pub async fn ask<T>(&self, msg: impl FnOnce(Reply<T>) -> Msg) -> Result<T, ApiError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.actor.send(msg(tx)).map_err(|_| ApiError::Gone)?;
        rx.await.map_err(|_| ApiError::Gone)?
    }

    /// The events, to the first page that asks.
    pub fn take_events(&self) -> Option<tokio::sync::mpsc::Receiver<Event>> {
        let events = self
            .events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if events.is_some() {
            let _ = self.actor.send(Msg::Attached);
        }
        events
    }

    pub fn detach(&self) {
        let _ = self.actor.send(Msg::Detached);
    }
}

/// The open sessions, at most `max`.
pub struct Sessions {
    max: usize,
    timeouts: Timeouts,
    open: Mutex<HashMap<String, Arc<Handle>>>,
}

impl Sessions {
    pub fn new(max: usize, timeouts: Timeouts) -> Arc<Sessions> {
        Arc::new(Sessions {
            max,
            timeouts,
            open: Mutex::new(HashMap::new()),
        })
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Handle>>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn count(&self) -> usize {
        self.map().len()
    }

    pub fn get(&self, id: &str) -> Result<Arc<Handle>, ApiError> {
        self.map()
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::UnknownSession(id.to_string()))
    }

    /// A new session with the game `new`, its id and first view. Blocks while its engine is
    /// made.
    pub fn open(self: &Arc<Sessions>, new: &NewGame) -> Result<(String, View), ApiError> {
        let id = format!("{:016x}", rand::random::<u64>());
        // The place is taken first, so that pages arriving together cannot exceed the limit.
        {
            let mut map = self.map();
            if map.len() >= self.max {
                return Err(ApiError::Full { max: self.max });
            }
            let (actor, _) = std::sync::mpsc::channel();
            map.insert(
                id.clone(),
                Arc::new(Handle {
                    actor,
                    events: Mutex::new(None),
                }),
            );
        }
        let opened = self.start(&id, new);
        if opened.is_err() {
            self.forget(&id);
        }
        opened.map(|view| (id, view))
    }

    fn start(self: &Arc<Sessions>, id: &str, new: &NewGame) -> Result<View, ApiError> {
        let (actor, inbox) = std::sync::mpsc::channel();
        let (events, outbox) = tokio::sync::mpsc::channel(EVENT_BACKLOG);
        let wire = Wire {
            actor,
            events,
            generation: Arc::new(AtomicU64::new(0)),
            serial: Arc::new(AtomicU64::new(0)),
        };
        let desk = load::new_game(new, (false, super::table::MAX_LINES), wire.clone())?;
        let view = desk.view(None);
        self.map().insert(
            id.to_string(),
            Arc::new(Handle {
                actor: wire.actor.clone(),
                events: Mutex::new(Some(outbox)),
            }),
        );
        let sessions = self.clone();
        let name = id.to_string();
        let timeouts = self.timeouts;
        std::thread::Builder::new()
            .name(format!("session {id}"))
            .spawn(move || {
                run(desk, inbox, wire, timeouts);
                sessions.forget(&name);
                log::info!("session {name} closed");
            })
            .map_err(|e| ApiError::Engine(e.to_string()))?;
        Ok(view)
    }

    fn forget(&self, id: &str) {
        self.map().remove(id);
    }
}

/// A session's thread: requests one at a time until the page goes.
fn run(mut desk: Desk, inbox: Receiver<Msg>, wire: Wire, timeouts: Timeouts) {
    let born = Instant::now();
    let mut attached = false;
    let mut heard = Instant::now();
    // A report is a search a position: one at a time.
    let reporting = Arc::new(AtomicBool::new(false));
    desk.follow();
    loop {
        let wait = if attached {
            timeouts.idle.saturating_sub(heard.elapsed())
        } else {
            timeouts.attach.saturating_sub(born.elapsed())
        };
        match inbox.recv_timeout(wait) {
            Ok(Msg::Do(request, reply)) => {
                heard = Instant::now();
                let (answer, old) = apply(&mut desk, request, &wire);
                let _ = reply.send(answer);
                // The old game's search, told to stop, is waited for after the answer.
                drop(old);
            }
            Ok(Msg::Export(what, reply)) => {
                heard = Instant::now();
                match desk.export(what) {
                    Exported::Text(text) => {
                        let _ = reply.send(Ok(text));
                    }
                    Exported::Job(_) if reporting.load(Ordering::Relaxed) => {
                        let _ = reply.send(Err(ApiError::Reporting));
                    }
                    Exported::Job(job) => {
                        reporting.store(true, Ordering::Relaxed);
                        let done = reporting.clone();
                        let spawned =
                            std::thread::Builder::new()
                                .name("report".into())
                                .spawn(move || {
                                    let _ = reply.send(job());
                                    done.store(false, Ordering::Relaxed);
                                });
                        if let Err(e) = spawned {
                            reporting.store(false, Ordering::Relaxed);
                            log::error!("cannot start the report: {e}");
                        }
                    }
                }
            }
            Ok(Msg::Searched(generation)) => {
                if desk.searched(generation) {
                    wire.event(Event::State(Box::new(desk.view(None))));
                }
            }
            Ok(Msg::Attached) => {
                attached = true;
                heard = Instant::now();
            }
            Ok(Msg::Detached) | Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => break,
        }
        desk.follow();
    }
    // Dropped here, the desk stops its search, waits for it and frees its engine.
}

/// A request on the session's game: a new game and a load make a new table (perhaps of
/// another size), the rest go to the table. The answer, and the old table if it was replaced.
fn apply(desk: &mut Desk, request: Request, wire: &Wire) -> (Result<View, ApiError>, Option<Desk>) {
    let replaced = match request {
        Request::New(new) => {
            load::new_game(&new, desk.analysing(), wire.clone()).map(|d| (d, None))
        }
        Request::Load { text } => load::load(
            &text,
            desk.rules(),
            desk.seat(),
            desk.analysing(),
            wire.clone(),
        )
        .map(|(d, note)| (d, Some(note))),
        other => {
            return (desk.handle(other).map(|()| desk.view(None)), None);
        }
    };
    match replaced {
        Ok((fresh, note)) => {
            let mut old = std::mem::replace(desk, fresh);
            old.stop();
            (Ok(desk.view(note)), Some(old))
        }
        Err(e) => (Err(e), None),
    }
}

/// Who the engine plays in a new game, checked.
pub fn seat_of(new: &NewGame) -> Result<Seat, ApiError> {
    let level = crate::search::Level::new(new.level).map_err(|e| ApiError::Level(e.to_string()))?;
    if !super::table::MOVETIME_MS.contains(&new.movetime) {
        return Err(ApiError::Movetime(new.movetime));
    }
    Ok(Seat {
        engine: new.engine,
        level,
        movetime: Duration::from_millis(new.movetime),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::api::EngineSide;

    fn brandubh() -> NewGame {
        NewGame {
            rules: "brandubh".into(),
            engine: EngineSide::None,
            level: 0,
            movetime: 100,
        }
    }

    #[test]
    fn sessions_are_limited_and_a_closed_one_makes_room() {
        let sessions = Sessions::new(2, Timeouts::default());
        let (a, view) = sessions.open(&brandubh()).unwrap();
        assert_eq!(view.side, 7);
        let (_b, _) = sessions.open(&brandubh()).unwrap();
        assert_eq!(
            sessions.open(&brandubh()).unwrap_err(),
            ApiError::Full { max: 2 }
        );
        sessions.get(&a).unwrap().detach();
        for _ in 0..500 {
            if sessions.count() < 2 {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(sessions.open(&brandubh()).is_ok());
        assert!(matches!(sessions.get(&a), Err(ApiError::UnknownSession(_))));
    }

    #[test]
    fn a_page_that_never_listens_or_goes_quiet_loses_its_session() {
        let short = Duration::from_millis(100);
        let unattended = Sessions::new(
            1,
            Timeouts {
                attach: short,
                idle: Duration::MAX,
            },
        );
        let (a, _) = unattended.open(&brandubh()).unwrap();
        let quiet = Sessions::new(
            1,
            Timeouts {
                attach: Duration::MAX,
                idle: short,
            },
        );
        let (b, _) = quiet.open(&brandubh()).unwrap();
        assert!(quiet.get(&b).unwrap().take_events().is_some());
        for _ in 0..500 {
            if unattended.count() + quiet.count() == 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(unattended.get(&a).is_err() && quiet.get(&b).is_err());
    }

    #[test]
    fn a_bad_new_game_takes_no_place() {
        let sessions = Sessions::new(1, Timeouts::default());
        let bad = NewGame {
            rules: "chess".into(),
            ..brandubh()
        };
        assert!(matches!(sessions.open(&bad), Err(ApiError::Rules(_))));
        let slow = NewGame {
            movetime: 10_000_000,
            ..brandubh()
        };
        assert_eq!(
            sessions.open(&slow).unwrap_err(),
            ApiError::Movetime(10_000_000)
        );
        let level = NewGame {
            level: 21,
            ..brandubh()
        };
        assert!(matches!(sessions.open(&level), Err(ApiError::Level(_))));
        assert_eq!(sessions.count(), 0);
        assert!(sessions.open(&brandubh()).is_ok());
    }
}
