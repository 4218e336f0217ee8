//! Finding games: the bot's offer and who may take it, or the games it asks to join.
//!
//! Policy:
//! - `--new-game SIDE`: one open offer at a time, made again whenever the last one was taken
//!   and the bot has room for another game. Every challenge to the open offer is accepted,
//!   first come first served: the site's players choose their opponent by taking the offer.
//! - `--join ID`: asks once to play game ID.
//! - `--join-any`: asks to play the first open game of someone else that waits for an
//!   opponent (no challenger yet), on a board of the sizes `--board` allows (any, by
//!   default), one request at a time; a request its creator leaves unanswered for a minute
//!   is withdrawn, and no game is asked twice.
//!
//! The server forgets offers and requests when a connection ends, so they are made again
//! after a reconnect.

use super::command::{Offer, ServerCommand};
use super::message::GameId;
use super::record::{GamesUpdate, OpenGame};
use super::seat::SERVER_SIDES;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// What the bot looks for in the lobby.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seek {
    /// Only the games it is already in.
    Nothing,
    Offer(Offer),
    Join(GameId),
    /// Any open game on one of these boards.
    JoinAny(Boards),
}

/// A set of the server's board sizes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Boards {
    /// One bit per side, bit `side`.
    bits: u16,
}

impl Boards {
    /// Every size the server offers.
    pub fn all() -> Boards {
        Boards::of(&SERVER_SIDES).expect("the server's own sizes")
    }

    /// The sizes `sides`, or the first side the server does not offer.
    pub fn of(sides: &[u8]) -> Result<Boards, u8> {
        let mut bits = 0;
        for &side in sides {
            if !SERVER_SIDES.contains(&side) {
                return Err(side);
            }
            bits |= 1 << side;
        }
        Ok(Boards { bits })
    }

    pub fn contains(self, side: u8) -> bool {
        side < 16 && self.bits & (1 << side) != 0
    }
}

/// How long a creator may leave a request to join unanswered.
const JOIN_PATIENCE: Duration = Duration::from_secs(60);
/// How long the server may take to confirm a new offer (it says nothing at all to an offer
/// it cannot read).
const OFFER_PATIENCE: Duration = Duration::from_secs(30);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum OfferState {
    Asked(Instant),
    Open(GameId),
    /// A challenge accepted: the game begins with the next `join_game` of ours.
    Accepted(GameId),
}

#[derive(Debug)]
pub struct Lobby {
    seek: Seek,
    offer: Option<OfferState>,
    join: Option<(GameId, Instant)>,
    /// `--join ID` asks only once.
    joined_once: bool,
    tried: BTreeSet<GameId>,
    open: BTreeMap<GameId, OpenGame>,
}

impl Lobby {
    pub fn new(seek: Seek) -> Lobby {
        Lobby {
            seek,
            offer: None,
            join: None,
            joined_once: false,
            tried: BTreeSet::new(),
            open: BTreeMap::new(),
        }
    }

    /// Whether an offer or a request is out, which counts as a game for the room the bot has.
    pub fn pending(&self) -> bool {
        self.offer.is_some() || self.join.is_some()
    }

    /// A new connection: the server has withdrawn what the old one left open.
    pub fn reconnected(&mut self) {
        self.offer = None;
        self.join = None;
        self.open.clear();
    }

