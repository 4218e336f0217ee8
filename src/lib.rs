//! Hnefi: a Copenhagen Hnefatafl engine.

pub mod bench;
pub mod board;
pub mod bot;
pub mod files;
pub mod fuzz;
pub mod learn;
pub mod perft;
pub mod protocol;
pub mod record;
pub mod report;
pub mod search;
#[cfg(feature = "serve")]
pub mod serve;
pub mod shard;
pub mod splitmix;
pub mod tactics;
pub mod tournament;
pub mod variant;
