//! The pairs files of a match spread over shards, and the SPRT over them: each shard appends
//! its finished pairs to a file of its own (`--pairs DIR`), and `hnefi match watch` reads them
//! all, decides, and cancels the rest of a Slurm array once the test has decided.

use super::shard::{self, Header, ShardError};
use super::slurm::{self, SlurmError};
use crate::files::{self, Appender};
use crate::search::size::Size;
use crate::tournament::runner::MatchSettings;
use crate::tournament::stats::{Pentanomial, sprt_bounds, sprt_llr};
use crate::tournament::summary::Sprt;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// The header kind of a match shard's pairs file.
const PAIRS_KIND: &str = "match";

/// The file in a pairs directory that keeps the watcher's decision. Shards finish pairs
/// between the decision and the cancel, and those may take the LLR back inside its bounds;
/// a sequential test's verdict is the one it reached when it stopped, so a later look
/// reports that one.
const DECISION_FILE: &str = "decision";

/// Why the pairs files could not be written, read or watched.
#[derive(Debug, thiserror::Error)]
pub enum PairsError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    #[error("{}: {reason}", path.display())]
    Invalid { path: PathBuf, reason: String },
    #[error("{}:{line}: not a pair: PAIR HALF_POINTS (0-4)", path.display())]
    NotAPair { path: PathBuf, line: usize },
    #[error(transparent)]
    Shard(#[from] ShardError),
    #[error(transparent)]
    Slurm(#[from] SlurmError),
    #[error(
        "job {job} left the queue before the test decided ({stand}): see its tasks' logs, run \
         the failed ones again (sbatch --array=I) and watch again"
    )]
    JobEnded { job: String, stand: String },
}

fn read_text(path: &Path) -> Result<String, PairsError> {
    std::fs::read_to_string(path).map_err(|source| PairsError::Read {
        path: path.to_path_buf(),
        source,
    })
}

fn write_error(path: &Path) -> impl FnOnce(io::Error) -> PairsError + '_ {
    move |source| PairsError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// The settings a pairs file's header carries: the pairs the whole match schedules (so that
/// the watcher knows when all are in), then the match's settings.
fn pairs_settings<G: Size>(settings: &MatchSettings<G>) -> String {
    let pairs = settings.games / 2 * settings.engines.len() * (settings.engines.len() - 1) / 2;
    format!("pairs {pairs}; {}", settings.describe())
}

/// Opens this shard's pairs file in `dir`, starting it with its header, or checking that the
/// header it has is this shard's of this match (a rerun of a shard appends to its file).
pub fn open_pairs<G: Size>(
    dir: &Path,
    settings: &MatchSettings<G>,
) -> Result<Appender, PairsError> {
    let (i, n) = settings.shard;
    let path = dir.join(format!("shard-{i}-of-{n}.pairs"));
    std::fs::create_dir_all(dir).map_err(write_error(dir))?;
    let header = Header::new(PAIRS_KIND, &pairs_settings(settings), (i, n));
    let mut file = Appender::open(&path).map_err(write_error(&path))?;
    if file.is_empty() {
        file.append(header.line().as_bytes())
            .map_err(write_error(&path))?;
    } else {
        let text = read_text(&path)?;
        if Header::of_text(&text, PAIRS_KIND, &path)? != header {
            return Err(PairsError::Invalid {
                reason: format!(
                    "holds the pairs of another match or shard; give another --pairs \
                     directory\n  it holds: {}\n  this one: {}",
                    text.lines().next().unwrap_or_default(),
                    header.line().trim_end()
                ),
                path,
            });
        }
    }
    Ok(file)
}

