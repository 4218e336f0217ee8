//! The rules of tafl, the Viking board games, on boards of 7x7 to 13x13: positions, legal
//! moves, captures, the end of the game and the rules that look back (repetition, no
//! progress), Copenhagen by default and every reading of the hosts as a preset; notation, FEN,
//! OpenTafl positions and rules strings, game records and OpenTafl `.otg` files; perft. No
//! search, no evaluation: that is `hnefi-core`, the engine built on this crate.
//!
//! A program that learns the board's size at run time holds a [`Game`]:
//!
//! ```
//! use hnefi_rules::{Game, Outcome, Side};
//!
//! let mut game = Game::new("copenhagen", None)?;
//! game.play("d1-d3")?;
//! assert_eq!(game.side_to_move(), Side::Defenders);
//! assert!(game.legal_moves().contains(&"e5-e2".to_string()));
//! assert!(game.play("a1-a2").is_err());
//! assert_eq!(game.outcome(), None::<Outcome>);
//! # Ok::<(), hnefi_rules::GameError>(())
//! ```
//!
//! Code compiled for one board size uses the types generic over a [`Geometry`] ([`Board`],
//! [`Position`], [`Move`], [`Square`], [`Bitboard`]), with a move list on the stack, and
//! [`with_size!`] to pick the size a side read at run time names:
//!
//! ```
//! use hnefi_rules::{Board, Eleven, MoveList, Rulebook, Rules};
//!
//! let rulebook = Rulebook::<Eleven>::new(Rules::default());
//! let mut board = Board::<Eleven>::start();
//! let mut moves = MoveList::new();
//! board.generate_moves(&rulebook, &mut moves);
//! assert_eq!(moves.len(), 116);
//! board.play(moves[0], &rulebook);
//! assert_eq!(hnefi_rules::perft::perft(&Board::<Eleven>::start(), 2, &Rules::default()), 6788);
//! ```
//!
//! The modules [`notation`], [`records`] and [`perft`] hold the rest: FEN and OpenTafl text,
//! the community's game records and `.otg` files, and move-tree counts.

#![deny(missing_docs)]
// Without `internals` the board's modules are private, and what only the engine and the tools
// call is unused here.
#![cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]

mod batch;
mod game;
mod parallel;
pub mod perft;

// The internals: every module of the board, for hnefi-core and Hnefi's tools, not covered by
// the crate's version (see the feature `internals`).
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod board;
#[cfg(not(feature = "internals"))]
mod board;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod games;
#[cfg(not(feature = "internals"))]
mod games;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod splitmix;
#[cfg(not(feature = "internals"))]
mod splitmix;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub use game::Positions;

pub use batch::{Batch, BatchError};
pub use board::geometry::{Eleven, Geometry, Nine, Seven, Thirteen};
pub use board::rules::{
    Escape, Kinds, KingStrength, NoMoves, Preset, Repetition, Rules, Special, SquareSet,
    UnknownPreset, WidthError,
};
pub use board::sizes::{AnySize, PerSize, SIDES, SizeError};
pub use board::square::{Direction, SquareError};
pub use board::variant::{NamedRules, RulesNameError};
pub use board::{
    Bitboard, Board, Custodial, Move, MoveError, MoveList, Outcome, Piece, Position, Reason,
    Rulebook, SetupError, Side, Square,
};
pub use game::{Game, GameError, PLANES, Refusal, ReplayRefusal};

/// Positions and moves as text: FEN, OpenTafl position and rules strings, moves as the game
/// records write them. A board reads its FEN with [`Board::from_fen`] or
/// [`Board::from_position`] (a FEN or an OpenTafl position), a move with [`Move::parse`].
pub mod notation {
    pub use crate::board::notation::{NotationError, RecordMove, START_FEN, to_fen, to_opentafl};
    pub use crate::board::opentafl::{RulesStringError, Variant, parse_rules_string, rules_string};
}

/// Whole games: a line of the community's records (the format of Hnefi's
/// `data/copenhagen.csv`) and OpenTafl's `.otg` files.
pub mod records {
    pub use crate::games::otg::{OtgError, OtgGame, parse as parse_otg, write as write_otg};
    pub use crate::games::record::{GameRecord, RecordError, Verdict, records, write_game};
}
