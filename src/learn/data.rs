//! What a training run reads: sample files, a block at a time in bounded memory (text lines
//! of [`super::sample`] or the binary format of [`super::packed`]); their samples shared out
//! between training and validation by whole games ([`Holdout`]); the network's sets
//! ([`NetData`]) and the move policy's ([`PolicyLoad`]) built from them; and the network or
//! policy a run goes on from.

use super::network::FloatNetwork;
use super::packed::{self, PackedError, PackedReader};
use super::policy::{FloatPolicy, PolicyData};
use super::sample::Sample;
use super::train::{Saturated, TrainData, TrainSettings, is_quiet};
use super::tune::held_out;
use crate::board::Rulebook;
use crate::board::{Geometry, Rules};
use crate::search::nnue::{NnueError, QuantisedNetwork, embedded_for};
use crate::search::policy::{Policy, PolicyError};
use crate::search::size::Size;
use rayon::prelude::*;
use std::borrow::Cow;
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};

/// Why the data, or the network or policy to go on from, cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// A file that was read but whose content is wrong.
    #[error("{}: {reason}", path.display())]
    Invalid { path: PathBuf, reason: String },
    /// A line of a text sample file that is not a sample.
    #[error("{}:{line}: {why}", path.display())]
    Sample {
        path: PathBuf,
        line: usize,
        why: String,
    },
    #[error(transparent)]
    Nnue(#[from] NnueError),
    #[error(transparent)]
    Policy(#[from] PolicyError),
}

fn read_error(path: &Path) -> impl FnOnce(io::Error) -> DataError + '_ {
    move |source| DataError::Read {
        path: path.to_path_buf(),
        source,
    }
}

/// Samples read and parsed at a time by [`for_each_block`]: enough to keep the threads busy,
/// few enough that a block of text lines and its samples take some 20 MB.
const SAMPLE_BLOCK: usize = 1 << 16;

/// The samples of a binary sample file, or of a file of `FEN;SCORE;RESULT;GAME[;BESTMOVE]`
/// lines (blank lines and `#` comments skipped, parsed in parallel); the first bad record or
/// line is the error.
pub fn read_samples<G: Geometry>(path: &Path) -> Result<Vec<Sample<G>>, DataError> {
    let mut all = Vec::new();
    for_each_block(path, |block, _| {
        all.extend(block);
        Ok::<_, DataError>(())
    })?;
    Ok(all)
}