/// Where an SPRT over the pairs files of `dir` stands: the pentanomial of every pair so far
/// (a pair played twice, by a rerun shard, counts once), the pairs the match schedules, and
/// the shards heard from.
fn read_pairs(dir: &Path) -> Result<(Pentanomial, u64, usize), PairsError> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| PairsError::Read {
            path: dir.to_path_buf(),
            source,
        })?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "pairs"))
        .collect();
    files.sort();
    let mut headers = Vec::new();
    let mut points: BTreeMap<u64, usize> = BTreeMap::new();
    for path in files {
        let text = read_text(&path)?;
        let header = Header::of_text(&text, PAIRS_KIND, &path)?;
        // Only whole lines: a shard may be writing its next one.
        let whole = &text[..text.rfind('\n').map_or(0, |n| n + 1)];
        for (number, line) in whole.lines().enumerate().skip(1) {
            let pair = line
                .split_once(' ')
                .and_then(|(p, h)| Some((p.parse::<u64>().ok()?, h.parse::<usize>().ok()?)))
                .filter(|&(_, h)| h <= 4)
                .ok_or_else(|| PairsError::NotAPair {
                    path: path.clone(),
                    line: number + 1,
                })?;
            points.entry(pair.0).or_insert(pair.1);
        }
        headers.push((path, header));
    }
    shard::check(&headers, false)?;
    let scheduled = headers
        .first()
        .and_then(|(_, h)| {
            h.settings
                .strip_prefix("pairs ")?
                .split(';')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(u64::MAX);
    let mut penta = Pentanomial { counts: [0; 5] };
    for &half in points.values() {
        penta.counts[half] += 1;
    }
    Ok((penta, scheduled, headers.len()))
}

/// The SPRT a decision file belongs to, as its first line.
fn decision_key(sprt: &Sprt) -> String {
    format!(
        "sprt elo0={} elo1={} alpha={} beta={}",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    )
}

/// Keeps the decision of `sprt` over the pairs of `dir`, and where the test stood then.
fn record_decision(dir: &Path, sprt: &Sprt, h1: bool, stand: &str) -> Result<(), PairsError> {
    let path = dir.join(DECISION_FILE);
    let verdict = if h1 { "H1" } else { "H0" };
    let text = format!("{}\n{verdict}\n{stand}\n", decision_key(sprt));
    files::replace(&path, text.as_bytes()).map_err(write_error(&path))
}

/// The decision `sprt` reached earlier over the pairs of `dir` (`true` for H1), and where the
/// test stood then; `None` if it has not decided, or the decision kept is another test's.
fn recorded_decision(dir: &Path, sprt: &Sprt) -> Result<Option<(bool, String)>, PairsError> {
    let path = dir.join(DECISION_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let text = read_text(&path)?;
    let mut lines = text.lines();
    if lines.next() != Some(decision_key(sprt).as_str()) {
        return Ok(None);
    }
    let h1 = match lines.next() {
        Some("H1") => true,
        Some("H0") => false,
        _ => {
            return Err(PairsError::Invalid {
                path,
                reason: "not a decision kept by hnefi match watch; remove it to decide again"
                    .to_string(),
            });
        }
    };
    Ok(Some((h1, lines.next().unwrap_or_default().to_string())))
}

/// What one look at the pairs found.
#[derive(Debug, Clone, PartialEq)]
pub enum Look {
    /// The test decided (`h1`: the first engine is the stronger); the array's job, if it was
    /// still queued, is cancelled.
    Decided {
        h1: bool,
        stand: String,
        cancelled: Option<String>,
    },
    /// Every pair scheduled is in, and the test has not decided.
    Undecided { pairs: u64, stand: String },
    /// The test goes on.
    Going { stand: String },
}

/// One look at the SPRT over the pairs in `dir`, for the Slurm array `job` if any: cancels the
/// job once the test decides, and is an error once the job has left the queue undecided.
pub fn look(dir: &Path, sprt: &Sprt, job: Option<&str>) -> Result<Look, PairsError> {
    let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
    // Asked before the pairs are read, so that a job gone by now has written all it will.
    let gone = match job {
        Some(job) => !slurm::in_queue(job)?,
        None => false,
    };
    // No directory yet: the array has not started.
    let (penta, scheduled, shards) = if dir.is_dir() {
        read_pairs(dir)?
    } else {
        (Default::default(), u64::MAX, 0)
    };
    let pairs: u64 = penta.counts.iter().sum();
    let llr = sprt_llr(&penta, sprt.elo0, sprt.elo1);
    let stand = format!(
        "{pairs} pairs from {shards} shards, Ptnml(0-2) {:?}, LLR {llr:.2} ({lower:.2}, \
         {upper:.2}) [{:.2}, {:.2}]",
        penta.counts, sprt.elo0, sprt.elo1
    );
    let decided = match recorded_decision(dir, sprt)? {
        Some((h1, then)) if then == stand => Some((h1, then)),
        Some((h1, then)) => Some((h1, format!("{then}; by now {stand}"))),
        None => {
            let decision = sprt.decision(&penta);
            if let Some(h1) = decision {
                record_decision(dir, sprt, h1, &stand)?;
            }
            decision.map(|h1| (h1, stand.clone()))
        }
    };
    if let Some((h1, verdict)) = decided {
        // A job that has left the queue has nothing to cancel, and scancel would fail.
        let running = job.filter(|_| !gone);
        if let Some(job) = running {
            slurm::cancel(job)?;
        }
        return Ok(Look::Decided {
            h1,
            stand: verdict,
            cancelled: running.map(str::to_string),
        });
    }
    if pairs >= scheduled {
        return Ok(Look::Undecided { pairs, stand });
    }
    if let (true, Some(job)) = (gone, job) {
        return Err(PairsError::JobEnded {
            job: job.to_string(),
            stand,
        });
    }
    Ok(Look::Going { stand })
}

/// `hnefi match watch`: looks at the pairs in `dir` every `interval` seconds (above 0) until
/// the test decides or every pair scheduled is in, as [`look`] does, and returns that last
/// look; with `once`, after the first look whatever it found. `going` hears where the test
/// stands after each look that leaves it going on.
pub fn watch(
    dir: &Path,
    sprt: &Sprt,
    job: Option<&str>,
    interval: f64,
    once: bool,
    mut going: impl FnMut(&str),
) -> Result<Look, PairsError> {
    loop {
        match look(dir, sprt, job)? {
            Look::Going { stand } if !once => going(&stand),
            last => return Ok(last),
        }
        std::thread::sleep(std::time::Duration::from_secs_f64(interval));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(alpha: f64) -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 300.0,
            alpha,
            beta: alpha,
        }
    }

    /// A pairs directory of one shard of two holding `pairs` (pair number, half points).
    fn write_pairs(dir: &Path, pairs: &[(u64, usize)]) {
        let mut text = Header::new(PAIRS_KIND, "pairs 50; a test", (1, 2)).line();
        for (pair, half) in pairs {
            text += &format!("{pair} {half}\n");
        }
        std::fs::write(dir.join("shard-1-of-2.pairs"), text).unwrap();
    }

    /// The pairs the shards finish after the watcher decided take the LLR back inside the
    /// bounds; the test stays decided, and says how it stands by now.
    #[test]
    fn a_decision_outlives_the_pairs_after_it() {
        let dir = std::env::temp_dir().join(format!("hnefi-pairs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let wins: Vec<(u64, usize)> = (0..7).map(|p| (p, 4)).collect();
        write_pairs(&dir, &wins);
        let Look::Decided { h1, stand, .. } = look(&dir, &sprt(0.05), None).unwrap() else {
            panic!("seven won pairs decide [0, 300]");
        };
        assert!(h1);
        let mut later = wins.clone();
        later.extend([(7, 0), (8, 2)]);
        write_pairs(&dir, &later);
        let (penta, _, _) = read_pairs(&dir).unwrap();
        assert_eq!(sprt(0.05).decision(&penta), None, "{penta:?}");
        let Look::Decided { h1, stand: now, .. } = look(&dir, &sprt(0.05), None).unwrap() else {
            panic!("the decision was not kept");
        };
        assert!(h1);
        assert!(
            now.starts_with(&stand) && now.contains("by now 9 pairs"),
            "{now}"
        );
        // Another test over the same pairs decides afresh.
        assert!(matches!(
            look(&dir, &sprt(0.01), None).unwrap(),
            Look::Going { .. }
        ));
        std::fs::write(
            dir.join(DECISION_FILE),
            "sprt elo0=0 elo1=300 alpha=0.05 beta=0.05\n?\n",
        )
        .unwrap();
        let error = look(&dir, &sprt(0.05), None).unwrap_err().to_string();
        assert!(error.contains("remove it"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The watch looks again while the test goes on, telling where it stands each time, and
    /// ends with the look that decides; `once` ends after the first look.
    #[test]
    fn a_watch_looks_until_the_test_decides() {
        let dir = std::env::temp_dir().join(format!("hnefi-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_pairs(&dir, &[(0, 4)]);
        let once = watch(&dir, &sprt(0.05), None, 0.001, true, |_| {
            panic!("no second look")
        });
        assert!(matches!(once.unwrap(), Look::Going { .. }));
        let mut heard = Vec::new();
        let last = watch(&dir, &sprt(0.05), None, 0.001, false, |stand| {
            heard.push(stand.to_string());
            // The shards finish seven won pairs between two looks, which decide.
            let wins: Vec<(u64, usize)> = (0..7).map(|p| (p, 4)).collect();
            write_pairs(&dir, &wins);
        })
        .unwrap();
        assert!(matches!(last, Look::Decided { h1: true, .. }), "{last:?}");
        assert_eq!(heard.len(), 1, "{heard:?}");
        assert!(heard[0].starts_with("1 pairs from 1 shards"), "{heard:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Every pair the match schedules in and no decision: the watch ends undecided.
    #[test]
    fn a_watch_ends_when_every_pair_is_in() {
        let dir = std::env::temp_dir().join(format!("hnefi-undecided-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let even: Vec<(u64, usize)> = (0..50).map(|p| (p, 1 + 2 * (p % 2) as usize)).collect();
        write_pairs(&dir, &even);
        let close = Sprt {
            elo1: 5.0,
            ..sprt(0.05)
        };
        let last = watch(&dir, &close, None, 0.001, false, |stand| {
            panic!("went on at {stand}")
        });
        assert!(
            matches!(last.unwrap(), Look::Undecided { pairs: 50, .. }),
            "all 50 pairs in"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
