//! A game of the bot's as the session holds it, whatever its board: the size comes with the
//! game's first record (`dim`), and from there every call goes to the game compiled for that
//! size, made through the engine's [`run_sized`]. Below it, the game, its position and its
//! engine know their size at compile time.

use super::clock::ClockPolicy;
use super::command::{ServerCommand, ServerMove};
use super::game::{Ending, Found, Next, ServerGame};
use super::message::GameId;
use super::record::GameRecord;
use crate::board::Side;
use crate::search::size::{Size, SizedTask, run_sized};
use crate::search::{Options, Searcher};
use std::time::{Duration, Instant};

/// The board sides the server offers.
pub const SERVER_SIDES: [u8; 3] = [7, 11, 13];

/// What a search that ended is handed to.
type Done = Box<dyn FnOnce(u64, Found) + Send>;

/// A [`ServerGame`] of any size: what the seat asks of it.
trait HeldGame: Send {
    fn side(&self) -> Option<Side>;
    fn asked(&mut self, now: Instant);
    fn sync(&mut self, record: &GameRecord, username: &str, received: Instant) -> Next;
    fn relayed(&mut self, side: Side, mv: &ServerMove) -> bool;
    fn think(
        &mut self,
        policy: &ClockPolicy,
        round_trip: Duration,
        done: Done,
    ) -> Option<ServerCommand>;
    fn searched(&mut self, token: u64, found: Found, online: bool) -> Option<ServerCommand>;
    fn accepted(&mut self);
    fn refused(&mut self, reason: &str);
    fn resigned(&mut self, side: Side);
    fn disconnected(&mut self);
    fn plies_with_sent(&self) -> usize;
    fn max_plies(&self) -> Option<u16>;
    fn over(&mut self);
    fn summary(&self, ending: Ending) -> String;
}

impl<G: Size> HeldGame for ServerGame<G> {
    fn side(&self) -> Option<Side> {
        self.side
    }
    fn asked(&mut self, now: Instant) {
        ServerGame::asked(self, now)
    }
    fn sync(&mut self, record: &GameRecord, username: &str, received: Instant) -> Next {
        ServerGame::sync(self, record, username, received)
    }
    fn relayed(&mut self, side: Side, mv: &ServerMove) -> bool {
        ServerGame::relayed(self, side, mv)
    }
    fn think(
        &mut self,
        policy: &ClockPolicy,
        round_trip: Duration,
        done: Done,
    ) -> Option<ServerCommand> {
        ServerGame::think(self, policy, round_trip, done)
    }
    fn searched(&mut self, token: u64, found: Found, online: bool) -> Option<ServerCommand> {
        ServerGame::searched(self, token, found, online)
    }
    fn accepted(&mut self) {
        ServerGame::accepted(self)
    }
    fn refused(&mut self, reason: &str) {
        ServerGame::refused(self, reason)
    }
    fn resigned(&mut self, side: Side) {
        self.resigned = Some(side);
    }
    fn disconnected(&mut self) {
        ServerGame::disconnected(self)
    }
    fn plies_with_sent(&self) -> usize {
        ServerGame::plies_with_sent(self)
    }
    fn max_plies(&self) -> Option<u16> {
        self.pos.rules().max_plies
    }
    fn over(&mut self) {
        ServerGame::over(self)
    }
    fn summary(&self, ending: Ending) -> String {
        ServerGame::summary(self, ending)
    }
}

/// Makes the game of seat `id` once its size is known.
struct NewGame {
    id: GameId,
    engine: Options,
    asked: Option<Instant>,
}

impl SizedTask for NewGame {
    type Output = Box<dyn HeldGame>;
    fn run<G: Size>(self) -> Box<dyn HeldGame> {
        Box::new(ServerGame::<G>::new(
            self.id,
            Searcher::new(self.engine),
            self.asked,
        ))
    }
}

pub struct Seat {
    pub id: GameId,
    /// When the server asked for a move before the first record came.
    asked: Option<Instant>,
    /// When a record was last asked for, and how many times in a row without an answer.
    pub resume_sent: Option<Instant>,
    pub resume_unanswered: u32,
    /// Asked for its record after a `= draw accept` that named no game: if it no longer
    /// answers, that draw ended it.
    pub maybe_drawn: bool,
    /// The game, once a record has given its size.
    game: Option<Box<dyn HeldGame>>,
}

