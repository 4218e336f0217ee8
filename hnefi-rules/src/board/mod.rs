//! The game itself: squares, pieces, rules, move generation and the end of the game.
//! Knows nothing of search or of text protocols.
//!
//! Every board type takes its size as a [`Geometry`], one a row of the size table
//! ([`sizes`]). The names exported here without one are the 11x11 board's, kept for the code
//! that plays Copenhagen alone (the real games of `data/`, the bench, the tuner); the search,
//! the protocols and the tools play every size through [`generic`].

pub mod bitboard;
pub mod captures;
mod diagram;
pub mod fort;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod no_escape;
pub mod notation;
pub mod opentafl;
pub mod outcome;
pub mod piece;
pub mod position;
pub mod rulebook;
pub mod rules;
pub mod sizes;
pub mod square;
pub mod terrain;
pub mod variant;
pub mod zobrist;

pub use geometry::Geometry;
pub use geometry::types::*;
pub use moves::MAX_MOVES;
pub use notation::START_FEN;
pub use outcome::{Outcome, Reason};
pub use piece::{Piece, Side};
pub use rulebook::History;
pub use rules::{Preset, Rules, UnknownPreset, WidthError};
pub use sizes::{SIDES, SizeError, across_sizes, side_of};

/// The board's types for every size, for code generic over a [`Geometry`].
pub mod generic {
    pub use super::bitboard::Bitboard;
    pub use super::captures::Custodial;
    pub use super::moves::{Move, MoveList};
    pub use super::notation::{NotationError, RecordMove};
    pub use super::position::{Board, MoveError, Position, SetupError};
    pub use super::rulebook::Rulebook;
    pub use super::square::Square;
}

/// A set of squares of the 11x11 board.
pub type Bitboard = bitboard::Bitboard<Eleven>;
/// An 11x11 board (see [`generic::Board`]).
pub type Board = position::Board<Eleven>;
/// A move on 11x11.
pub type Move = moves::Move<Eleven>;
/// Why a move is not legal on 11x11.
pub type MoveError = position::MoveError<Eleven>;
/// A list of moves on 11x11.
pub type MoveList = moves::MoveList<Eleven>;
/// Why a text is no 11x11 position or move.
pub type NotationError = notation::NotationError<Eleven>;
/// An 11x11 game position with its history.
pub type Position = position::Position<Eleven>;
/// Why pieces make no 11x11 board.
pub type SetupError = position::SetupError<Eleven>;
/// A square of 11x11.
pub type Square = square::Square<Eleven>;
/// A move on 11x11 as records write it, with its captures.
pub type RecordMove = notation::RecordMove<Eleven>;
/// The captures of a move on 11x11.
pub type Custodial = captures::Custodial<Eleven>;
/// The rules of a game on 11x11, compiled for it.
pub type Rulebook = rulebook::Rulebook<Eleven>;
