//! The engine of Hnefi, a tafl (Viking chess) program: the alpha-beta search with its NNUE
//! networks and time manager, on the rules of [`hnefi_rules`] (boards of 7x7 to 13x13, their
//! rules, notation and perft), whose modules it re-exports. The tools (protocols, match runner,
//! trainer, bot, browser board) are the `hnefi` crate's, built on this one.
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
//! A game is read from and written as a line of the community's records (the format of Hnefi's
//! `data/copenhagen.csv`) or an OpenTafl `.otg` file, and its moves are also at hand as square
//! indices, for a network's policy or an action space:
//!
//! ```
//! use hnefi_core::Game;
//!
//! let game = Game::from_record("d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Ongoing", None)?;
//! assert_eq!(Game::from_otg(&game.to_otg())?.to_record(), game.to_record());
//! let mut copy = game.clone();
//! let (from, to) = copy.legal_move_indices()[0];
//! copy.play_indices(from, to)?;
//! assert_eq!(copy.moves().len(), game.moves().len() + 1);
//! # Ok::<(), hnefi_core::GameError>(())
//! ```
//!
//! The rules' types are [`hnefi_rules`]'s, re-exported here ([`rules`]) so that a program on the
//! engine needs no second dependency.
//!
//! The crate builds for WebAssembly for the web (`wasm32-unknown-unknown`) unchanged. There,
//! with no threads, an [`Engine`] searches on the caller's thread (its reports come as it
//! searches, and a [`StopHandle`] is for the reports' own callback to use), and the search's
//! clock is the host's: the module imports `now_ms` from the module `hnefi`, milliseconds that
//! never go back (`performance.now()`). The npm package in the repository's `web/` is built so.

#![deny(missing_docs)]
// Without `internals` the search's modules are private, and what only the tools call (the
// trainer's feature tables, the tuner's parameters) is unused here.
#![cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]

mod api;

// The internals: the search and its networks, and the rules' board, for Hnefi's tools (the
// protocols, the trainer, the tuner), not covered by the crate's version (see the feature
// `internals`).
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod files;
#[cfg(not(feature = "internals"))]
mod files;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod search;
#[cfg(not(feature = "internals"))]
mod search;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub use hnefi_rules::{board, each_size, games, splitmix};
#[cfg(not(feature = "internals"))]
use hnefi_rules::{board, each_size, games, splitmix};

pub use api::{Analysis, Engine, EngineError, Limits, Settings, StopHandle};
pub use search::skill::{Level, LevelError};

#[doc(no_inline)]
pub use hnefi_rules::{
    self as rules, Batch, BatchError, Game, GameError, Outcome, PLANES, Preset, Reason, Rules,
    Side, perft, with_size,
};
