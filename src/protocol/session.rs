//! What a host has told the engine, whatever its protocol: the game with its history under its
//! rules, the clocks, and the command line's settings; from these, the limits of a search.

use super::LoopSettings;
use crate::board::{Bitboard, Board, Move, MoveError, Position, SetupError};
use crate::board::{Geometry, Rules, Side};
use crate::search::{Clock, Go, Level, Options};
use std::time::Duration;

/// A move of a host's game that could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({mv}) is illegal: {error}")]
pub struct IllegalMove<G: Geometry> {
    /// Counted from 1.
    pub number: usize,
    pub mv: Move<G>,
    pub error: MoveError<G>,
}

/// A host's game that the session's rules cannot play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError<G: Geometry> {
    #[error(transparent)]
    Setup(#[from] SetupError<G>),
    #[error(transparent)]
    Move(#[from] IllegalMove<G>),
}

pub struct Session<G: Geometry> {
    position: Position<G>,
    clock: Clock,
    /// Thinking time per move when no clock runs.
    move_time: Duration,
    /// The most nodes any search may visit.
    max_nodes: Option<u64>,
    level: Level,
}

impl<G: Geometry> Session<G> {
    /// A game from the start under `rules`; `move_time` is the protocol's thinking time per
    /// move without a clock, unless the settings say otherwise.
    pub fn new(rules: Rules, move_time: Duration, settings: LoopSettings) -> Session<G> {
        Session {
            position: Position::new(start_board(&rules), rules),
            clock: Clock::NONE,
            move_time: settings.move_time.unwrap_or(move_time),
            max_nodes: settings.max_nodes,
            level: settings.level,
        }
    }

    /// The options of the session's engine, before a host changes any.
    pub fn engine_options(&self) -> Options {
        Options {
            level: self.level,
            ..Options::default()
        }
    }

    pub fn position(&self) -> &Position<G> {
        &self.position
    }

    pub fn rules(&self) -> Rules {
        *self.position.rules()
    }

    pub fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }

    /// A new game from `board` under `rules`.
    pub fn new_game(&mut self, board: Board<G>, rules: Rules) {
        self.position = Position::new(board, rules);
    }

    /// The same game under other rules: its moves replayed as far as they stay legal.
    pub fn change_rules(&mut self, rules: Rules) {
        let moves: Vec<Move<G>> = self.position.moves().collect();
        let mut start = self.position.clone();
        while start.undo().is_some() {}
        self.position = Position::new(*start.board(), rules);
        for mv in moves {
            if self.position.try_play(mv).is_err() {
                break;
            }
        }
    }

    /// The game the host gives as a board and the moves since, under the session's rules.
    pub fn replay(
        &self,
        board: Board<G>,
        moves: &[Move<G>],
    ) -> Result<Position<G>, ReplayError<G>> {
        let mut pos = Position::new(board, self.rules());
        pos.rulebook().check_setup(&board)?;
        for (i, &mv) in moves.iter().enumerate() {
            pos.try_play(mv).map_err(|error| IllegalMove {
                number: i + 1,
                mv,
                error,
            })?;
        }
        Ok(pos)
    }

    /// Takes a game [`Session::replay`] gave.
    pub fn set_position(&mut self, position: Position<G>) {
        self.position = position;
    }

    /// Plays `mv` if it is legal; returns the captures.
    pub fn play(&mut self, mv: Move<G>) -> Result<Bitboard<G>, MoveError<G>> {
        self.position.try_play(mv)
    }

    pub fn undo(&mut self) -> Option<Move<G>> {
        self.position.undo()
    }

    /// Takes the host's board when it differs from the game's (which then starts from it);
    /// returns whether it did.
    pub fn resync(&mut self, board: Board<G>) -> bool {
        let differs = *self.position.board() != board;
        if differs {
            self.new_game(board, self.rules());
        }
        differs
    }

    /// Makes it `side`'s turn: if it is not, the game starts again from its board with
    /// `side` to move.
    pub fn give_turn(&mut self, side: Side) {
        if self.side_to_move() != side {
            self.resync(self.position.board().with_side_to_move(side));
        }
    }

    pub fn clock(&self) -> Clock {
        self.clock
    }

    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// `side` moved, taking `used` of its clock.
    pub fn spend(&mut self, side: Side, used: Duration) {
        self.clock.spend(side, used);
    }

    /// The limits of a search for a move of the side to move: its clock if it has one, else
    /// the thinking time per move.
    pub fn move_limits(&self) -> Go<G> {
        let limits: Go<G> = match self.clock.side(self.side_to_move()) {
            Some(_) => Go {
                clock: self.clock,
                ..Go::default()
            },
            None => Go {
                movetime: Some(self.move_time),
                ..Go::default()
            },
        };
        self.capped(limits)
    }

    /// Go<G> the host asked for, held to the settings' node cap.
    pub fn capped(&self, limits: Go<G>) -> Go<G> {
        limits.with_node_cap(self.max_nodes)
    }
}

