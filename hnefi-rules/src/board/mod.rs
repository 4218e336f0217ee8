//! The game itself: squares, pieces, rules, move generation and the end of the game.
//! Knows nothing of search or of text protocols.
//!
//! Every board type takes its size as a [`Geometry`], one a row of the size table
//! ([`sizes`]): `Board<Eleven>` is Copenhagen's board. There are no 11x11 aliases, so that
//! code written for one size says which.

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
pub mod walk;
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

pub use bitboard::Bitboard;
pub use captures::Custodial;
pub use moves::{Move, MoveList};
pub use notation::{NotationError, RecordMove};
pub use position::{Board, MoveError, Position, SetupError, WayOut};
pub use rulebook::Rulebook;
pub use square::Square;