/// The samples of a file as [`read_samples`] reads it, handed to `f` a block at a time in
/// their order with the bytes of the file they took, so that a file of any size is read in
/// bounded memory. Text lines are parsed on the current rayon pool.
pub fn for_each_block<G: Geometry, E: From<DataError>>(
    path: &Path,
    mut f: impl FnMut(Vec<Sample<G>>, u64) -> Result<(), E>,
) -> Result<(), E> {
    let mut file = io::BufReader::new(std::fs::File::open(path).map_err(read_error(path))?);
    let head = file.fill_buf().map_err(read_error(path))?;
    if head.starts_with(&packed::MAGIC) {
        let invalid = |e: PackedError| DataError::Invalid {
            path: path.to_path_buf(),
            reason: e.to_string(),
        };
        let mut reader = PackedReader::<G, _>::new(file).map_err(invalid)?;
        let record = packed::record_size(G::SIDE) as u64;
        loop {
            let block = reader
                .by_ref()
                .take(SAMPLE_BLOCK)
                .collect::<Result<Vec<_>, _>>()
                .map_err(invalid)?;
            if block.is_empty() {
                return Ok(());
            }
            let bytes = block.len() as u64 * record;
            f(block, bytes)?;
        }
    }
    // Each line with its number from 1.
    let mut lines: Vec<(usize, String)> = Vec::with_capacity(SAMPLE_BLOCK);
    let mut number = 0;
    loop {
        lines.clear();
        let mut bytes = 0;
        for line in (&mut file).lines().take(SAMPLE_BLOCK) {
            number += 1;
            let line = line.map_err(read_error(path))?;
            bytes += line.len() as u64 + 1;
            if !line.trim().is_empty() && !line.starts_with('#') {
                lines.push((number, line));
            }
        }
        if lines.is_empty() {
            // A block of blank lines and comments alone is not the end of the file.
            if file.fill_buf().map_err(read_error(path))?.is_empty() {
                return Ok(());
            }
            continue;
        }
        let block = lines
            .par_iter()
            .map(|(n, l)| {
                l.parse::<Sample<G>>().map_err(|e| DataError::Sample {
                    path: path.to_path_buf(),
                    line: *n,
                    why: e.to_string(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        f(block, bytes)?;
    }
}

/// What a file is read for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Training data: trained on, but for the games held out.
    Data,
    /// Validation data: all held out, to measure the fit on.
    Validation,
}

/// Which games of the data files are held out to measure the fit on: whole games, by a hash
/// of their number and the seed ([`held_out`]), the same on every run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Holdout {
    /// The share of the games held out.
    pub share: f64,
    pub seed: u64,
}

impl Holdout {
    /// The share `share` of the games, by `seed`; none where the fit is measured on
    /// validation files (`validation_files`), and all the data is trained on: games held out
    /// by number still share openings and whole stretches of play with the training games of
    /// the same self-play run, which another run does not.
    pub fn new(share: f64, seed: u64, validation_files: bool) -> Holdout {
        let share = if validation_files { 0.0 } else { share };
        Holdout { share, seed }
    }

    /// `samples` shared out as `source` asks: (held out, trained), each in their order.
    pub fn split<G: Geometry>(
        &self,
        samples: Vec<Sample<G>>,
        source: Source,
    ) -> (Vec<Sample<G>>, Vec<Sample<G>>) {
        samples
            .into_iter()
            .partition(|s| source == Source::Validation || held_out(s.game, self.seed, self.share))
    }
}

/// The network's training and held-out positions, read file by file: each file a block at a
/// time, each block's quiet positions picked in parallel, so that only the packed positions
/// ([`TrainData`]) stay in memory.
pub struct NetData<G: Size> {
    pub train: TrainData,
    pub validation: TrainData,
    rulebook: Rulebook<G>,
    holdout: Holdout,
    quiet_only: bool,
    lambda: f64,
    scale: f64,
}

/// What [`NetData::load`] read of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The positions in the file.
    pub read: usize,
    /// Those kept: the quiet ones where only those are trained on, else all.
    pub kept: usize,
}

impl<G: Size> NetData<G> {
    /// Empty sets for a run of `settings` (its kind of network, lambda and scale) with the
    /// loss `saturated`, under `rulebook`; `quiet_only` keeps the quiet positions alone
    /// ([`is_quiet`]): the search score of the others counts what the next moves win, which
    /// the search finds itself.
    pub fn new(
        settings: &TrainSettings,
        saturated: Saturated,
        rulebook: Rulebook<G>,
        holdout: Holdout,
        quiet_only: bool,
    ) -> NetData<G> {
        let empty = || {
            if settings.residual {
                TrainData::residual()
            } else {
                TrainData::new()
            }
            .with_saturated(saturated)
        };
        NetData {
            train: empty(),
            validation: empty(),
            rulebook,
            holdout,
            quiet_only,
            lambda: settings.lambda,
            scale: settings.scale,
        }
    }

    /// Adds the positions of the sample file `path`, read for `source`, calling `progress`
    /// with the bytes of each block read. Runs on the current rayon pool.
    pub fn load(
        &mut self,
        path: &Path,
        source: Source,
        mut progress: impl FnMut(u64),
    ) -> Result<Loaded, DataError> {
        let (mut read, mut kept) = (0, 0);
        for_each_block::<G, DataError>(path, |block, bytes| {
            read += block.len();
            progress(bytes);
            let block: Vec<Sample<G>> = if self.quiet_only {
                block
                    .into_par_iter()
                    .filter(|s| is_quiet(&s.board, &self.rulebook))
                    .collect()
            } else {
                block
            };
            kept += block.len();
            let (held, trained) = self.holdout.split(block, source);
            self.validation
                .extend(&held, &self.rulebook, self.lambda, self.scale);
            self.train
                .extend(&trained, &self.rulebook, self.lambda, self.scale);
            Ok(())
        })?;
        Ok(Loaded { read, kept })
    }

    /// The positions the fit is measured on, with their name for reports: the held-out ones,
    /// or the training ones where none are held out.
    pub fn measured(&self) -> (&TrainData, &'static str) {
        if self.validation.is_empty() {
            (&self.train, "training")
        } else {
            (&self.validation, "held-out")
        }
    }
}

/// The float network of the net file `path`, to go on training from (the next generation
/// from the last one): of the kind asked for (`residual`, a correction to the hand
/// evaluation, or not), for boards of `G` and on this build's logistic scale.
pub fn network_from_file<G: Size>(path: &Path, residual: bool) -> Result<FloatNetwork, DataError> {
    let net = QuantisedNetwork::load(path)?;
    let invalid = |reason: String| DataError::Invalid {
        path: path.to_path_buf(),
        reason,
    };
    net.check_board(G::SIDE)
        .map_err(|e| invalid(e.to_string()))?;
    let scale = G::hand().weights.scale;
    match (net.is_residual(), residual) {
        (true, false) => {
            return Err(invalid(
                "a residual network (a correction to the hand evaluation): add --residual".into(),
            ));
        }
        (false, true) => {
            return Err(invalid(
                "a plain network, not a correction to the hand evaluation: drop --residual".into(),
            ));
        }
        _ => {}
    }
    if (f64::from(net.scale()) - scale).abs() > 1e-6 * scale {
        return Err(invalid(format!(
            "trained on the logistic scale {}, this build's is {scale}",
            net.scale()
        )));
    }
    // `load` has warned if it corrects another hand evaluation: a start all the same.
    Ok(FloatNetwork::from_quantised(&net))
}

/// The network whose accumulator a move policy reads: the net file `path` (for boards of
/// `G`), or without one the network built in for boards of `G` under `rules`.
pub fn policy_network<G: Geometry>(
    path: Option<&Path>,
    rules: &Rules,
) -> Result<Cow<'static, QuantisedNetwork>, DataError> {
    match path {
        Some(path) => {
            let net = QuantisedNetwork::load(path)?;
            net.check_board(G::SIDE)?;
            Ok(Cow::Owned(net))
        }
        None => embedded_for::<G>(rules)
            .map(Cow::Borrowed)
            .ok_or_else(|| DataError::Invalid {
                path: "--net".into(),
                reason: format!(
                    "no network is built in for {}x{} under these rules: give one with --net",
                    G::SIDE,
                    G::SIDE
                ),
            }),
    }
}

/// The move policy a run starts from: the policy file `path` (for boards of `G`) to go on
/// from, or without one a policy of zeros.
pub fn start_policy<G: Geometry>(path: Option<&Path>) -> Result<FloatPolicy, DataError> {
    let Some(path) = path else {
        return Ok(FloatPolicy::zero(usize::from(G::SIDE).pow(2)));
    };
    let policy = Policy::load(path)?;
    if policy.board_side() != G::SIDE {
        return Err(DataError::Invalid {
            path: path.to_path_buf(),
            reason: format!("a policy for {0}x{0} boards", policy.board_side()),
        });
    }
    Ok(FloatPolicy::from_quantised(&policy))
}

/// Held-out samples kept whole, to check the quantised policy as the search runs it.
pub const QUANTISED_CHECK: usize = 20_000;

/// The move policy's training and held-out positions, read file by file through the
/// accumulator of a network.
pub struct PolicyLoad<'n, G: Geometry> {
    pub train: PolicyData,
    pub validation: PolicyData,
    /// Each validation file's own positions, by its name, to report the fit on each.
    pub per_file: Vec<(String, PolicyData)>,
    /// The first [`QUANTISED_CHECK`] held-out samples with a best move, whole.
    pub check: Vec<Sample<G>>,
    rulebook: Rulebook<G>,
    net: &'n QuantisedNetwork,
    holdout: Holdout,
}

