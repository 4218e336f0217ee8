//! Shards of a run spread over processes or machines: which part this process plays (from
//! `--shard I/N`, or from the task index a Slurm job array gives it), and the header line that
//! opens every shard's output, so that a merge can tell one run's shards from another run's
//! and see which are missing.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Why a shard cannot be named or its outputs merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("--shard: '{0}' is neither I/N with 1 <= I <= N nor slurm")]
    Words(String),
    #[error(
        "--shard slurm: {0} is not set: run it as a task of a Slurm job array (sbatch \
         --array=...), or give --shard I/N"
    )]
    NoVariable(&'static str),
    #[error("--shard slurm: {var}={value} is not a whole number")]
    NotANumber { var: &'static str, value: String },
    #[error(
        "--shard slurm: the job array's variables disagree ({0}); give sbatch --array a range \
         such as 1-8 or 0-30:3, not a list"
    )]
    Inconsistent(String),
    #[error(
        "{}: the first line is not a shard header ('# hnefi {kind} shard I/N settings ...'): \
         not the output of a shard, or written by an older hnefi",
        .path.display()
    )]
    NoHeader { path: PathBuf, kind: String },
    #[error(
        "{} and {} are shards of different runs; merge only the shards of one run:\n  {}\n  {}",
        .first.display(), .other.display(), .first_settings, .other_settings
    )]
    OtherRun {
        first: PathBuf,
        other: PathBuf,
        first_settings: String,
        other_settings: String,
    },
    #[error("shard {shard} is in both {} and {}", .first.display(), .other.display())]
    Repeated {
        shard: String,
        first: PathBuf,
        other: PathBuf,
    },
    #[error(
        "{} of {count} missing: wait for it to finish, or run it again",
        list(.missing)
    )]
    Missing { missing: Vec<u32>, count: u32 },
}

/// `shard 3` or `shards 2, 5`.
fn list(shards: &[u32]) -> String {
    let words: Vec<String> = shards.iter().map(u32::to_string).collect();
    let plural = if shards.len() > 1 { "s" } else { "" };
    format!("shard{plural} {}", words.join(", "))
}

/// The shard `text` names: `I/N`, or `slurm` for the task of a Slurm job array, its index and
/// bounds read through `var` (the process environment, or a test's).
pub fn parse(text: &str, var: impl Fn(&str) -> Option<String>) -> Result<(u32, u32), ShardError> {
    if text.trim() == "slurm" {
        return from_slurm(var);
    }
    let bad = || ShardError::Words(text.to_string());
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The shard of a job array's task. Arrays may start anywhere and step by any amount
/// (`--array=0-30:3`); shard I of N is the array's I-th task. Slurm gives either the step or
/// the count (or both); anything that does not describe a regular range is refused rather
/// than guessed, since a wrong guess plays some games twice and others never.
fn from_slurm(var: impl Fn(&str) -> Option<String>) -> Result<(u32, u32), ShardError> {
    let number = |name: &'static str| -> Result<Option<u64>, ShardError> {
        var(name)
            .map(|value| {
                value.trim().parse().map_err(|_| ShardError::NotANumber {
                    var: name,
                    value: value.clone(),
                })
            })
            .transpose()
    };
    let required = |name: &'static str| number(name)?.ok_or(ShardError::NoVariable(name));
    let id = required("SLURM_ARRAY_TASK_ID")?;
    let min = required("SLURM_ARRAY_TASK_MIN")?;
    let max = required("SLURM_ARRAY_TASK_MAX")?;
    let (step, count) = (
        number("SLURM_ARRAY_TASK_STEP")?,
        number("SLURM_ARRAY_TASK_COUNT")?,
    );
    let inconsistent = || {
        let mut words = format!("ID {id}, MIN {min}, MAX {max}");
        if let Some(s) = step {
            let _ = write!(words, ", STEP {s}");
        }
        if let Some(c) = count {
            let _ = write!(words, ", COUNT {c}");
        }
        ShardError::Inconsistent(words)
    };
    if !(min..=max).contains(&id) {
        return Err(inconsistent());
    }
    let step = match (step, count) {
        (Some(0), _) | (_, Some(0)) => return Err(inconsistent()),
        (Some(s), _) => s,
        (None, Some(1)) => 1,
        (None, Some(c)) => {
            let span = max - min;
            if span % (c - 1) != 0 {
                return Err(inconsistent());
            }
            span / (c - 1)
        }
        (None, None) => {
            return Err(ShardError::NoVariable(
                "SLURM_ARRAY_TASK_STEP (nor SLURM_ARRAY_TASK_COUNT)",
            ));
        }
    };
    // A single-task array has MIN = MAX and any step.
    let tasks = (max - min) / step + 1;
    let regular = (max - min) % step == 0 && (id - min) % step == 0;
    if !regular || count.is_some_and(|c| c != tasks) {
        return Err(inconsistent());
    }
    let index = (id - min) / step + 1;
    let fits = |n: u64| u32::try_from(n).map_err(|_| inconsistent());
    Ok((fits(index)?, fits(tasks)?))
}

