//! The rules' integration tests, one binary: each file of `tests/` is a module of it. They use
//! the crate's API and, through the feature `internals`, the board's internals that the engine
//! relies on (keys, the rulebook's fast paths): each rule against hand-made boards and the seed texts'
//! diagrams, the real games replayed, perft against a second simple generator and the
//! variants' suite, OpenTafl's rules strings, and properties of random play and of malformed
//! text. `cargo test -p hnefi-rules --test rules
//! MODULE::` runs one file's tests.

mod common;

mod opentafl_rules;
mod perft;
mod preset_perft;
mod properties;
mod replay;
mod rules;
mod seeds;
