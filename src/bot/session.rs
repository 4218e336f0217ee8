//! The bot's life on the server: connect, log in, read every line, play every game it is in,
//! find new games, and come back after the connection drops.
//!
//! One thread (this one) owns everything and reacts to events one at a time: lines from the
//! server (read on the connection's own thread) and the ends of searches (each game's engine
//! searches on threads of its own, so that several games think at once). A tick every
//! [`TICK`] does what time alone decides: reconnecting, pings, giving up on silence.
//!
//! The server answers `game ...` commands with `= game` or `? game ...`, which do not say
//! which game; it answers them in order, so the games of the commands sent are kept in a
//! queue and each answer belongs to the oldest.

use super::clock::ClockPolicy;
use super::command::ServerCommand;
use super::connection::{Backoff, CONNECT_TIMEOUT, Connection, Incoming};
use super::game::{Ending, Found, Next};
use super::lobby::Lobby;
use super::message::{GameId, LineError, LoginRefusal, ServerLine};
use super::seat::Seat;
use super::{BotConfig, BotError};
use crate::board::Side;
use std::collections::{BTreeMap, VecDeque};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

const TICK: Duration = Duration::from_millis(100);
/// A ping this often keeps the connection known to be alive.
const PING_EVERY: Duration = Duration::from_secs(20);
/// Silence after which the connection is taken to be dead.
const SILENCE: Duration = Duration::from_secs(60);
/// How long a login may go unanswered.
const LOGIN_PATIENCE: Duration = Duration::from_secs(30);
/// How long a record may take; a game that does not answer three times in a row is gone
/// (the server says nothing at all about a finished game).
const RECORD_PATIENCE: Duration = Duration::from_secs(10);
const RECORD_TRIES: u32 = 3;
/// A connection held this long starts the backoff over.
const STABLE: Duration = Duration::from_secs(30);
/// A bot not logged in this long after its start gives up: the address is wrong or the
/// server is down, and a person waiting for it wants to know. Once logged in, the bot comes
/// back after any cut, however long.
const FIRST_LOGIN_PATIENCE: Duration = Duration::from_secs(30);

enum Event {
    Server(Incoming),
    Searched {
        game: GameId,
        token: u64,
        found: Found,
    },
}

enum Link {
    Down { retry: Instant },
    LoggingIn { conn: Connection, since: Instant },
    Online { conn: Connection, since: Instant },
}

pub struct Session {
    config: BotConfig,
    address: String,
    events: Sender<Event>,
    inbox: Receiver<Event>,
    link: Link,
    generation: u64,
    backoff: Backoff,
    logged_in_once: bool,
    /// Until the first login: when to give up, the attempts so far and what went wrong last.
    first_login_by: Option<Instant>,
    started: Instant,
    tries: u32,
    trouble: String,
    last_heard: Instant,
    ping_sent: Option<Instant>,
    last_ping: Instant,
    round_trip: Duration,
    games: BTreeMap<GameId, Seat>,
    /// The games of the `game ...` commands sent and not yet answered, oldest first.
    answers_due: VecDeque<GameId>,
    lobby: Lobby,
    /// Games confirmed as the bot's, and games finished, for `--games`.
    begun: usize,
    finished: usize,
    policy: ClockPolicy,
}

impl Session {
    pub fn new(config: BotConfig) -> Session {
        let (events, inbox) = channel();
        let now = Instant::now();
        Session {
            address: super::connection::with_default_port(&config.server),
            lobby: Lobby::new(config.seek),
            policy: ClockPolicy {
                cap: config.movetime,
            },
            config,
            events,
            inbox,
            link: Link::Down { retry: now },
            generation: 0,
            backoff: Backoff::default(),
            logged_in_once: false,
            first_login_by: Some(now + FIRST_LOGIN_PATIENCE),
            started: now,
            tries: 0,
            trouble: String::new(),
            last_heard: now,
            ping_sent: None,
            last_ping: now,
            round_trip: Duration::ZERO,
            games: BTreeMap::new(),
            answers_due: VecDeque::new(),
            begun: 0,
            finished: 0,
        }
    }

