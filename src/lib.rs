//! Hnefi: a Copenhagen Hnefatafl engine.

pub mod bench;
pub mod board;
pub mod perft;
pub mod search;
