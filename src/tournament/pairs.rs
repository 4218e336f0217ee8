//! The pairs files of a match spread over shards, and the SPRT over them: each shard appends
//! its finished pairs to a file of its own (`--pairs DIR`), and `hnefi match watch` reads them
//! all, decides, and cancels the rest of a Slurm array once the test has decided.

use super::runner::MatchSettings;
use super::stats::{Pentanomial, sprt_bounds, sprt_llr};
use super::summary::Sprt;
use crate::cluster::shard::{self, Header, ShardError};
use crate::cluster::slurm::{self, SlurmError};
use crate::files::Appender;
use crate::search::size::Size;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// The header kind of a match shard's pairs file.
const PAIRS_KIND: &str = "match";

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
    if let Some(h1) = sprt.decision(&penta) {
        // A job that has left the queue has nothing to cancel, and scancel would fail.
        let running = job.filter(|_| !gone);
        if let Some(job) = running {
            slurm::cancel(job)?;
        }
        return Ok(Look::Decided {
            h1,
            stand,
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
