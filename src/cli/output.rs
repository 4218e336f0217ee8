//! Where the commands' output goes. Standard output: `print!` panics when the reader has gone
//! (`hnefi eval | head -1`); [`out!`] and [`outln!`] return the failure as
//! [`CliError::Stdout`], which ends the command quietly with status 0 when the pipe was
//! closed. (Rust ignores SIGPIPE, and restoring its default would kill the match runner when
//! an engine it writes to exits, so the closed pipe is handled where the output is written.)
//! Diagnostics on standard error go through [`note!`], which passes over a closed one.
//! Files: replaced whole, through [`hnefi::files`], so that a failure never costs what they
//! held.

use super::CliError;
use std::path::{Path, PathBuf};

/// `print!` returning `Result<(), CliError>`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*).map_err($crate::cli::error::CliError::Stdout)
    }};
}

/// `println!` returning `Result<(), CliError>`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*).map_err($crate::cli::error::CliError::Stdout)
    }};
}

/// `eprintln!` for diagnostics and progress, which never fail a command: a closed standard
/// error (`hnefi bench 2>&1 | head -1`) is passed over rather than a panic.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Writes a command's document whole: as the new content of `path`, or without one to
/// standard output.
pub(super) fn write_document(path: Option<&Path>, text: &[u8]) -> Result<(), CliError> {
    use std::io::Write;
    match path {
        Some(path) => hnefi::files::replace(path, text).map_err(CliError::write(path)),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text)
                .and_then(|()| out.flush())
                .map_err(CliError::Stdout)
        }
    }
}

/// Fails at once if `path` cannot be written, for commands that compute for long before they
/// write it; creates nothing.
pub(super) fn check_writable(path: &Path) -> Result<(), CliError> {
    hnefi::files::check_writable(path).map_err(CliError::write(path))
}

/// `stem.ext` in the working folder, or the first of `stem-2.ext`, `stem-3.ext`, ... that
/// names nothing there: the default name of a file a command writes unasked, which must never
/// replace one.
pub(super) fn unused_name(stem: &str, ext: &str) -> PathBuf {
    let taken = |p: &Path| p.symlink_metadata().is_ok();
    let first = PathBuf::from(format!("{stem}.{ext}"));
    if !taken(&first) {
        return first;
    }
    let mut n = 2u64;
    loop {
        let path = PathBuf::from(format!("{stem}-{n}.{ext}"));
        if !taken(&path) {
            return path;
        }
        n += 1;
    }
}
