//! The real games of `data/copenhagen.csv`, read by the tests' own simple parser (not the
//! crate's), and the repository's files: shared by the tests of every crate of the workspace.

use std::path::PathBuf;

/// One line of `copenhagen.csv`.
pub struct Record {
    pub line: usize,
    pub moves: Vec<String>,
    pub timeout: bool,
    pub attacker_captures: u32,
    pub defender_captures: u32,
    pub result: String,
}

/// A file of the repository, found from the workspace's root so that tests of any of its
/// crates run from any directory.
pub fn repo_file(relative: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = root
        .ancestors()
        .find(|dir| dir.join("data/copenhagen.csv").is_file());
    root.expect("the repository's root, with data/copenhagen.csv")
        .join(relative)
}

/// The text of `data/copenhagen.csv`.
pub fn games_text() -> String {
    let path = repo_file("data/copenhagen.csv");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

pub fn games() -> Vec<Record> {
    let text = games_text();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 4, "line {}", i + 1);
            let mut moves: Vec<String> = f[0].split_whitespace().map(str::to_string).collect();
            let timeout = moves.last().is_some_and(|m| m == "timeout");
            if timeout {
                moves.pop();
            }
            Record {
                line: i + 1,
                moves,
                timeout,
                attacker_captures: f[1].parse().expect("count"),
                defender_captures: f[2].parse().expect("count"),
                result: f[3].to_string(),
            }
        })
        .collect()
}