/// The positions a file added to [`PolicyLoad`]'s sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Added {
    pub train: usize,
    pub held_out: usize,
}

impl<'n, G: Geometry> PolicyLoad<'n, G> {
    /// Empty sets, read through the accumulator of `net` under `rulebook`.
    pub fn new(rulebook: Rulebook<G>, net: &'n QuantisedNetwork, holdout: Holdout) -> Self {
        PolicyLoad {
            train: PolicyData::new(),
            validation: PolicyData::new(),
            per_file: Vec::new(),
            check: Vec::new(),
            rulebook,
            net,
            holdout,
        }
    }

    /// Adds the positions of the sample file `path`, read for `source`, calling `progress`
    /// with the bytes of each block read. Runs on the current rayon pool.
    pub fn load(
        &mut self,
        path: &Path,
        source: Source,
        mut progress: impl FnMut(u64),
    ) -> Result<Added, DataError> {
        let validating = source == Source::Validation;
        let mut own = PolicyData::new();
        let (before_train, before_held) = (self.train.len(), self.validation.len());
        for_each_block::<G, DataError>(path, |block, bytes| {
            progress(bytes);
            let (held, trained) = self.holdout.split(block, source);
            self.validation.extend(&held, &self.rulebook, self.net);
            if validating {
                own.extend(&held, &self.rulebook, self.net);
            }
            self.train.extend(&trained, &self.rulebook, self.net);
            let room = QUANTISED_CHECK.saturating_sub(self.check.len());
            self.check
                .extend(held.into_iter().filter(|s| s.best.is_some()).take(room));
            Ok(())
        })?;
        if validating {
            self.per_file.push((path.display().to_string(), own));
        }
        Ok(Added {
            train: self.train.len() - before_train,
            held_out: self.validation.len() - before_held,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::board::{Bitboard, Board, Preset, Side, Square};
    use crate::learn::packed::PackedWriter;
    use crate::learn::sample::GameResult;
    use crate::search::size::Standard;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hnefi-data-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The start, with `d1d3` as its best move, in game `game`.
    fn start(game: u64) -> Sample<Standard> {
        Sample {
            board: Board::start(),
            score: Some(12),
            result: GameResult::AttackersWon,
            game,
            best: Some(Move::parse("d1d3").unwrap()),
        }
    }

    /// A position that is not quiet: e8-e4 takes d4 against c4.
    fn capture(game: u64) -> Sample<Standard> {
        let squares = |names: &[&str]| -> Bitboard<Standard> {
            names.iter().map(|n| Square::parse(n).unwrap()).collect()
        };
        let board = Board::new(
            squares(&["c4", "e8"]),
            squares(&["d4"]),
            Square::parse("f6").unwrap(),
            Side::Attackers,
        )
        .unwrap();
        Sample {
            board,
            best: None,
            ..start(game)
        }
    }

    fn text(samples: &[Sample<Standard>]) -> String {
        samples.iter().map(|s| format!("{s}\n")).collect()
    }

    fn settings() -> TrainSettings {
        TrainSettings {
            epochs: 1,
            batch: 16,
            learning_rate: 0.001,
            learning_rate_end: 0.001,
            lambda: 0.5,
            scale: Standard::hand().weights.scale,
            seed: 1,
            weight_decay: 0.0,
            residual: false,
            inputs: crate::search::nnue::inputs::<Standard>(),
        }
    }

    #[test]
    fn text_and_binary_files_read_alike_a_block_at_a_time() {
        let dir = scratch("read");
        let samples: Vec<Sample<Standard>> = (0..5).map(start).chain([capture(9)]).collect();
        let lines = dir.join("s.txt");
        let body = format!("# a comment\n\n{}", text(&samples));
        std::fs::write(&lines, &body).unwrap();
        let binary = dir.join("s.bin");
        let mut writer = PackedWriter::<Standard, _>::new(Vec::new()).unwrap();
        samples.iter().for_each(|s| writer.write(s).unwrap());
        std::fs::write(&binary, writer.finish().unwrap()).unwrap();
        for path in [&lines, &binary] {
            assert_eq!(read_samples::<Standard>(path).unwrap(), samples);
            let mut bytes = 0;
            for_each_block::<Standard, DataError>(path, |_, b| {
                bytes += b;
                Ok(())
            })
            .unwrap();
            let header = if path == &binary { packed::HEADER } else { 0 };
            assert_eq!(
                bytes + header as u64,
                std::fs::metadata(path).unwrap().len()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_files_say_where() {
        let dir = scratch("bad");
        let path = dir.join("bad.txt");
        std::fs::write(
            &path,
            format!("{}\n# fine\nnot a sample\n", text(&[start(1)])),
        )
        .unwrap();
        let error = read_samples::<Standard>(&path).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!("{}:4: ", path.display())),
            "{error}"
        );
        std::fs::write(&path, b"HNEFIPOS").unwrap();
        let error = read_samples::<Standard>(&path).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!("{}: ", path.display())),
            "{error}"
        );
        let absent = dir.join("absent.txt");
        let error = read_samples::<Standard>(&absent).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!("cannot read {}: ", absent.display())),
            "{error}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn whole_games_are_held_out_and_validation_files_hold_all() {
        let samples: Vec<Sample<Standard>> = (0..200).flat_map(|g| [start(g), start(g)]).collect();
        let holdout = Holdout::new(0.3, 5, false);
        let (held, trained) = holdout.split(samples.clone(), Source::Data);
        assert_eq!(held.len() + trained.len(), 400);
        assert!((40..200).contains(&held.len()), "{}", held.len());
        assert!(
            held.iter()
                .all(|h| trained.iter().all(|t| t.game != h.game))
        );
        let (held, trained) = holdout.split(samples.clone(), Source::Validation);
        assert_eq!((held.len(), trained.len()), (400, 0));
        // Validation files of their own: the data files are trained on whole.
        let all = Holdout::new(0.3, 5, true);
        assert_eq!(all.share, 0.0);
        assert_eq!(all.split(samples, Source::Data).1.len(), 400);
    }

    #[test]
    fn the_network_sets_keep_quiet_positions_and_measure_on_the_held_out() {
        let dir = scratch("net");
        let (data, validation) = (dir.join("data.txt"), dir.join("validation.txt"));
        std::fs::write(&data, text(&[start(1), capture(2), start(3)])).unwrap();
        std::fs::write(&validation, text(&[capture(4), start(5)])).unwrap();
        let rulebook = Rulebook::<Standard>::default();
        let new = |quiet_only| {
            let holdout = Holdout::new(0.5, 1, true);
            NetData::new(&settings(), Saturated::OFF, rulebook, holdout, quiet_only)
        };
        let mut all = new(false);
        let mut bytes = 0;
        let loaded = all.load(&data, Source::Data, |b| bytes += b).unwrap();
        assert_eq!(loaded, Loaded { read: 3, kept: 3 });
        assert_eq!(bytes, std::fs::metadata(&data).unwrap().len());
        assert_eq!((all.train.len(), all.validation.len()), (3, 0));
        assert_eq!(all.measured().1, "training");
        let mut quiet = new(true);
        let loaded = quiet.load(&data, Source::Data, |_| {}).unwrap();
        assert_eq!(loaded, Loaded { read: 3, kept: 2 });
        let loaded = quiet.load(&validation, Source::Validation, |_| {}).unwrap();
        assert_eq!(loaded, Loaded { read: 2, kept: 1 });
        assert_eq!((quiet.train.len(), quiet.validation.len()), (2, 1));
        assert_eq!(quiet.measured().1, "held-out");
        assert!(!quiet.train.is_residual());
        let residual = NetData::new(
            &TrainSettings {
                residual: true,
                ..settings()
            },
            Saturated::OFF,
            rulebook,
            Holdout::new(0.0, 1, false),
            false,
        );
        assert!(residual.train.is_residual() && residual.validation.is_residual());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_run_goes_on_only_from_a_network_of_its_kind() {
        let dir = scratch("init");
        let path = dir.join("net.nnue");
        let s = settings();
        let scale = s.scale as f32;
        FloatNetwork::random(1, scale, s.inputs)
            .quantise()
            .save(&path)
            .unwrap();
        assert!(network_from_file::<Standard>(&path, false).is_ok());
        let error = network_from_file::<Standard>(&path, true)
            .unwrap_err()
            .to_string();
        assert!(error.ends_with("drop --residual"), "{error}");
        FloatNetwork::residual(1, scale, s.inputs)
            .quantise()
            .save(&path)
            .unwrap();
        assert!(network_from_file::<Standard>(&path, true).is_ok());
        let error = network_from_file::<Standard>(&path, false)
            .unwrap_err()
            .to_string();
        assert!(error.ends_with("add --residual"), "{error}");
        FloatNetwork::random(1, 2.0 * scale, s.inputs)
            .quantise()
            .save(&path)
            .unwrap();
        let error = network_from_file::<Standard>(&path, false)
            .unwrap_err()
            .to_string();
        assert!(error.contains("trained on the logistic scale"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn policies_start_from_zero_or_a_file_of_their_board() {
        let dir = scratch("policy");
        let zero = start_policy::<Standard>(None).unwrap();
        let path = dir.join("seven.pol");
        FloatPolicy::zero(49).quantise(7, 0).save(&path).unwrap();
        let error = start_policy::<Standard>(Some(&path))
            .err()
            .unwrap()
            .to_string();
        assert_eq!(
            error,
            format!("{}: a policy for 7x7 boards", path.display())
        );
        let path = dir.join("eleven.pol");
        zero.quantise(11, 0).save(&path).unwrap();
        assert!(start_policy::<Standard>(Some(&path)).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_policy_sets_keep_each_validation_file_and_the_quantised_check() {
        let dir = scratch("policy-sets");
        let (data, validation) = (dir.join("data.txt"), dir.join("validation.txt"));
        std::fs::write(&data, text(&[start(1), capture(2), start(3)])).unwrap();
        std::fs::write(&validation, text(&[start(4), capture(5), start(6)])).unwrap();
        let rules = Rules::preset(Preset::Copenhagen);
        let rulebook = Rulebook::<Standard>::new(rules);
        let net = policy_network::<Standard>(None, &rules).unwrap();
        let mut load = PolicyLoad::new(rulebook, &net, Holdout::new(0.5, 1, true));
        let added = load.load(&data, Source::Data, |_| {}).unwrap();
        assert_eq!(
            added,
            Added {
                train: 2,
                held_out: 0
            }
        );
        assert!(load.per_file.is_empty() && load.check.is_empty());
        let added = load.load(&validation, Source::Validation, |_| {}).unwrap();
        assert_eq!(
            added,
            Added {
                train: 0,
                held_out: 2
            }
        );
        // The position without a best move is skipped.
        assert_eq!(load.train.skipped + load.validation.skipped, 2);
        assert_eq!(load.per_file.len(), 1);
        assert_eq!(load.per_file[0].0, validation.display().to_string());
        assert_eq!(load.per_file[0].1.len(), 2);
        assert_eq!(load.check.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
