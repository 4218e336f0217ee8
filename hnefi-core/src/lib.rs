//! The engine of Hnefi, a tafl (Viking chess) program: boards of 7x7 to 13x13 and the rules
//! played on them, their notation, perft, and the alpha-beta search with its NNUE networks and
//! time manager. The tools (protocols, match runner, trainer, bot, browser board) are the
//! `hnefi` crate's, built on this one.
//!
//! A host that learns the board's size at run time holds a [`Game`] and an [`Engine`]:
//!
//! ```
//! use hnefi_core::{Engine, Game, Limits};
//!
//! let mut game = Game::new("copenhagen", None)?;
//! game.play("d1-d3")?;
//! let mut engine = Engine::new(Default::default())?;
//! let analysis = engine.analyse(&game, Limits::nodes(2_000))?;
//! println!("{:?} {} {}", analysis.best, analysis.score_cp, analysis.pv.join(" "));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Code that plays one size compiled for it uses the generic types of [`board::generic`] and
//! [`search::Engine`], and [`with_size!`] to pick the size a side read at run time names.

#![deny(missing_docs)]

pub mod api;
pub mod board;
pub mod files;
pub mod games;
pub mod perft;
pub mod search;
pub mod splitmix;

pub use api::{
    Analysis, Engine, EngineError, Game, GameError, Level, Limits, Planes, Settings, StopHandle,
};
pub use board::{Outcome, Preset, Reason, Rules, Side};