    /// What to send now; `room`: whether the bot may begin another game.
    pub fn actions(&mut self, now: Instant, room: bool, username: &str) -> Vec<ServerCommand> {
        let mut out = Vec::new();
        if let Some(OfferState::Asked(at)) = self.offer
            && now.duration_since(at) > OFFER_PATIENCE
        {
            log::warn!("the server did not confirm the offer; offering again");
            self.offer = None;
        }
        if let Some((id, since)) = self.join
            && now.duration_since(since) > JOIN_PATIENCE
        {
            log::info!("game {id}: no answer to the request to join; withdrawn");
            out.push(ServerCommand::Leave(id));
            self.join = None;
        }
        if !room || self.pending() {
            return out;
        }
        match self.seek {
            Seek::Nothing => {}
            Seek::Offer(offer) => {
                self.offer = Some(OfferState::Asked(now));
                out.push(ServerCommand::NewGame(offer));
            }
            Seek::Join(id) if !self.joined_once => {
                self.joined_once = true;
                self.join = Some((id, now));
                out.push(ServerCommand::Join(id));
            }
            Seek::Join(_) => {}
            Seek::JoinAny(boards) => {
                let choice = self
                    .open
                    .values()
                    .find(|g| {
                        g.joinable_by(username)
                            && g.side().is_some_and(|side| boards.contains(side))
                            && !self.tried.contains(&g.id)
                    })
                    .map(|g| g.id);
                if let Some(id) = choice {
                    self.tried.insert(id);
                    self.join = Some((id, now));
                    out.push(ServerCommand::Join(id));
                }
            }
        }
        out
    }

    /// `= new_game ID`.
    pub fn created(&mut self, id: GameId) {
        if matches!(self.offer, Some(OfferState::Asked(_))) {
            log::info!("game {id}: offered, waiting for a challenger");
            self.offer = Some(OfferState::Open(id));
        }
    }

    /// `= challenge_requested ID`: whether to accept (ID is our open offer).
    pub fn challenged(&mut self, id: GameId) -> bool {
        if self.offer == Some(OfferState::Open(id)) {
            self.offer = Some(OfferState::Accepted(id));
            true
        } else {
            false
        }
    }

    /// A game of ours began (`= join_game ...`): the offer or request it came from, if any.
    pub fn started(&mut self) -> Option<GameId> {
        if let Some(OfferState::Accepted(id)) = self.offer {
            self.offer = None;
            return Some(id);
        }
        self.join.take().map(|(id, _)| id)
    }

    /// A refusal of `join_game_pending`: the game cannot be joined.
    pub fn join_refused(&mut self) {
        if let Some((id, _)) = self.join.take() {
            log::warn!("game {id}: cannot be joined");
        }
    }

    /// `= decline_game ID` or `= leave_game ID`.
    pub fn withdrawn(&mut self, id: GameId) {
        if self.join.is_some_and(|(j, _)| j == id) {
            self.join = None;
        }
        if matches!(self.offer, Some(OfferState::Open(o) | OfferState::Accepted(o)) if o == id) {
            self.offer = None;
        }
    }

    /// The open games at login.
    pub fn set_open(&mut self, games: Vec<OpenGame>) {
        self.open = games.into_iter().map(|g| (g.id, g)).collect();
    }