/// The start of `rules`' game: its preset's, or else the empty board with the king on the
/// throne.
pub fn start_board<G: Geometry>(rules: &Rules) -> Board<G> {
    Board::from_fen(rules.preset.start_fen())
        .expect("every preset's start is a valid board of its size")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Preset, Square};
    use crate::search::SideClock;
    use crate::search::size::Standard;

    fn mv(from: &str, to: &str) -> crate::board::Move<Standard> {
        Move::new(Square::parse(from).unwrap(), Square::parse(to).unwrap())
    }

    #[test]
    fn limits_come_from_the_clock_else_the_move_time_and_are_capped() {
        let settings = LoopSettings {
            max_nodes: Some(500),
            level: Level::new(3).unwrap(),
            ..LoopSettings::default()
        };
        let mut s = Session::new(Rules::default(), Duration::from_secs(2), settings);
        assert_eq!(s.engine_options().level, settings.level);
        let l = s.move_limits();
        assert_eq!(
            (l.movetime, l.nodes),
            (Some(Duration::from_secs(2)), Some(500))
        );
        let own = SideClock::new(Duration::from_secs(60), Duration::from_secs(1));
        s.set_clock(Clock::new(Some(own), None));
        let l = s.move_limits();
        assert_eq!(
            (l.movetime, l.clock.side(Side::Attackers)),
            (None, Some(own))
        );
        // The defenders have no clock: they think for the move time.
        s.play(mv("d1", "d3")).unwrap();
        assert_eq!(s.move_limits().movetime, Some(Duration::from_secs(2)));
        s.spend(Side::Attackers, Duration::from_secs(10));
        assert_eq!(
            s.clock().side(Side::Attackers).unwrap().left,
            Duration::from_secs(51)
        );
    }

    #[test]
    fn replays_say_the_illegal_move_and_rules_changes_keep_the_game() {
        let mut s = Session::new(Rules::default(), Duration::ZERO, LoopSettings::default());
        let game = s
            .replay(Board::start(), &[mv("d1", "d3"), mv("f4", "f3")])
            .unwrap();
        s.set_position(game);
        let e = s
            .replay(Board::start(), &[mv("d1", "d3"), mv("d3", "d5")])
            .unwrap_err();
        assert!(matches!(
            e,
            ReplayError::Move(IllegalMove { number: 2, .. })
        ));
        assert!(e.to_string().starts_with("move 2 (d3d5) is illegal"), "{e}");
        // A man where the rules let none stand.
        let on_throne = Board::new(
            Bitboard::EMPTY.with(Square::throne()),
            Bitboard::EMPTY,
            Square::parse("c3").unwrap(),
            Side::Attackers,
        )
        .unwrap();
        let e = s.replay(on_throne, &[]).unwrap_err();
        assert!(matches!(e, ReplayError::Setup(_)), "{e}");
        assert_eq!(s.position().plies(), 2, "unchanged");
        s.change_rules(Rules::preset(Preset::Fetlar));
        assert_eq!(
            (s.position().plies(), s.rules().preset),
            (2, Preset::Fetlar)
        );
        // The host's own board restarts the game; the same board keeps the history.
        assert!(!s.resync(*s.position().board()));
        assert_eq!(s.position().plies(), 2);
        s.give_turn(Side::Defenders);
        assert_eq!(s.position().plies(), 0);
        assert_eq!(s.side_to_move(), Side::Defenders);
    }
}
