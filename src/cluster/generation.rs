//! A training generation as a chain of Slurm jobs (`hnefi cluster generation`): the run
//! directory (the jobs' scripts, a README, submit.sh), and the sbatch lines, printed or run:
//! a datagen array, then (afterok) the merge and `hnefi train`, then an SPRT match array of
//! the new net against the current one, watched by a decision job that cancels the rest of
//! the array once the test decides and writes the verdict.

use crate::board::variant::NamedRules;
use crate::tournament::summary::{SprtError, parse_sprt};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A generation's settings: `hnefi cluster generation`'s arguments.
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct GenerationArgs {
    /// The run directory (created; on a filesystem the compute nodes share): the jobs'
    /// scripts, logs, data, the new net, the match and the verdict.
    #[cfg_attr(feature = "cli", arg(long))]
    pub dir: PathBuf,
    /// The hnefi binary the jobs run, as the compute nodes see it [default: this one].
    #[cfg_attr(feature = "cli", arg(long))]
    pub binary: Option<PathBuf>,
    /// The Slurm partition of every job [default: the cluster's default partition].
    #[cfg_attr(feature = "cli", arg(long))]
    pub partition: Option<String>,
    /// The time limit of each job, as sbatch --time takes it (e.g. 12:00:00) [default: the
    /// partition's].
    #[cfg_attr(feature = "cli", arg(long))]
    pub time: Option<String>,
    /// CPUs of each job (each task of an array): datagen's threads, the match's concurrency.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub cpus_per_task: u32,
    /// Tasks of the datagen array.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4))]
    pub shards: u32,
    /// Self-play games of the generation (all shards).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1000))]
    pub games: u64,
    /// Nodes searched per move, in self-play and in the match.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 5000))]
    pub nodes: u64,
    /// Seed of the self-play games and of the match's openings.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// The rules: a preset (copenhagen, brandubh, ...) or an OpenTafl rules string.
    #[cfg_attr(feature = "cli", arg(long, default_value = "copenhagen"))]
    pub rules: NamedRules,
    /// The current net: self-play plays with it, training goes on from its weights (--init)
    /// and the new net plays against it [default: the net built into the binary, and training
    /// from a fresh start].
    #[cfg_attr(feature = "cli", arg(long, value_name = "NET"))]
    pub net: Option<PathBuf>,
    /// More words for `hnefi datagen` (space-separated), e.g. "--balance 500 --max-plies 200".
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value = "", allow_hyphen_values = true)
    )]
    pub datagen_args: String,
    /// Training's passes over the self-play positions.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 10))]
    pub epochs: u32,
    /// More words for `hnefi train` (space-separated).
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value = "--residual", allow_hyphen_values = true)
    )]
    pub train_args: String,
    /// The most games of the match, new net against current (it stops when the SPRT decides).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 2000))]
    pub match_games: usize,
    /// More words for `hnefi match` (space-separated), e.g. "--openings FILE --max-plies 300".
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value = "", allow_hyphen_values = true)
    )]
    pub match_args: String,
    /// Tasks of the match array [default: --shards].
    #[cfg_attr(feature = "cli", arg(long))]
    pub match_shards: Option<u32>,
    /// The match's sequential test: elo0=E elo1=E [alpha=0.05] [beta=0.05].
    #[cfg_attr(feature = "cli", arg(long, num_args = 1.., value_name = "KEY=VALUE", default_values = ["elo0=0", "elo1=5"]))]
    pub sprt: Vec<String>,
    /// Seconds between the decision job's looks at the match's pairs.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 10.0))]
    pub interval: f64,
    /// Submit the jobs (sbatch) and record their ids in DIR/jobs.txt, rather than print the
    /// sbatch lines.
    #[cfg_attr(feature = "cli", arg(long))]
    pub submit: bool,
}

