//! Measures of the engine: the bench signature and speed (`hnefi bench`), and the solve rate
//! on the built-in tactics (`hnefi tactics`).

pub mod bench;
pub mod deep_moves;
pub mod tactics;