    /// Plays until `--games` games are over, or forever.
    pub fn run(mut self) -> Result<(), BotError> {
        loop {
            if self.config.games.is_some_and(|n| self.finished >= n) && self.games.is_empty() {
                log::info!("{} games played; leaving", self.finished);
                return Ok(());
            }
            self.tick()?;
            match self.inbox.recv_timeout(TICK) {
                Ok(Event::Server(Incoming::Line { generation, text })) => {
                    if generation == self.generation {
                        self.last_heard = Instant::now();
                        self.line(&text)?;
                    }
                }
                Ok(Event::Server(Incoming::Closed { generation, why })) => {
                    if generation == self.generation {
                        self.lost(&why);
                    }
                }
                Ok(Event::Searched { game, token, found }) => self.searched(game, token, found),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(()),
            }
        }
    }

    fn online(&self) -> bool {
        matches!(self.link, Link::Online { .. })
    }

    /// Sends a line; a failure ends the connection.
    fn send(&mut self, command: ServerCommand) {
        let sent = match &mut self.link {
            Link::Online { conn, .. } | Link::LoggingIn { conn, .. } => conn.send(&command),
            Link::Down { .. } => return,
        };
        match sent {
            Ok(()) => {
                if let ServerCommand::Play { game, .. } | ServerCommand::Resign { game, .. } =
                    command
                {
                    self.answers_due.push_back(game);
                }
                if let ServerCommand::Resume(game) = command
                    && let Some(g) = self.games.get_mut(&game)
                {
                    g.resume_sent = Some(Instant::now());
                }
            }
            Err(e) => self.lost(&format!("cannot write to the server: {e}")),
        }
    }

    fn lost(&mut self, why: &str) {
        if matches!(self.link, Link::Down { .. }) {
            return;
        }
        self.trouble = why.to_string();
        match self.retry_later() {
            Some(pause) => log::warn!(
                "connection to {} lost: {why}; reconnecting in {:.1} s",
                self.address,
                pause.as_secs_f64()
            ),
            None => log::info!("connection to {} lost: {why}", self.address),
        }
        self.answers_due.clear();
        for game in self.games.values_mut() {
            game.disconnected();
        }
    }