/// FNV-1a, 64 bits: a short, stable name for a run's settings.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The first line of a shard's output: what command made it, which shard it is, and the
/// settings that must agree for shards to be of one run (with their hash, so that a glance or
/// `cut` tells runs apart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The command: `datagen`, `match`.
    pub kind: String,
    pub shard: (u32, u32),
    pub hash: u64,
    /// The settings, on one line.
    pub settings: String,
}

impl Header {
    pub fn new(kind: &str, settings: &str, shard: (u32, u32)) -> Header {
        // One line whatever the settings hold, as readers take the header a line at a time.
        let settings = settings.replace(['\n', '\r'], " ");
        Header {
            kind: kind.to_string(),
            shard,
            hash: fnv1a(settings.as_bytes()),
            settings,
        }
    }

    /// The header as a `#` comment line, which the sample readers skip; with its newline.
    pub fn line(&self) -> String {
        format!(
            "# hnefi {} shard {}/{} settings {:016x}: {}\n",
            self.kind, self.shard.0, self.shard.1, self.hash, self.settings
        )
    }

    /// The header of `line`, if it is one of `kind` whose hash matches its settings.
    pub fn parse(line: &str, kind: &str) -> Option<Header> {
        let rest = line
            .trim_end_matches(['\n', '\r'])
            .strip_prefix("# hnefi ")?;
        let rest = rest.strip_prefix(kind)?.strip_prefix(" shard ")?;
        let (shard, rest) = rest.split_once(" settings ")?;
        let (hash, settings) = rest.split_once(": ")?;
        let (i, n) = shard.split_once('/')?;
        let header = Header {
            kind: kind.to_string(),
            shard: (i.parse().ok()?, n.parse().ok()?),
            hash: u64::from_str_radix(hash, 16).ok()?,
            settings: settings.to_string(),
        };
        let sound = header.shard.0 >= 1
            && header.shard.0 <= header.shard.1
            && header.hash == fnv1a(settings.as_bytes());
        sound.then_some(header)
    }

    /// The header at the start of `text`, the output of `path`.
    pub fn of_text(text: &str, kind: &str, path: &Path) -> Result<Header, ShardError> {
        text.lines()
            .next()
            .and_then(|line| Header::parse(line, kind))
            .ok_or_else(|| ShardError::NoHeader {
                path: path.to_path_buf(),
                kind: kind.to_string(),
            })
    }
}

