//! Shared helpers for the integration tests: the real games of `data/copenhagen.csv`.
#![allow(dead_code)]

pub mod server;

use std::path::PathBuf;

// The real games and the repository's files, shared with the rules crate's tests.
#[path = "../../hnefi-rules/tests/common/games.rs"]
mod games;
pub use games::*;

/// The real `hnefi` binary with `args`, its stdin and stdout piped, its logs discarded.
pub fn spawn_hnefi(args: &[&str]) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hnefi")
}

/// An empty directory `name` under the tests' scratch space.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a test directory");
    dir
}

/// An empty folder outside the repository, under the system's temporary folder, removed
/// when dropped: a command run there finds none of the repository's files, as a person's
/// does after `cargo install`.
pub struct Outside(pub PathBuf);

impl Outside {
    pub fn new(name: &str) -> Outside {
        let dir = std::env::temp_dir().join(format!("hnefi-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder outside the repository");
        assert!(
            !dir.starts_with(env!("CARGO_MANIFEST_DIR")),
            "{}",
            dir.display()
        );
        Outside(dir)
    }
}

impl Drop for Outside {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the real `hnefi` in `dir` to its end: whether it succeeded, its standard output and its
/// standard error.
pub fn output_of_hnefi_in(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    output_of_hnefi_with(dir, args, &[])
}

/// [`output_of_hnefi_in`] with the variables `vars` set, and no Slurm job array's variables
/// but those (the tests may themselves run as a task of an array).
pub fn output_of_hnefi_with(
    dir: &std::path::Path,
    args: &[&str],
    vars: &[(&str, &str)],
) -> (bool, String, String) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_hnefi"));
    for (name, _) in std::env::vars() {
        if name.starts_with("SLURM_ARRAY_") {
            command.env_remove(name);
        }
    }
    let out = command
        .current_dir(dir)
        .args(args)
        .envs(vars.iter().copied())
        .output()
        .expect("hnefi runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the real `hnefi` in `dir` to its end: whether it succeeded, and its standard error.
pub fn run_hnefi_in(dir: &std::path::Path, args: &[&str]) -> (bool, String) {
    let (ok, _, stderr) = output_of_hnefi_in(dir, args);
    (ok, stderr)
}

/// Runs the real `hnefi` in `dir` to its end, unable to write a file past `max_bytes` bytes
/// (the process limit RLIMIT_FSIZE, with its signal ignored, so that such a write fails with
/// "file too large" as a full disk would): whether it succeeded, and its standard error.
#[cfg(unix)]
pub fn run_hnefi_with_file_limit(
    dir: &std::path::Path,
    args: &[&str],
    max_bytes: u64,
) -> (bool, String) {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hnefi"));
    cmd.current_dir(dir).args(args);
    // SAFETY: between fork and exec only async-signal-safe calls, on no shared state.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: max_bytes,
                rlim_max: max_bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let out = cmd.output().expect("hnefi runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the real `hnefi` in `dir` with its standard output a pipe whose reader has already
/// gone (as `hnefi ... | head -0` leaves it): its exit status and its standard error.
pub fn run_hnefi_into_closed_pipe(
    dir: &std::path::Path,
    args: &[&str],
    input: &str,
) -> (std::process::ExitStatus, String) {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hnefi");
    let mut stdin = child.stdin.take().expect("stdin");
    // The engine may end before it reads everything: a failed write here is no failure.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    (child.wait().expect("hnefi ends"), stderr)
}

/// Runs the real `hnefi` in `dir` with standard output and standard error one pipe whose
/// reader has already gone (`hnefi ... 2>&1 | head -0`): its exit status.
pub fn run_hnefi_all_into_closed_pipe(
    dir: &std::path::Path,
    args: &[&str],
) -> std::process::ExitStatus {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    std::process::Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .current_dir(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(writer.try_clone().expect("a second end"))
        .stderr(writer)
        .status()
        .expect("hnefi runs")
}

/// Every preset's start line of `positions/perft.epd`: its FEN, its preset's name and its
/// counts from depth 1 on.
pub fn preset_starts() -> Vec<(String, String, Vec<u64>)> {
    let path = repo_file("positions/perft.epd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && l.contains("; rules "))
        .map(|l| {
            let fields: Vec<&str> = l.split(';').map(str::trim).collect();
            let preset = fields[1].strip_prefix("rules ").expect("rules PRESET");
            let counts = fields
                .iter()
                .filter_map(|f| f.strip_prefix('D'))
                .map(|f| f.split_whitespace().nth(1).unwrap().parse().unwrap())
                .collect();
            (fields[0].to_string(), preset.to_string(), counts)
        })
        .collect()
}

/// Which of `hnefi`'s outputs is a terminal.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Terminal {
    Stdout,
    Stderr,
}

/// Runs the real `hnefi` in `dir` with one of its outputs a terminal (a pseudo-terminal of 100
/// columns, as a person's shell gives it) and the other a pipe: whether it succeeded, what the
/// terminal showed and what the pipe got.
#[cfg(unix)]
pub fn hnefi_at_terminal(
    dir: &std::path::Path,
    args: &[&str],
    terminal: Terminal,
) -> (bool, String, String) {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::process::{Command, Stdio};
    let (mut master, mut slave) = (-1, -1);
    let size = libc::winsize {
        ws_row: 40,
        ws_col: 100,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes the two descriptors it opens and reads the size; no name asked.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened, and nothing else owns them.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hnefi"));
    cmd.current_dir(dir)
        .args(args)
        .env("TERM", "xterm")
        .stdin(Stdio::null());
    match terminal {
        Terminal::Stdout => cmd.stdout(Stdio::from(slave)).stderr(Stdio::piped()),
        Terminal::Stderr => cmd.stderr(Stdio::from(slave)).stdout(Stdio::piped()),
    };
    let child = cmd.spawn().expect("start hnefi");
    // Our copy of the terminal's side closed, reading ends (with EIO) once hnefi's is.
    drop(cmd);
    let shown = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::fs::File::from(master).read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let out = child.wait_with_output().expect("hnefi ends");
    let piped = match terminal {
        Terminal::Stdout => out.stderr,
        Terminal::Stderr => out.stdout,
    };
    (
        out.status.success(),
        shown.join().expect("the terminal's reader"),
        String::from_utf8_lossy(&piped).into_owned(),
    )
}
