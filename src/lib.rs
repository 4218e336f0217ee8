//! Hnefi's tools on the engine of [`hnefi_core`]: the text protocols and their loops, the match
//! runner, training, the hnefatafl.org bot, the board in the browser, game reports, the fuzzer
//! and cluster planning.
//!
//! The engine's modules are re-exported under their own names, so that `hnefi::board` and
//! `hnefi::search` are `hnefi_core`'s.

pub use hnefi_core::{board, files, perft, search, splitmix};

pub mod bot;
pub mod cluster;
pub mod games;
pub mod learn;
pub mod measure;
pub mod protocol;
pub mod report;
#[cfg(feature = "serve")]
pub mod serve;
pub mod tournament;
