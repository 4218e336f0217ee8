//! The rules' integration tests, one binary: each file of `tests/` is a module of it. They use
//! the crate's public API alone: each rule against hand-made boards and the seed texts'
//! diagrams, the real games replayed, perft against a second simple generator and the
//! variants' suite, and OpenTafl's rules strings. `cargo test -p hnefi-rules --test rules
//! MODULE::` runs one file's tests.

mod common;

mod opentafl_rules;
mod perft;
mod preset_perft;
mod replay;
mod rules;
mod seeds;
