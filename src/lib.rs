//! Hnefi: a Copenhagen Hnefatafl engine.

pub mod board;
pub mod perft;
