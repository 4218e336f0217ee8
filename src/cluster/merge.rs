//! `hnefi match merge`: the JSON summaries of a match's shards added up into one, once their
//! settings and numbers show them to be the shards of one run, each once and all of them.

use super::shard::{self, Header, ShardError};
use crate::tournament::summary::{Sprt, SprtError, Summary, SummaryError};
use std::io;
use std::path::{Path, PathBuf};

/// The header kind of a match's shards, whose settings and numbers a summary carries.
const MATCH_KIND: &str = "match";

/// Why the summaries do not add up to one match.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{}: {reason}", path.display())]
    Invalid { path: PathBuf, reason: String },
    #[error(transparent)]
    Shard(#[from] ShardError),
    #[error(transparent)]
    Summary(#[from] SummaryError),
    #[error(transparent)]
    Sprt(#[from] SprtError),
}

/// The summaries of `files` (as `hnefi match --json` writes them) read in their order and
/// added up by [`merge`].
pub fn merge_files(files: &[PathBuf], sprt: Option<Sprt>) -> Result<Summary, MergeError> {
    let parts = files
        .iter()
        .map(|path| Ok((path.clone(), read_summary(path)?)))
        .collect::<Result<Vec<_>, MergeError>>()?;
    merge(parts, sprt)
}

fn read_summary(path: &Path) -> Result<Summary, MergeError> {
    let text = std::fs::read_to_string(path).map_err(|source| MergeError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Summary::from_json(&text).map_err(|e| MergeError::Invalid {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })
}

/// The shard summaries `parts` (each with the file it is from) added up into the match's,
/// with the test `sprt`, if any, over all its games: shards are played to their end, so that
/// this is where the whole match stands.
pub fn merge(parts: Vec<(PathBuf, Summary)>, sprt: Option<Sprt>) -> Result<Summary, MergeError> {
    // The shards' settings and numbers are their header: one run's, each once, all there.
    let headers: Vec<(PathBuf, Header)> = parts
        .iter()
        .flat_map(|(file, part)| {
            part.shards.iter().map(|&shard| {
                let header = Header::new(MATCH_KIND, &part.settings, shard);
                (file.clone(), header)
            })
        })
        .collect();
    shard::check(&headers, true)?;
    let mut merged = Summary::merge(parts.into_iter().map(|(_, part)| part).collect())?;
    if sprt.is_some() {
        if merged.engines.len() != 2 {
            return Err(SprtError::Engines.into());
        }
        merged.sprt = sprt;
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::summary::{Encounter, parse_sprt};

    /// Shard `shard` of `shards` of a match between `engines`, with a pair each encounter.
    fn part(shard: u32, shards: u32, engines: &[&str]) -> (PathBuf, Summary) {
        let mut encounter = Encounter::new(engines[0], engines[1]);
        encounter.add_pair(4);
        let summary = Summary {
            settings: format!("{} in a test", engines.join(" vs ")),
            engines: engines.iter().map(|e| e.to_string()).collect(),
            shards: vec![(shard, shards)],
            games_scheduled: 2,
            sprt: None,
            stopped_early: false,
            encounters: vec![encounter],
        };
        (PathBuf::from(format!("shard-{shard}.json")), summary)
    }

    fn sprt() -> Option<Sprt> {
        parse_sprt(&["elo0=0".into(), "elo1=5".into()]).unwrap()
    }

    #[test]
    fn the_shards_of_one_match_add_up() {
        let merged = merge(
            vec![part(2, 2, &["a", "b"]), part(1, 2, &["a", "b"])],
            sprt(),
        )
        .unwrap();
        assert_eq!(merged.shards, [(1, 2), (2, 2)]);
        assert_eq!(merged.games_scheduled, 4);
        assert_eq!(merged.encounters[0].penta().counts, [0, 0, 0, 0, 2]);
        assert_eq!(merged.sprt, sprt());
    }

    #[test]
    fn shards_missing_repeated_or_of_another_match_are_refused() {
        let err = |parts, sprt| merge(parts, sprt).unwrap_err();
        assert!(matches!(
            err(vec![part(1, 3, &["a", "b"]), part(2, 3, &["a", "b"])], None),
            MergeError::Shard(ShardError::Missing { .. })
        ));
        assert!(matches!(
            err(vec![part(1, 2, &["a", "b"]), part(1, 2, &["a", "b"])], None),
            MergeError::Shard(ShardError::Repeated { .. })
        ));
        assert!(matches!(
            err(vec![part(1, 2, &["a", "b"]), part(2, 2, &["a", "c"])], None),
            MergeError::Shard(ShardError::OtherRun { .. })
        ));
        assert!(matches!(
            err(vec![], None),
            MergeError::Summary(SummaryError::Nothing)
        ));
        let three = {
            let (path, mut s) = part(1, 1, &["a", "b"]);
            s.engines.push("c".into());
            (path, s)
        };
        assert_eq!(
            err(vec![three.clone()], sprt()).to_string(),
            "--sprt needs exactly two engines"
        );
        assert!(merge(vec![three], None).is_ok(), "no test, any engines");
    }

    #[test]
    fn files_are_read_and_said_when_they_are_not_summaries() {
        let dir = std::env::temp_dir().join(format!("hnefi-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (good, bad, absent) = (dir.join("1.json"), dir.join("2.json"), dir.join("3.json"));
        std::fs::write(&good, part(1, 1, &["a", "b"]).1.to_json()).unwrap();
        std::fs::write(&bad, "{}").unwrap();
        let merged = merge_files(std::slice::from_ref(&good), None).unwrap();
        assert_eq!(merged.engines, ["a", "b"]);
        let error = merge_files(&[good.clone(), bad.clone()], None).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(&format!("{}: ", bad.display())),
            "{error}"
        );
        let error = merge_files(&[absent.clone(), bad], None).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(&format!("cannot read {}: ", absent.display())),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
