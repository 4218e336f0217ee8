//! The game itself: squares, pieces, rules, move generation and the end of the game.
//! Knows nothing of search or of text protocols.

pub mod bitboard;
pub mod captures;
pub mod fort;
pub mod movegen;
pub mod moves;
pub mod no_escape;
pub mod notation;
pub mod outcome;
pub mod piece;
pub mod position;
pub mod rulebook;
pub mod rules;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use moves::{Move, MoveList};
pub use notation::{NotationError, START_FEN};
pub use outcome::{Outcome, Reason};
pub use piece::{Piece, Side};
pub use position::{Board, MoveError, Position, SetupError};
pub use rulebook::{History, Rulebook};
pub use rules::{Preset, Rules, UnknownPreset};
pub use square::Square;