    /// What time alone decides.
    fn tick(&mut self) -> Result<(), BotError> {
        let now = Instant::now();
        if let Some(by) = self.first_login_by {
            let hopeless = match &self.link {
                Link::Down { retry } => *retry > by,
                Link::LoggingIn { .. } => now >= by,
                Link::Online { .. } => false,
            };
            if hopeless {
                if matches!(self.link, Link::LoggingIn { .. }) {
                    self.trouble = "connected, but the login got no answer".into();
                }
                return Err(BotError::Unreachable {
                    server: self.address.clone(),
                    secs: self.started.elapsed().as_secs_f64().round() as u64,
                    tries: self.tries,
                    why: std::mem::take(&mut self.trouble),
                });
            }
        }
        match &self.link {
            Link::Down { retry } if now >= *retry => self.connect(),
            Link::LoggingIn { since, .. } if now.duration_since(*since) > LOGIN_PATIENCE => {
                self.lost("no answer to the login");
            }
            Link::Online { since, .. } => {
                if now.duration_since(*since) > STABLE {
                    self.backoff.reset();
                }
                if now.duration_since(self.last_heard) > SILENCE {
                    self.lost("the server has been silent for a minute");
                    return Ok(());
                }
                if now.duration_since(self.last_ping) > PING_EVERY {
                    self.last_ping = now;
                    self.ping_sent = Some(now);
                    self.send(ServerCommand::Ping);
                }
                self.chase_records(now);
                let active = self.games.len() + usize::from(self.lobby.pending());
                // Games not yet described by a record may be the bot's too.
                let unconfirmed = self.games.values().filter(|g| g.side().is_none()).count();
                let room = active < self.config.max_active
                    && self
                        .config
                        .games
                        .is_none_or(|n| self.begun + unconfirmed < n);
                for command in self.lobby.actions(now, room, &self.config.username) {
                    self.send(command);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn connect(&mut self) {
        self.generation += 1;
        self.tries += 1;
        let events = self.events.clone();
        let timeout = self.first_login_by.map_or(CONNECT_TIMEOUT, |by| {
            by.saturating_duration_since(Instant::now())
                .clamp(Duration::from_millis(100), CONNECT_TIMEOUT)
        });
        let opened = Connection::open(&self.address, self.generation, timeout, move |incoming| {
            events.send(Event::Server(incoming)).is_ok()
        });
        match opened {
            Ok(conn) => {
                log::info!("connected to {}", self.address);
                let now = Instant::now();
                self.last_heard = now;
                self.link = Link::LoggingIn { conn, since: now };
                let create = self.config.create_account && !self.logged_in_once;
                self.login(create);
            }
            Err(e) => {
                self.trouble = e.to_string();
                match self.retry_later() {
                    Some(pause) => log::warn!(
                        "cannot connect to {}: {e}; trying again in {:.1} s",
                        self.address,
                        pause.as_secs_f64()
                    ),
                    None => log::info!("cannot connect to {}: {e}", self.address),
                }
            }
        }
    }

    /// Takes the link down until the backoff's next attempt, and returns the pause; or `None`
    /// when that attempt would come after the first login's deadline, so that the bot gives
    /// up at the next tick instead and must not announce a try it will never make (its error
    /// then names the trouble).
    fn retry_later(&mut self) -> Option<Duration> {
        let pause = self.backoff.pause();
        let retry = Instant::now() + pause;
        self.link = Link::Down { retry };
        match self.first_login_by {
            Some(by) if retry > by => None,
            _ => Some(pause),
        }
    }

    fn login(&mut self, create: bool) {
        self.send(ServerCommand::Login {
            version_id: self.config.version_id.clone(),
            create,
            username: self.config.username.clone(),
            password: self.config.password.clone(),
        });
    }

    /// Requests the records of the games whose record is overdue, and gives up on games that
    /// no longer answer.
    fn chase_records(&mut self, now: Instant) {
        let mut overdue = Vec::new();
        let mut gone = Vec::new();
        for game in self.games.values_mut() {
            if let Some(sent) = game.resume_sent
                && now.duration_since(sent) > RECORD_PATIENCE
            {
                game.resume_unanswered += 1;
                if game.resume_unanswered >= RECORD_TRIES {
                    gone.push(game.id);
                } else {
                    overdue.push(game.id);
                }
            }
        }
        for id in overdue {
            self.send(ServerCommand::Resume(id));
        }
        for id in gone {
            let drawn = self.games.get(&id).is_some_and(|g| g.maybe_drawn);
            if drawn {
                self.finish(id, Ending::Drawn);
            } else {
                log::warn!("game {id}: the server no longer answers for it");
                self.finish(id, Ending::Unknown);
            }
        }
    }

    fn line(&mut self, text: &str) -> Result<(), BotError> {
        let parsed = text.parse::<ServerLine>();
        log::trace!("<- {text}");
        let line = match parsed {
            Ok(line) => line,
            Err(LineError::Unknown) => {
                log::warn!("ignored a line the bot does not know: {}", shorten(text));
                return Ok(());
            }
            Err(e) => {
                log::warn!("ignored a line: {e}");
                return Ok(());
            }
        };
        if matches!(self.link, Link::LoggingIn { .. }) {
            return self.login_answer(line);
        }
        self.handle(line);
        Ok(())
    }

    fn login_answer(&mut self, line: ServerLine) -> Result<(), BotError> {
        match line {
            ServerLine::LoggedIn => {
                let Link::LoggingIn { conn, .. } = std::mem::replace(
                    &mut self.link,
                    Link::Down {
                        retry: Instant::now(),
                    },
                ) else {
                    return Ok(());
                };
                log::info!("logged in as {}", self.config.username);
                self.link = Link::Online {
                    conn,
                    since: Instant::now(),
                };
                self.logged_in_once = true;
                self.first_login_by = None;
                self.send(ServerCommand::SoftwareId(format!(
                    "hnefi-{}",
                    env!("CARGO_PKG_VERSION")
                )));
                self.lobby.reconnected();
                // The server asks for every game at login; asking for the records here too
                // re-attaches those it might not mention.
                let ids: Vec<GameId> = self.games.keys().copied().collect();
                for id in ids {
                    self.send(ServerCommand::Resume(id));
                }
                Ok(())
            }
            ServerLine::LoginRefused(LoginRefusal::AlreadyExists) => {
                log::info!("the account {} exists; logging in", self.config.username);
                self.login(false);
                Ok(())
            }
            ServerLine::LoginRefused(LoginRefusal::WrongVersion) => {
                Err(BotError::WrongVersion(self.config.version_id.clone()))
            }
            // Until the bot has logged in once, only a refusal that may pass is tried again.
            ServerLine::LoginRefused(refusal) if !self.logged_in_once && !refusal.passes() => Err(
                BotError::Login(format!("{refusal} (account {})", self.config.username)),
            ),
            ServerLine::LoginRefused(refusal) => {
                self.lost(&format!("login refused: {refusal}"));
                Ok(())
            }
            other => {
                log::debug!("before login, ignored: {other:?}");
                Ok(())
            }
        }
    }

    fn handle(&mut self, line: ServerLine) {
        let now = Instant::now();
        match line {
            ServerLine::GenerateMove { game, .. } => {
                self.seat(game).asked(now);
                self.request_record(game);
            }
            ServerLine::Played { game, role, mv } => {
                let fits = self
                    .games
                    .get_mut(&game)
                    .is_none_or(|g| g.relayed(role.0, &mv));
                if !fits {
                    log::info!("game {game}: the relayed move {mv} does not fit; resyncing");
                    self.request_record(game);
                }
            }
            ServerLine::Resigned { game, role } => {
                log::info!("game {game}: the {} resign", role.0.name());
                if let Some(g) = self.games.get_mut(&game) {
                    g.resigned(role.0);
                }
            }
            ServerLine::Game(record) => self.record(&record, now),
            ServerLine::GameOver { game, winner } => {
                if self.answers_due.front() == Some(&game) {
                    self.answers_due.pop_front();
                }
                let ending = match self.games.get(&game).and_then(Seat::side) {
                    Some(side) if side == winner => Ending::Won,
                    Some(_) => Ending::Lost,
                    None => Ending::Unknown,
                };
                self.finish(game, ending);
            }
            ServerLine::Drawn => self.drawn(),
            ServerLine::DrawOffered { game, role } => {
                log::info!("game {game}: the {} offer a draw; ignored", role.0.name());
            }
            ServerLine::GameAccepted => {
                if let Some(id) = self.answers_due.pop_front()
                    && let Some(game) = self.games.get_mut(&id)
                {
                    game.accepted();
                }
            }
            ServerLine::GameRefused(reason) => match self.answers_due.pop_front() {
                Some(id) => {
                    if let Some(game) = self.games.get_mut(&id) {
                        game.refused(&reason);
                    }
                    self.request_record(id);
                }
                None => log::warn!("the server refused nothing the bot sent: {reason}"),
            },
            ServerLine::Created(id) => self.lobby.created(id),
            ServerLine::Challenged(id) => {
                if self.lobby.challenged(id) {
                    log::info!("game {id}: challenge accepted");
                    self.send(ServerCommand::Accept(id));
                }
            }
            ServerLine::JoinPending(id) => log::info!("game {id}: asked to join"),
            ServerLine::Withdrawn(id) => self.lobby.withdrawn(id),
            ServerLine::Started { attacker, defender } => {
                let me = &self.config.username;
                if attacker.eq_ignore_ascii_case(me) || defender.eq_ignore_ascii_case(me) {
                    log::info!("a game begins: {attacker} (attackers) vs {defender} (defenders)");
                    if let Some(id) = self.lobby.started() {
                        self.seat(id);
                        self.request_record(id);
                    }
                }
            }
            ServerLine::GamesUpdated(update) => self.lobby.update(*update, &self.config.username),
            ServerLine::OpenGames(games) => self.lobby.set_open(games),
            ServerLine::Pong => {
                if let Some(sent) = self.ping_sent.take() {
                    self.round_trip = sent.elapsed();
                }
            }
            ServerLine::Refused { command, reason } => {
                log::warn!("the server refused '{command}': {reason}");
                if command == "join_game_pending" {
                    self.lobby.join_refused();
                }
            }
            ServerLine::LoggedIn | ServerLine::LoginRefused(_) => {
                log::debug!("a login answer while logged in; ignored");
            }
            ServerLine::DrawDeclined
            | ServerLine::DrawRequested
            | ServerLine::GameTime
            | ServerLine::Chatter => {}
        }
    }

    /// The game `id`, made known to the bot if it was not. It counts as the bot's once a
    /// record says so.
    fn seat(&mut self, id: GameId) -> &mut Seat {
        self.games.entry(id).or_insert_with(|| Seat::new(id))
    }

    fn request_record(&mut self, id: GameId) {
        let recent = self
            .games
            .get(&id)
            .and_then(|g| g.resume_sent)
            .is_some_and(|t| t.elapsed() < RECORD_PATIENCE);
        if !recent {
            self.send(ServerCommand::Resume(id));
        }
    }

    fn record(&mut self, record: &super::record::GameRecord, now: Instant) {
        if record.side_of(&self.config.username).is_none() {
            log::debug!("game {}: not ours", record.id);
            self.games.remove(&record.id);
            return;
        }
        let username = self.config.username.clone();
        let engine = self.config.engine.clone();
        let seat = self.seat(record.id);
        let new = seat.side().is_none();
        let next = seat.sync(record, &username, now, &engine);
        if new && let Some(side) = seat.side() {
            self.begun += 1;
            let opponent = match side {
                Side::Attackers => &record.defenders,
                Side::Defenders => &record.attackers,
            };
            log::info!(
                "game {}: Hnefi plays the {} against {opponent} on {}x{}",
                record.id,
                side.name(),
                record.dim,
                record.dim
            );
        }
        match next {
            Next::Nothing => {}
            Next::Send(command) => self.send(command),
            Next::Think => self.think(record.id),
        }
    }

    fn think(&mut self, id: GameId) {
        let events = self.events.clone();
        let (policy, round_trip) = (self.policy, self.round_trip);
        let Some(game) = self.games.get_mut(&id) else {
            return;
        };
        let command = game.think(&policy, round_trip, move |token, found| {
            let _ = events.send(Event::Searched {
                game: id,
                token,
                found,
            });
        });
        if let Some(command) = command {
            self.send(command);
        }
    }

    fn searched(&mut self, id: GameId, token: u64, found: Found) {
        let online = self.online();
        let command = self
            .games
            .get_mut(&id)
            .and_then(|game| game.searched(token, found, online));
        if let Some(command) = command {
            self.send(command);
        }
    }

    /// `= draw accept` names no game: it is the one the move limit ended, which the bot can
    /// tell by the lengths of its games; failing that, every game is asked for its record, and
    /// the one that no longer answers is the one that ended.
    fn drawn(&mut self) {
        let at_limit: Vec<GameId> = self
            .games
            .values()
            .filter(|g| {
                g.max_plies()
                    .is_some_and(|limit| g.plies_with_sent() >= limit)
            })
            .map(|g| g.id)
            .collect();
        if let [id] = at_limit[..] {
            if self.answers_due.front() == Some(&id) {
                self.answers_due.pop_front();
            }
            self.finish(id, Ending::Drawn);
            return;
        }
        log::info!("a game ended drawn; asking every game for its record to find which");
        let ids: Vec<GameId> = self.games.keys().copied().collect();
        for id in ids {
            if let Some(game) = self.games.get_mut(&id) {
                game.maybe_drawn = true;
            }
            self.send(ServerCommand::Resume(id));
        }
    }

    fn finish(&mut self, id: GameId, ending: Ending) {
        let Some(mut game) = self.games.remove(&id) else {
            log::debug!("game {id} is over; it was not the bot's");
            return;
        };
        game.over();
        self.answers_due.retain(|&g| g != id);
        let Some(summary) = game.summary(ending) else {
            // Never confirmed by a record: nothing the bot played.
            log::info!("game {id}: forgotten, the server never described it");
            return;
        };
        self.finished += 1;
        // The one line per game that is the bot's report, whatever the log level.
        eprintln!("{summary}");
    }
}

/// A line cut for a log.
fn shorten(text: &str) -> String {
    const MAX: usize = 200;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}... ({} bytes)", &text[..i], text.len()),
        None => text.escape_debug().to_string(),
    }
}