impl Seat {
    pub fn new(id: GameId) -> Seat {
        Seat {
            id,
            asked: None,
            resume_sent: None,
            resume_unanswered: 0,
            maybe_drawn: false,
            game: None,
        }
    }

    /// The bot's side, once a record has said it.
    pub fn side(&self) -> Option<Side> {
        self.game.as_ref().and_then(|g| g.side())
    }

    /// The server asked for a move (maybe not ours: at login it asks for every game).
    pub fn asked(&mut self, now: Instant) {
        match &mut self.game {
            Some(g) => g.asked(now),
            None => {
                self.asked.get_or_insert(now);
            }
        }
    }

    /// A fresh record of the game; `username` tells the bot's side, `engine` the settings of
    /// the engine of a game seen for the first time. Returns what to do.
    pub fn sync(
        &mut self,
        record: &GameRecord,
        username: &str,
        received: Instant,
        engine: &Options,
    ) -> Next {
        self.resume_sent = None;
        self.resume_unanswered = 0;
        self.maybe_drawn = false;
        if self.game.is_none() {
            let new = NewGame {
                id: self.id,
                engine: engine.clone(),
                asked: self.asked,
            };
            let side = u8::try_from(record.dim)
                .ok()
                .filter(|s| SERVER_SIDES.contains(s));
            match side.map(|side| run_sized(side, new)) {
                Some(Ok(game)) => self.game = Some(game),
                _ => {
                    let Some(side) = record.side_of(username) else {
                        return Next::Nothing;
                    };
                    let (id, dim) = (self.id, record.dim);
                    log::error!(
                        "game {id}: a {dim}x{dim} board, which the server does not offer \
                         (7, 11 or 13); resigning"
                    );
                    return Next::Send(ServerCommand::Resign { game: id, side });
                }
            }
        }
        let game = self.game.as_mut().expect("made above");
        game.sync(record, username, received)
    }

    /// A move of the opponent relayed by the server. Returns false if it does not fit (a game
    /// not yet described fits anything: its record will tell).
    pub fn relayed(&mut self, side: Side, mv: &ServerMove) -> bool {
        self.game.as_mut().is_none_or(|g| g.relayed(side, mv))
    }

    /// Starts thinking on the bot's move; see [`ServerGame::think`].
    pub fn think(
        &mut self,
        policy: &ClockPolicy,
        round_trip: Duration,
        done: impl FnOnce(u64, Found) + Send + 'static,
    ) -> Option<ServerCommand> {
        self.game
            .as_mut()?
            .think(policy, round_trip, Box::new(done))
    }

    /// A search of this game ended; see [`ServerGame::searched`].
    pub fn searched(&mut self, token: u64, found: Found, online: bool) -> Option<ServerCommand> {
        self.game.as_mut()?.searched(token, found, online)
    }

    pub fn accepted(&mut self) {
        if let Some(g) = &mut self.game {
            g.accepted();
        }
    }

    pub fn refused(&mut self, reason: &str) {
        if let Some(g) = &mut self.game {
            g.refused(reason);
        }
    }

    pub fn resigned(&mut self, side: Side) {
        if let Some(g) = &mut self.game {
            g.resigned(side);
        }
    }

    /// The connection went.
    pub fn disconnected(&mut self) {
        self.resume_sent = None;
        self.resume_unanswered = 0;
        if let Some(g) = &mut self.game {
            g.disconnected();
        }
    }

    /// Plies the game will have once the move in flight, if any, is played.
    pub fn plies_with_sent(&self) -> usize {
        self.game.as_ref().map_or(0, |g| g.plies_with_sent())
    }

    /// The ply that ends the game drawn, under the server's rules for its size.
    pub fn max_plies(&self) -> Option<usize> {
        self.game
            .as_ref()
            .and_then(|g| g.max_plies())
            .map(usize::from)
    }

    /// The game is over: stops any search.
    pub fn over(&mut self) {
        if let Some(g) = &mut self.game {
            g.over();
        }
    }

