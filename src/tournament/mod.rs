//! The match runner: engines as child processes over their own protocols, a referee on the
//! rules core, and fastchess-style statistics (`match` is a Rust keyword, hence the name).

pub mod ending;
pub mod openings;
pub mod pairs;
pub mod player;
pub mod runner;
pub mod spec;
pub mod spsa;
pub mod stats;
pub mod summary;
