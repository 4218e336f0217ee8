//! Finding hnefatafl-copenhagen's programs for the tests that check Hnefi against them.
#![allow(dead_code)]

use std::path::PathBuf;

pub mod server;
pub mod text_protocol;

/// The command CI runs to install both programs (`.ci/run`).
pub const INSTALL: &str = "cargo install hnefatafl-copenhagen --version =6.4.1 --locked \
     --no-default-features --features server --bin hnefatafl-server --bin hnefatafl-text-protocol";

/// The program `name`: the path in the environment variable `env` if set, else the first
/// `name` on `PATH`, else in cargo's own bin folder.
pub fn find(name: &str, env: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        return Some(PathBuf::from(path));
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(cargo_home.map(|c| c.join("bin")))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The program, or `None` after saying on stderr that the test is skipped. In CI (the
/// variable `CI` set) a missing program fails the test instead: CI installs it.
pub fn require(name: &str, env: &str) -> Option<PathBuf> {
    let found = find(name, env);
    if found.is_none() {
        let why = format!("{name} not found (set {env}, or install it with: {INSTALL})");
        assert!(std::env::var_os("CI").is_none(), "{why}");
        eprintln!("SKIPPED: {why}");
    }
    found
}
