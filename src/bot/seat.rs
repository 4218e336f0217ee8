//! A game of the bot's as the session holds it, whatever its board: the size comes with the
//! game's first record (`dim`), and from there every call goes to the game compiled for that
//! size. This is the one place the bot chooses a size; below it, the game, its position and
//! its engine know theirs at compile time.

use super::clock::ClockPolicy;
use super::command::{ServerCommand, ServerMove};
use super::game::{Ending, Found, Next, ServerGame};
use super::message::GameId;
use super::record::GameRecord;
use crate::board::Side;
use crate::board::sizes::{AnySize, PerSize};
use crate::each_size;
use crate::search::size::Size;
use crate::search::{Options, Searcher};
use std::time::{Duration, Instant};

/// The board sides the server offers.
pub const SERVER_SIDES: [u8; 3] = [7, 11, 13];

/// The bot's games, one type a size.
struct Games;
impl PerSize for Games {
    type Of<G: crate::board::Geometry> = ServerGame<G>;
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
    game: Option<AnySize<Games>>,
}

/// A game of `G` for the seat `id`.
fn new_game<G: Size>(id: GameId, engine: Options, asked: Option<Instant>) -> AnySize<Games> {
    G::hold::<Games>(ServerGame::new(id, Searcher::new(engine), asked))
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
        self.game.as_ref().and_then(|g| each_size!(g, g => g.side))
    }

    /// The server asked for a move (maybe not ours: at login it asks for every game).
    pub fn asked(&mut self, now: Instant) {
        match &mut self.game {
            Some(g) => each_size!(g, g => g.asked(now)),
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
            let (id, asked) = (self.id, self.asked);
            let side = u8::try_from(record.dim)
                .ok()
                .filter(|s| SERVER_SIDES.contains(s));
            let made =
                side.map(|side| crate::with_size!(side, new_game(id, engine.clone(), asked)));
            match made {
                Some(Ok(game)) => self.game = Some(game),
                _ => {
                    let Some(side) = record.side_of(username) else {
                        return Next::Nothing;
                    };
                    let dim = record.dim;
                    log::error!(
                        "game {id}: a {dim}x{dim} board, which the server does not offer \
                         (7, 11 or 13); resigning"
                    );
                    return Next::Send(ServerCommand::Resign { game: id, side });
                }
            }
        }
        let game = self.game.as_mut().expect("made above");
        each_size!(game, g => g.sync(record, username, received))
    }

    /// A move of the opponent relayed by the server. Returns false if it does not fit (a game
    /// not yet described fits anything: its record will tell).
    pub fn relayed(&mut self, side: Side, mv: &ServerMove) -> bool {
        match &mut self.game {
            Some(g) => each_size!(g, g => g.relayed(side, mv)),
            None => true,
        }
    }

    /// Starts thinking on the bot's move; see [`ServerGame::think`].
    pub fn think(
        &mut self,
        policy: &ClockPolicy,
        round_trip: Duration,
        done: impl FnOnce(u64, Found) + Send + 'static,
    ) -> Option<ServerCommand> {
        let game = self.game.as_mut()?;
        each_size!(game, g => g.think(policy, round_trip, done))
    }

    /// A search of this game ended; see [`ServerGame::searched`].
    pub fn searched(&mut self, token: u64, found: Found, online: bool) -> Option<ServerCommand> {
        let game = self.game.as_mut()?;
        each_size!(game, g => g.searched(token, found, online))
    }

    pub fn accepted(&mut self) {
        if let Some(g) = &mut self.game {
            each_size!(g, g => g.accepted());
        }
    }

    pub fn refused(&mut self, reason: &str) {
        if let Some(g) = &mut self.game {
            each_size!(g, g => g.refused(reason));
        }
    }

    pub fn resigned(&mut self, side: Side) {
        if let Some(g) = &mut self.game {
            each_size!(g, g => g.resigned = Some(side));
        }
    }

    /// The connection went.
    pub fn disconnected(&mut self) {
        self.resume_sent = None;
        self.resume_unanswered = 0;
        if let Some(g) = &mut self.game {
            each_size!(g, g => g.disconnected());
        }
    }

    /// Plies the game will have once the move in flight, if any, is played.
    pub fn plies_with_sent(&self) -> usize {
        self.game
            .as_ref()
            .map_or(0, |g| each_size!(g, g => g.plies_with_sent()))
    }

    /// The ply that ends the game drawn, under the server's rules for its size.
    pub fn max_plies(&self) -> Option<usize> {
        self.game
            .as_ref()
            .and_then(|g| each_size!(g, g => g.pos.rules().max_plies))
            .map(usize::from)
    }

    /// The game is over: stops any search.
    pub fn over(&mut self) {
        if let Some(g) = &mut self.game {
            each_size!(g, g => g.over());
        }
    }

    /// The summary line of the finished game, if it ever was the bot's.
    pub fn summary(&self, ending: Ending) -> Option<String> {
        let game = self.game.as_ref()?;
        each_size!(game, g => g.side.map(|_| g.summary(ending)))
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
