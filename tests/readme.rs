//! The command list (docs/commands.md, which README.md points to) against the real binary:
//! every command `hnefi --help` lists is in it, and every flag it shows is one the command
//! takes, so that the docs cannot fall behind the command line; and README.md's engine example.

use crate::common;

use std::collections::BTreeSet;
use std::process::Command;

fn help(path: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(path)
        .arg("--help")
        .output()
        .expect("run hnefi");
    assert!(out.status.success(), "hnefi {path:?} --help failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The commands a help text lists under `Commands:`, `help` aside.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The entries of docs/commands.md's `## Commands` list: each `    hnefi ...` line with the indented
/// lines after it, as (command path, flags shown).
fn readme_entries() -> Vec<(Vec<String>, Vec<String>)> {
    let path = common::repo_file("docs/commands.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let section: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "## Commands")
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    let mut entries: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for line in section {
        if let Some(rest) = line.strip_prefix("    hnefi") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let path = words
                .iter()
                .take_while(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
                .take_while(|w| !w.starts_with('-'))
                .map(|w| w.to_string())
                .collect();
            entries.push((path, Vec::new()));
        } else if !line.starts_with("    ") {
            continue;
        }
        let Some((_, flags)) = entries.last_mut() else {
            continue;
        };
        for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            if word == "-o" || (word.starts_with("--") && word.len() > 2) {
                flags.push(word.to_string());
            }
        }
    }
    entries
}

#[test]
fn the_readme_lists_every_command_with_flags_it_takes() {
    let entries = readme_entries();
    assert!(
        entries.len() > 20,
        "docs/commands.md's command list: {entries:?}"
    );
    let listed: BTreeSet<Vec<String>> = entries.iter().map(|(path, _)| path.clone()).collect();

    let top = help(&[]);
    let mut commands = Vec::new();
    for name in subcommands(&top) {
        let path = vec![name];
        for sub in subcommands(&help(&path)) {
            commands.push(vec![path[0].clone(), sub]);
        }
        commands.push(path);
    }
    for path in &commands {
        assert!(
            listed.contains(path),
            "docs/commands.md's command list lacks `hnefi {}`",
            path.join(" ")
        );
    }
    for (path, flags) in &entries {
        assert!(
            path.is_empty() || commands.contains(path),
            "docs/commands.md lists `hnefi {}`, which `hnefi --help` does not",
            path.join(" ")
        );
        let text = help(path);
        for flag in flags {
            assert!(
                [" ", ",", "\n"]
                    .iter()
                    .any(|end| text.contains(&format!("{flag}{end}"))),
                "docs/commands.md shows `hnefi {} ... {flag}`, which its --help does not list",
                path.join(" ")
            );
        }
    }
}

/// The engine example of README.md ("As an engine") answers the `bestmove` the README says.
#[test]
fn the_readme_engine_example_answers_what_it_says() {
    let readme = std::fs::read_to_string(common::repo_file("README.md")).expect("README.md");
    let at = readme
        .find("**As an engine.**")
        .expect("the engine example");
    let part = &readme[at..];
    let commands: Vec<&str> = part
        .lines()
        .skip_while(|l| !l.starts_with("    "))
        .take_while(|l| l.starts_with("    "))
        .map(str::trim)
        .collect();
    assert_eq!(commands.first(), Some(&"uci"), "{commands:?}");
    let said = part
        .split("`bestmove ")
        .nth(1)
        .and_then(|r| r.split('`').next())
        .expect("the README names the bestmove");
    use std::io::{BufRead, BufReader, Write};
    let mut child = common::spawn_hnefi(&[]);
    let mut stdin = child.stdin.take().expect("stdin");
    for c in &commands {
        writeln!(stdin, "{c}").unwrap();
    }
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let answer = stdout
        .lines()
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
        .expect("a bestmove");
    writeln!(stdin, "quit").unwrap();
    let _ = child.wait();
    assert_eq!(
        answer.split_whitespace().next(),
        Some(said),
        "README says {said}"
    );
}

/// README.md's match example, as written, from a folder outside the clone with `hnefi` on the
/// `PATH`, as after `cargo install`: it plays its games and reports them.
#[test]
fn the_readme_match_example_runs_from_any_folder() {
    let readme = std::fs::read_to_string(common::repo_file("README.md")).expect("README.md");
    let mut lines = readme
        .lines()
        .skip_while(|l| !l.starts_with("    hnefi match "));
    let mut command = String::new();
    for line in lines.by_ref() {
        let line = line.trim();
        match line.strip_suffix('\\') {
            Some(part) => command.push_str(part),
            None => {
                command.push_str(line);
                break;
            }
        }
    }
    assert!(
        command.starts_with("hnefi match ") && command.contains("cmd=hnefi "),
        "{command}"
    );
    let dir = common::Outside::new("readme-match");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_hnefi"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .args(["-c", &command])
        .current_dir(&dir.0)
        .env("PATH", path)
        .output()
        .expect("run sh");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{command}\n{stdout}\n{stderr}");
    assert!(stdout.contains("Results of full vs level5"), "{stdout}");
    assert!(dir.0.join("full-level5.csv").is_file());
}
