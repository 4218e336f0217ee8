//! The engine of Hnefi, a tafl (Viking chess) program: boards of 7x7 to 13x13 and the rules
//! played on them, their notation, perft, and the alpha-beta search with its NNUE networks and
//! time manager. The tools (protocols, match runner, trainer, bot, browser board) are the
//! `hnefi` crate's, built on this one.
//!
//! Code that plays one size compiled for it uses the generic types of [`board::generic`] and
//! [`search::Engine`], and [`with_size!`] to pick the size a side read at run time names.

pub mod board;
pub mod files;
pub mod perft;
pub mod search;
pub mod splitmix;

pub use board::{Outcome, Preset, Reason, Rules, Side};
