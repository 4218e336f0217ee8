//! The match runner: engines as child processes over their own protocols, a referee on the
//! rules core, and fastchess-style statistics (`match` is a Rust keyword, hence the name).
//! A match spread over shards and machines is [`crate::cluster`]'s, built on this module.

pub mod ending;
pub mod openings;
pub mod player;
pub mod runner;
pub mod setup;
pub mod spec;
pub mod spsa;
pub mod stats;
pub mod summary;
