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
//! Code compiled for one board size uses the generic types of [`board`], and
//! [`with_size!`] to pick the size a side read at run time names.

#![deny(missing_docs)]

mod batch;
pub mod board;
mod game;
pub mod games;
mod parallel;
pub mod perft;
pub mod splitmix;

pub use batch::{Batch, BatchError};
pub use board::{Outcome, Preset, Reason, Rules, Side};
pub use game::{Game, GameError, PLANES, Positions};
