//! The integration tests, one binary: each file of `tests/` is a module of it, so that the
//! suite links once rather than once a file (each link of the release profile is a whole-program
//! optimisation). They drive the real binary (`CARGO_BIN_EXE_hnefi`) through its protocols and
//! commands, or the library's public API. The rules' own tests are the rules crate's
//! (hnefi-rules/tests/); the README's `cargo test --release` runs both. `cargo test --release --test integration MODULE::`
//! runs one file's tests.

mod common;
mod reference;
mod webdriver;

mod bot;
mod cli;
mod closed_pipe;
mod connect;
mod convert;
mod datagen;
mod engine_start;
mod hnefatafl_server;
mod htp;
mod interrupt;
#[path = "match.rs"]
mod matches;
mod otep;
mod perft;
mod properties;
mod protocol_fuzz;
mod readme;
mod report;
mod rulebook;
#[cfg(unix)]
mod safe_files;
mod search;
mod serve;
mod serve_page;
mod server_rules;
mod server_rules_sizes;
mod slurm;
mod spsa;
mod train;
mod tune;
mod uci;