/// Why a generation could not be written or submitted.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("--{flag} 0: must be 1 or more")]
    Zero { flag: &'static str },
    #[error(
        "--match-games {0}: must be an even number of 2 or more (games come in pairs, the \
         sides swapped)"
    )]
    MatchGames(usize),
    #[error("--interval {0}: must be above 0 seconds")]
    Interval(f64),
    #[error("cannot find {what} {}: {source}", .path.display())]
    Missing {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Sprt(#[from] SprtError),
    #[error("cannot find the path of this hnefi ({0}): give --binary")]
    OwnBinary(std::io::Error),
    #[error(
        "cannot run sbatch: {0}; run this on a machine with Slurm's client commands \
         (slurm-client), or leave out --submit and run DIR/submit.sh there"
    )]
    NoSbatch(std::io::Error),
    #[error(
        "sbatch of the {step} job failed: {why}{}",
        submitted_note(.submitted)
    )]
    Sbatch {
        step: &'static str,
        why: String,
        submitted: Vec<(&'static str, String)>,
    },
}

/// What to do with the jobs already submitted when a later sbatch fails.
fn submitted_note(submitted: &[(&'static str, String)]) -> String {
    if submitted.is_empty() {
        return String::new();
    }
    let ids: Vec<String> = submitted
        .iter()
        .map(|(step, id)| format!("{step} {id}"))
        .collect();
    let just_ids: Vec<&str> = submitted.iter().map(|(_, id)| id.as_str()).collect();
    format!(
        "; already submitted: {} (scancel {} before submitting again)",
        ids.join(", "),
        just_ids.join(" ")
    )
}

/// `word` as one word of a POSIX shell command.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

fn words(items: &[String]) -> String {
    items.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

/// The space-separated words of `text`, each quoted, after a space; nothing for none.
fn more(text: &str) -> String {
    text.split_whitespace()
        .map(|w| format!(" {}", quote(w)))
        .collect()
}

fn path_text(path: &Path) -> String {
    path.display().to_string()
}

/// One job of the chain: its sbatch options, the step it waits for, and its script.
struct Step {
    name: &'static str,
    /// The array's tasks, 1 to N.
    array: Option<u32>,
    /// The step whose success this one waits for.
    after: Option<&'static str>,
    /// The lines of the script after `#!/bin/sh` and `set -e`.
    script: String,
    /// Arguments of the script: other steps' job ids.
    script_args: Vec<&'static str>,
}

/// The chain of a generation, its scripts' text ready to write.
struct Plan {
    dir: PathBuf,
    steps: Vec<Step>,
    /// sbatch's options common to every job.
    common: Vec<String>,
}

/// The absolute form of a path that exists.
fn found(what: &'static str, path: &Path) -> Result<PathBuf, ClusterError> {
    path.canonicalize().map_err(|source| ClusterError::Missing {
        what,
        path: path.to_path_buf(),
        source,
    })
}

impl Plan {
    fn new(args: &GenerationArgs, dir: PathBuf) -> Result<Plan, ClusterError> {
        let binary = match &args.binary {
            Some(path) => found("--binary", path)?,
            None => std::env::current_exe().map_err(ClusterError::OwnBinary)?,
        };
        let net = args
            .net
            .as_deref()
            .map(|net| found("--net", net))
            .transpose()?;
        let bin = quote(&path_text(&binary));
        let d = |sub: &str| quote(&path_text(&dir.join(sub)));
        let rules = quote(&args.rules.name);
        let cpus = args.cpus_per_task;
        let match_shards = args.match_shards.unwrap_or(args.shards);
        let eval_file = net
            .as_ref()
            .map(|n| format!(" --eval-file {}", quote(&path_text(n))))
            .unwrap_or_default();
        let datagen = format!(
            "exec {bin} datagen --rules {rules} --games {} --nodes {} --seed {} --threads \
             {cpus}{eval_file}{} \\\n    --shard \"$SLURM_ARRAY_TASK_ID\"/{} -o {}/shard-\"$SLURM_ARRAY_TASK_ID\".txt \
             --skip-existing\n",
            args.games,
            args.nodes,
            args.seed,
            more(&args.datagen_args),
            args.shards,
            d("data")
        );
        let init = net
            .as_ref()
            .map(|n| format!(" --init {}", quote(&path_text(n))))
            .unwrap_or_default();
        let train = format!(
            "# A rerun merges again: the merge refuses to replace its output.\nrm -f {selfplay}\n\
             {bin} datagen merge {data}/shard-*.txt -o {selfplay}\n\
             {bin} train --rules {rules} --epochs {} --threads {cpus} --seed {}{init}{} \\\n    \
             -o {} {selfplay}\n",
            args.epochs,
            args.seed,
            more(&args.train_args),
            d("new.nnue"),
            selfplay = d("selfplay.txt"),
            data = d("data"),
        );
        let new = quote(&format!(
            "option.EvalFile={}",
            path_text(&dir.join("new.nnue"))
        ));
        let current = net
            .as_ref()
            .map(|n| format!(" {}", quote(&format!("option.EvalFile={}", path_text(n)))))
            .unwrap_or_default();
        let engine = quote(&format!("cmd={}", path_text(&binary)));
        let matched = format!(
            "exec {bin} match --rules {rules} --engine {engine} name=new {new} \\\n    \
             --engine {engine} name=current{current} --each nodes={} --games {} --seed {} \
             --concurrency {cpus}{} \\\n    --shard \"$SLURM_ARRAY_TASK_ID\"/{match_shards} --pairs {} --json {}/shard-\"$SLURM_ARRAY_TASK_ID\".json \
             \\\n    --records {}/games-\"$SLURM_ARRAY_TASK_ID\".csv --report-every 0\n",
            args.nodes,
            args.match_games,
            args.seed,
            more(&args.match_args),
            d("pairs"),
            d("match"),
            d("match"),
        );
        let decide = format!(
            "# $1: the match array's job id, cancelled once the test decides.\n\
             {bin} match watch {} --sprt {} --job \"$1\" --interval {} > {verdict}.part\n\
             mv {verdict}.part {verdict}\n",
            d("pairs"),
            words(&args.sprt),
            args.interval,
            verdict = d("verdict.txt"),
        );
        let mut common = Vec::new();
        if let Some(p) = &args.partition {
            common.push(format!("--partition={p}"));
        }
        if let Some(t) = &args.time {
            common.push(format!("--time={t}"));
        }
        let steps = vec![
            Step {
                name: "datagen",
                array: Some(args.shards),
                after: None,
                script: datagen,
                script_args: vec![],
            },
            Step {
                name: "train",
                array: None,
                after: Some("datagen"),
                script: train,
                script_args: vec![],
            },
            Step {
                name: "match",
                array: Some(match_shards),
                after: Some("train"),
                script: matched,
                script_args: vec![],
            },
            // It starts with the match (after training), so that it can stop the match early.
            Step {
                name: "decide",
                array: None,
                after: Some("train"),
                script: decide,
                script_args: vec!["match"],
            },
        ];
        Ok(Plan { dir, steps, common })
    }

    /// sbatch's arguments for `step`, the job ids of earlier steps given by `id`.
    fn sbatch_args(&self, step: &Step, cpus: u32, id: impl Fn(&str) -> String) -> Vec<String> {
        let mut args = vec![
            "--parsable".to_string(),
            format!("--job-name=hnefi-{}", step.name),
            format!("--cpus-per-task={cpus}"),
        ];
        args.extend(self.common.iter().cloned());
        let log = match step.array {
            Some(n) => {
                args.push(format!("--array=1-{n}"));
                format!("{}-%a.log", step.name)
            }
            None => format!("{}.log", step.name),
        };
        args.push(format!(
            "--output={}",
            path_text(&self.dir.join("logs").join(log))
        ));
        if let Some(after) = step.after {
            // A failed step cancels the rest of the chain rather than leave it pending forever.
            args.push(format!("--dependency=afterok:{}", id(after)));
            args.push("--kill-on-invalid-dep=yes".to_string());
        }
        args.push(path_text(&self.script(step)));
        args.extend(step.script_args.iter().map(|s| id(s)));
        args
    }

    fn script(&self, step: &Step) -> PathBuf {
        self.dir.join(format!("{}.sh", step.name))
    }

    /// submit.sh: the sbatch lines, each job's id in a shell variable named after its step.
    fn submit_script(&self, cpus: u32) -> String {
        let mut text = String::from(
            "#!/bin/sh\n# Submits the generation's jobs, each waiting for the one before.\nset -e\n",
        );
        for step in &self.steps {
            let args = self.sbatch_args(step, cpus, |s| format!("${s}"));
            // The ids go in unquoted: `$train` must expand.
            let line: Vec<String> = args
                .iter()
                .map(|a| {
                    if a.contains('$') {
                        format!("\"{a}\"")
                    } else {
                        quote(a)
                    }
                })
                .collect();
            let _ = writeln!(text, "{}=$(sbatch {})", step.name, line.join(" "));
            // sbatch --parsable prints ID or ID;CLUSTER.
            let _ = writeln!(text, "{0}=${{{0}%%;*}}", step.name);
            let _ = writeln!(text, "echo \"{0} ${0}\"", step.name);
        }
        text
    }
}

/// The README of the run directory: what runs, in which order, and where its results land.
fn readme(args: &GenerationArgs, submit: &str) -> String {
    let net = args.net.as_ref().map_or_else(
        || "the net built into the binary".to_string(),
        |n| n.display().to_string(),
    );
    format!(
        "# A training generation on Slurm\n\n\
         Written by `hnefi cluster generation`. Rules {rules}; current net: {net}.\n\n\
         1. `datagen.sh`, an array of {shards} tasks: {games} self-play games at {nodes} nodes \
         a move, seed {seed}, shard I into `data/shard-I.txt`.\n\
         2. `train.sh`, once every datagen task succeeded: merges the shards into \
         `selfplay.txt` and trains `new.nnue` ({epochs} epochs).\n\
         3. `match.sh`, an array of {match_shards} tasks once training succeeded: at most \
         {match_games} games of `new.nnue` against the current net at {nodes} nodes a move, \
         each task appending its finished pairs to `pairs/`, its summary in `match/`.\n\
         4. `decide.sh`, alongside the match: the SPRT ({sprt}) over all tasks' pairs; when it \
         decides it cancels the rest of the match array and writes the decision to \
         `verdict.txt` (`H1 accepted`: the new net is stronger; `H0 accepted`: it is not).\n\n\
         Logs: `logs/`. `submit.sh` holds the sbatch lines; `jobs.txt` the job ids once \
         submitted.\n\n\
         ## Resuming\n\n\
         Run the same `hnefi cluster generation` command again (or `sh submit.sh`): datagen \
         tasks keep the games in their files (`--skip-existing`), training runs again on the \
         merged data, match tasks append to their pairs files, which count each pair once, \
         and the decision looks at all of them. The tasks name their shard as \
         `$SLURM_ARRAY_TASK_ID/N`, so one task can run again alone: `sbatch --array=I` with \
         the other options of its line in submit.sh.\n\n\
         ## The sbatch lines\n\n```sh\n{submit}```\n",
        rules = args.rules.name,
        shards = args.shards,
        games = args.games,
        nodes = args.nodes,
        seed = args.seed,
        epochs = args.epochs,
        match_shards = args.match_shards.unwrap_or(args.shards),
        match_games = args.match_games,
        sprt = args.sprt.join(" "),
        submit = submit,
    )
}

fn check(args: &GenerationArgs) -> Result<(), ClusterError> {
    for (flag, value) in [
        ("shards", u64::from(args.shards)),
        ("match-shards", u64::from(args.match_shards.unwrap_or(1))),
        ("cpus-per-task", u64::from(args.cpus_per_task)),
        ("games", args.games),
        ("nodes", args.nodes),
        ("epochs", u64::from(args.epochs)),
    ] {
        if value == 0 {
            return Err(ClusterError::Zero { flag });
        }
    }
    if args.match_games < 2 || args.match_games % 2 == 1 {
        return Err(ClusterError::MatchGames(args.match_games));
    }
    if !(args.interval > 0.0 && args.interval.is_finite()) {
        return Err(ClusterError::Interval(args.interval));
    }
    parse_sprt(&args.sprt)?.ok_or(SprtError::MissingBounds)?;
    Ok(())
}

/// A generation's run directory, written: what [`Run::submit`] submits.
pub struct Run {
    plan: Plan,
    cpus: u32,
    /// The sbatch lines, as `submit.sh` holds them.
    pub submit_script: String,
    readme: String,
}

fn written(path: &Path) -> impl FnOnce(std::io::Error) -> ClusterError + '_ {
    move |source| ClusterError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Checks `args` and writes the run directory: the jobs' scripts, submit.sh and the README.
pub fn write(args: &GenerationArgs) -> Result<Run, ClusterError> {
    check(args)?;
    for sub in ["", "logs", "data", "match"] {
        let path = args.dir.join(sub);
        std::fs::create_dir_all(&path).map_err(written(&path))?;
    }
    let dir = found("--dir", &args.dir)?;
    let plan = Plan::new(args, dir.clone())?;
    let cpus = args.cpus_per_task;
    for step in &plan.steps {
        let path = plan.script(step);
        let text = format!("#!/bin/sh\nset -e\n{}", step.script);
        crate::files::replace(&path, text.as_bytes()).map_err(written(&path))?;
    }
    let submit_script = plan.submit_script(cpus);
    let path = dir.join("submit.sh");
    crate::files::replace(&path, submit_script.as_bytes()).map_err(written(&path))?;
    let readme = readme(args, &submit_script);
    let path = dir.join("README.md");
    crate::files::replace(&path, readme.as_bytes()).map_err(written(&path))?;
    Ok(Run {
        plan,
        cpus,
        submit_script,
        readme,
    })
}

impl Run {
    /// Submits the jobs with sbatch, each waiting for the one before, telling `submitted` each
    /// step's name and job id as it goes; records the ids in jobs.txt and the README.
    pub fn submit(mut self, mut submitted: impl FnMut(&str, &str)) -> Result<(), ClusterError> {
        let plan = &self.plan;
        let mut ids: Vec<(&'static str, String)> = Vec::new();
        for step in &plan.steps {
            let id_of = |name: &str| {
                ids.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, id)| id.clone())
                    .unwrap_or_default()
            };
            let out = std::process::Command::new("sbatch")
                .args(plan.sbatch_args(step, self.cpus, id_of))
                .output()
                .map_err(ClusterError::NoSbatch)?;
            let text = String::from_utf8_lossy(&out.stdout);
            let id = text
                .trim()
                .split(';')
                .next()
                .unwrap_or_default()
                .to_string();
            if !out.status.success() || id.is_empty() {
                return Err(ClusterError::Sbatch {
                    step: step.name,
                    why: String::from_utf8_lossy(&out.stderr).trim().to_string(),
                    submitted: ids,
                });
            }
            submitted(step.name, &id);
            ids.push((step.name, id));
        }
        let jobs: String = ids.iter().map(|(n, id)| format!("{n} {id}\n")).collect();
        let path = plan.dir.join("jobs.txt");
        crate::files::replace(&path, jobs.as_bytes()).map_err(written(&path))?;
        let _ = write!(self.readme, "\n## Submitted\n\n```\n{jobs}```\n");
        let path = plan.dir.join("README.md");
        crate::files::replace(&path, self.readme.as_bytes()).map_err(written(&path))
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn shell_words() {
        assert_eq!(quote("/a/b-1.nnue"), "/a/b-1.nnue");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