    /// The summary line of the finished game, if it ever was the bot's.
    pub fn summary(&self, ending: Ending) -> Option<String> {
        let game = self.game.as_ref()?;
        game.side().map(|_| game.summary(ending))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::clock::ClockPolicy;
    use std::sync::mpsc::channel;

    /// The start of a game on the server, `moves` played, as its record gives it.
    fn record(dim: u32, start: &str, moves: &str) -> GameRecord {
        let json = format!(
            r#"{{"id":4,"attackers":"bot","defenders":"human","dim":{dim},"start":"{start}","time_control":null,"time_remaining_ms":null,"moves":"{moves}","rated":false}}"#
        );
        serde_json::from_str(&json).unwrap()
    }

    const SEVEN: &str = "/3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3/";
    const THIRTEEN: &str =
        "/3AAAAAAA3/6A6/13/A5D5A/A5D5A/A4DDD4A/AA1DDDKDDD1AA/A4DDD4A/A5D5A/A5D5A/13/6A6/3AAAAAAA3/";

    fn options() -> Options {
        Options {
            hash_mb: 1,
            ..Options::default()
        }
    }

    /// The move the seat sends for the record, thinking 20 ms.
    fn answer(seat: &mut Seat, record: &GameRecord) -> ServerCommand {
        assert_eq!(
            seat.sync(record, "bot", Instant::now(), &options()),
            Next::Think
        );
        let policy = ClockPolicy {
            cap: Some(Duration::from_millis(20)),
        };
        let (tx, rx) = channel();
        if let Some(command) = seat.think(&policy, Duration::ZERO, move |token, found| {
            tx.send((token, found)).unwrap();
        }) {
            return command;
        }
        let (token, found) = rx.recv().unwrap();
        seat.searched(token, found, true).expect("a move")
    }

    #[test]
    fn the_record_gives_the_size_and_seven_starts_with_the_defenders() {
        let mut seat = Seat::new(4);
        assert_eq!(seat.side(), None);
        seat.asked(Instant::now());
        // The bot attacks: on 7x7 the defenders open, so the first record is not its turn.
        assert_eq!(
            seat.sync(&record(7, SEVEN, ""), "bot", Instant::now(), &options()),
            Next::Nothing
        );
        assert_eq!(seat.side(), Some(Side::Attackers));
        assert!(seat.relayed(
            Side::Defenders,
            &ServerMove {
                from: "d5".into(),
                to: "f5".into()
            }
        ));
        assert!(!seat.relayed(
            Side::Defenders,
            &ServerMove {
                from: "h1".into(),
                to: "h2".into()
            }
        ));
        let ServerCommand::Play { mv, .. } = answer(&mut seat, &record(7, SEVEN, "d5-f5")) else {
            panic!("no move");
        };
        let legal = ["d7", "d6", "a4", "b4", "f4", "g4", "d2", "d1"];
        assert!(legal.contains(&mv.from.as_str()), "{mv}");
        seat.accepted();
        assert_eq!(seat.plies_with_sent(), 2);
        assert_eq!(seat.max_plies(), Some(141));
        assert!(seat.summary(Ending::Won).unwrap().contains(", 7x7, "));
    }

    #[test]
    fn thirteen_reads_and_writes_upper_case() {
        let mut seat = Seat::new(4);
        let ServerCommand::Play { mv, .. } = answer(&mut seat, &record(13, THIRTEEN, "")) else {
            panic!("no move");
        };
        assert!(mv.from.chars().all(|c| !c.is_ascii_lowercase()), "{mv}");
        assert!(mv.to.chars().all(|c| !c.is_ascii_lowercase()), "{mv}");
        seat.accepted();
        // The server's record of the game so far, in its own upper case.
        let played = format!("{}-{}", mv.from, mv.to);
        let mut theirs = Seat::new(4);
        let defender = |r: &GameRecord| GameRecord {
            attackers: "human".into(),
            defenders: "bot".into(),
            ..r.clone()
        };
        assert!(matches!(
            answer(&mut theirs, &defender(&record(13, THIRTEEN, &played))),
            ServerCommand::Play {
                side: Side::Defenders,
                ..
            }
        ));
    }

    #[test]
    fn a_size_the_server_does_not_offer_is_resigned() {
        let mut seat = Seat::new(4);
        let nine = "/3AAA3/4A4/4D4/A3D3A/AADDKDDAA/A3D3A/4D4/4A4/3AAA3/";
        assert_eq!(
            seat.sync(&record(9, nine, ""), "bot", Instant::now(), &options()),
            Next::Send(ServerCommand::Resign {
                game: 4,
                side: Side::Attackers
            })
        );
        assert_eq!(seat.summary(Ending::Lost), None);
    }
}