    /// `games_updated`. A request whose game went, or whose creator turned it down (the
    /// challenger cleared), is over.
    pub fn update(&mut self, update: GamesUpdate, username: &str) {
        let declined = |g: &OpenGame| {
            !g.challenge_accepted
                && !g
                    .challenger
                    .as_deref()
                    .is_some_and(|c| c.eq_ignore_ascii_case(username))
        };
        // Only news of the game itself counts: an older entry does not yet show the request.
        let mut turned_down = false;
        let join = self.join.map(|(id, _)| id);
        let games = update.created.into_iter().map(|(_, _, g)| g);
        for game in games.chain(update.updated.into_values()) {
            turned_down |= Some(game.id) == join && declined(&game);
            self.open.insert(game.id, game);
        }
        for id in &update.removed {
            self.open.remove(id);
        }
        if let Some(id) = join
            && (update.removed.contains(&id) || turned_down)
        {
            log::info!("game {id}: the request to join was turned down");
            self.join = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Side;
    use crate::bot::command::Clock;

    const OFFER: Offer = Offer {
        side: Side::Attackers,
        rated: false,
        clock: Clock::Untimed,
        board: 11,
    };

    fn open(id: GameId, attacker: &str) -> OpenGame {
        open_on(id, attacker, 11)
    }

    fn open_on(id: GameId, attacker: &str, side: u8) -> OpenGame {
        OpenGame {
            id,
            attacker: Some(attacker.into()),
            board_size: format!("_{side}"),
            ..OpenGame::default()
        }
    }

    #[test]
    fn one_offer_at_a_time_and_every_challenge_accepted() {
        let mut lobby = Lobby::new(Seek::Offer(OFFER));
        let now = Instant::now();
        assert_eq!(
            lobby.actions(now, true, "me"),
            [ServerCommand::NewGame(OFFER)]
        );
        assert!(lobby.actions(now, true, "me").is_empty());
        lobby.created(5);
        assert!(!lobby.challenged(6));
        assert!(lobby.challenged(5));
        assert_eq!(lobby.started(), Some(5));
        assert!(lobby.actions(now, false, "me").is_empty(), "no room");
        assert_eq!(
            lobby.actions(now, true, "me"),
            [ServerCommand::NewGame(OFFER)]
        );
        // An unconfirmed offer is made again.
        let later = now + OFFER_PATIENCE + Duration::from_secs(1);
        assert_eq!(
            lobby.actions(later, true, "me"),
            [ServerCommand::NewGame(OFFER)]
        );
        lobby.reconnected();
        assert!(!lobby.pending());
    }

    #[test]
    fn join_any_asks_each_game_once_and_gives_up_on_silence() {
        let mut lobby = Lobby::new(Seek::JoinAny(Boards::all()));
        let now = Instant::now();
        assert!(lobby.actions(now, true, "me").is_empty());
        lobby.set_open(vec![open(1, "me"), open(2, "other"), open(3, "third")]);
        assert_eq!(lobby.actions(now, true, "me"), [ServerCommand::Join(2)]);
        let later = now + JOIN_PATIENCE + Duration::from_secs(1);
        assert_eq!(
            lobby.actions(later, true, "me"),
            [ServerCommand::Leave(2), ServerCommand::Join(3)]
        );
        // Turned down: the challenger cleared in an update.
        let update = GamesUpdate {
            updated: [("3".to_string(), open(3, "third"))].into(),
            ..GamesUpdate::default()
        };
        lobby.update(update, "me");
        assert!(!lobby.pending());
        assert!(lobby.actions(later, true, "me").is_empty());
    }

    #[test]
    fn join_asks_once() {
        let mut lobby = Lobby::new(Seek::Join(9));
        let now = Instant::now();
        assert_eq!(lobby.actions(now, true, "me"), [ServerCommand::Join(9)]);
        assert_eq!(lobby.started(), Some(9));
        assert!(lobby.actions(now, true, "me").is_empty());
    }

    #[test]
    fn join_any_takes_the_boards_it_is_allowed() {
        let games = || vec![open_on(1, "a", 7), open_on(2, "b", 13), open_on(3, "c", 11)];
        let now = Instant::now();
        let mut any = Lobby::new(Seek::JoinAny(Boards::all()));
        any.set_open(games());
        assert_eq!(any.actions(now, true, "me"), [ServerCommand::Join(1)]);
        let mut thirteen = Lobby::new(Seek::JoinAny(Boards::of(&[13]).unwrap()));
        thirteen.set_open(games());
        assert_eq!(thirteen.actions(now, true, "me"), [ServerCommand::Join(2)]);
        let mut nine = Lobby::new(Seek::JoinAny(Boards::of(&[7, 11]).unwrap()));
        nine.set_open(vec![open_on(4, "d", 9), open_on(5, "e", 13)]);
        assert!(nine.actions(now, true, "me").is_empty());
        assert_eq!(Boards::of(&[7, 9]), Err(9));
        assert!(Boards::all().contains(7) && !Boards::all().contains(9));
        assert!(!Boards::all().contains(200));
    }
}