/// Checks that `headers` (with the files they open) are shards of one run. With `complete`,
/// every shard of the run must be there; without, shards may be missing (a run still going).
pub fn check(headers: &[(PathBuf, Header)], complete: bool) -> Result<(), ShardError> {
    let Some((first_path, first)) = headers.first() else {
        return Ok(());
    };
    let mut seen: BTreeMap<u32, &Path> = BTreeMap::new();
    for (path, header) in headers {
        if header.hash != first.hash || header.shard.1 != first.shard.1 {
            return Err(ShardError::OtherRun {
                first: first_path.clone(),
                other: path.clone(),
                first_settings: format!("{}/{} {}", "shards", first.shard.1, first.settings),
                other_settings: format!("{}/{} {}", "shards", header.shard.1, header.settings),
            });
        }
        if let Some(before) = seen.insert(header.shard.0, path) {
            return Err(ShardError::Repeated {
                shard: format!("{}/{}", header.shard.0, header.shard.1),
                first: before.to_path_buf(),
                other: path.clone(),
            });
        }
    }
    let count = first.shard.1;
    let missing: Vec<u32> = (1..=count).filter(|i| !seen.contains_key(i)).collect();
    if complete && !missing.is_empty() {
        return Err(ShardError::Missing { missing, count });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slurm(vars: &[(&str, &str)]) -> Result<(u32, u32), ShardError> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (format!("SLURM_ARRAY_TASK_{k}"), v.to_string()))
            .collect();
        parse("slurm", |name| {
            vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn shard_words() {
        let none = |_: &str| None;
        assert_eq!(parse("2/4", none), Ok((2, 4)));
        assert!(parse("0/4", none).is_err() && parse("5/4", none).is_err());
        assert!(parse("x", none).is_err());
    }

    #[test]
    fn slurm_arrays_from_anywhere() {
        let full = |id, min, max, step, count| {
            slurm(&[
                ("ID", id),
                ("MIN", min),
                ("MAX", max),
                ("STEP", step),
                ("COUNT", count),
            ])
        };
        assert_eq!(full("1", "1", "4", "1", "4"), Ok((1, 4)));
        assert_eq!(full("0", "0", "3", "1", "4"), Ok((1, 4)));
        assert_eq!(full("7", "5", "8", "1", "4"), Ok((3, 4)));
        assert_eq!(full("9", "3", "9", "2", "4"), Ok((4, 4)));
        assert_eq!(full("6", "6", "6", "1", "1"), Ok((1, 1)));
        // The step alone, or the count alone, is enough.
        assert_eq!(
            slurm(&[("ID", "6"), ("MIN", "0"), ("MAX", "9"), ("STEP", "3")]),
            Ok((3, 4))
        );
        assert_eq!(
            slurm(&[("ID", "6"), ("MIN", "0"), ("MAX", "9"), ("COUNT", "4")]),
            Ok((3, 4))
        );
    }

    #[test]
    fn slurm_arrays_that_do_not_add_up() {
        let err = |vars: &[(&str, &str)]| slurm(vars).unwrap_err();
        assert_eq!(
            err(&[("MIN", "1"), ("MAX", "4"), ("STEP", "1")]),
            ShardError::NoVariable("SLURM_ARRAY_TASK_ID")
        );
        assert!(matches!(
            err(&[("ID", "1"), ("MIN", "1"), ("MAX", "4")]),
            ShardError::NoVariable(_)
        ));
        assert!(matches!(
            err(&[("ID", "x"), ("MIN", "1"), ("MAX", "4"), ("STEP", "1")]),
            ShardError::NotANumber { .. }
        ));
        for vars in [
            // Out of the array, off its step, a list (1,3,7) and a count that disagrees.
            [("ID", "5"), ("MIN", "1"), ("MAX", "4"), ("STEP", "1")],
            [("ID", "2"), ("MIN", "1"), ("MAX", "5"), ("STEP", "2")],
            [("ID", "3"), ("MIN", "1"), ("MAX", "7"), ("COUNT", "3")],
            [("ID", "1"), ("MIN", "1"), ("MAX", "4"), ("COUNT", "3")],
        ] {
            assert!(
                matches!(err(&vars), ShardError::Inconsistent(_)),
                "{vars:?}"
            );
        }
        let message = err(&[("ID", "1"), ("MIN", "1"), ("MAX", "4"), ("COUNT", "3")]).to_string();
        assert!(
            message.contains("MAX 4") && message.contains("COUNT 3"),
            "{message}"
        );
    }

    #[test]
    fn headers_round_trip_and_check() {
        let h = Header::new("datagen", "nodes 100; seed 1", (2, 3));
        assert_eq!(Header::parse(&h.line(), "datagen"), Some(h.clone()));
        assert_eq!(Header::parse(&h.line(), "match"), None);
        // A settings text changed by hand no longer matches its hash.
        let edited = h.line().replace("seed 1", "seed 2");
        assert_eq!(Header::parse(&edited, "datagen"), None);
        let shard = |i, settings: &str| {
            (
                PathBuf::from(format!("s{i}")),
                Header::new("datagen", settings, (i, 3)),
            )
        };
        let all = [shard(1, "a"), shard(2, "a"), shard(3, "a")];
        assert_eq!(check(&all, true), Ok(()));
        assert!(matches!(
            check(&[shard(1, "a"), shard(2, "b")], false),
            Err(ShardError::OtherRun { .. })
        ));
        assert!(matches!(
            check(&[shard(1, "a"), shard(1, "a")], false),
            Err(ShardError::Repeated { .. })
        ));
        let missing = check(&all[..1], true).unwrap_err();
        assert_eq!(
            missing,
            ShardError::Missing {
                missing: vec![2, 3],
                count: 3
            }
        );
        assert!(missing.to_string().contains("shards 2, 3 of 3 missing"));
        assert_eq!(check(&all[..1], false), Ok(()));
    }
}
