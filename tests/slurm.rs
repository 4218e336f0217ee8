//! Sharded datagen and matches on a real Slurm: a single-node cluster from Debian's packages
//! (slurmctld, slurmd, slurm-client, munge), started as this test's children and stopped by pid
//! at its end. Without the packages (or root, which slurmd needs) the test says so and passes,
//! except under CI, where .ci/run installs them.

use crate::common;

use hnefi::tournament::summary::Summary;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const HNEFI: &str = env!("CARGO_BIN_EXE_hnefi");

/// The daemons of the cluster, killed when it is dropped.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<Child>,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // The jobs first: their tasks would outlive the daemons.
        let _ = self
            .client("scancel")
            .args(["--user", "root"])
            .stderr(Stdio::null())
            .status();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) && !self.queue("").is_empty() {
            std::thread::sleep(Duration::from_millis(200));
        }
        // The controller first, so that it starts nothing more on the node.
        for child in self.daemons.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn found(program: &str) -> bool {
    ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]
        .iter()
        .any(|d| Path::new(d).join(program).exists())
}

fn output(command: &mut Command) -> Output {
    command.output().expect("the command runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl Cluster {
    /// A started cluster, or why there is none.
    fn start(name: &str) -> Result<Cluster, String> {
        let missing: Vec<&str> = [
            "munged",
            "slurmctld",
            "slurmd",
            "sbatch",
            "scancel",
            "scontrol",
            "squeue",
        ]
        .into_iter()
        .filter(|p| !found(p))
        .collect();
        if !missing.is_empty() {
            return Err(format!(
                "no {} (apt-get install slurmctld slurmd slurm-client munge)",
                missing.join(", ")
            ));
        }
        let uid = text(&output(Command::new("id").arg("-u")).stdout);
        if uid.trim() != "0" {
            return Err("slurmd runs jobs only as root".into());
        }
        let munge = |flag: &str| -> Result<u32, String> {
            text(&output(Command::new("id").args([flag, "munge"])).stdout)
                .trim()
                .parse()
                .map_err(|_| "no munge user".to_string())
        };
        let (munge_uid, munge_gid) = (munge("-u")?, munge("-g")?);
        let dir = common::fresh_dir(&format!("slurm-{name}"));
        std::fs::create_dir_all("/run/munge").map_err(|e| e.to_string())?;
        std::os::unix::fs::chown("/run/munge", Some(munge_uid), Some(munge_gid))
            .map_err(|e| e.to_string())?;
        for sub in ["state", "spool"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let conf = dir.join("slurm.conf");
        let d = dir.display();
        std::fs::write(
            &conf,
            format!(
                "ClusterName=hnefi\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=16817\n\
                 SlurmdPort=16818\nAuthType=auth/munge\nProctrackType=proctrack/linuxproc\n\
                 TaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\n\
                 AccountingStorageType=accounting_storage/none\nSelectType=select/cons_tres\n\
                 SelectTypeParameters=CR_CPU\nReturnToService=2\nSlurmUser=root\n\
                 SlurmdUser=root\nMpiDefault=none\nStateSaveLocation={d}/state\n\
                 SlurmdSpoolDir={d}/spool\nSlurmctldPidFile={d}/ctld.pid\n\
                 SlurmdPidFile={d}/d.pid\nSlurmctldLogFile={d}/ctld.log\n\
                 SlurmdLogFile={d}/d.log\n\
                 NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
                 PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n"
            ),
        )
        .unwrap();
        let mut cluster = Cluster {
            dir: dir.clone(),
            conf: conf.clone(),
            daemons: Vec::new(),
        };
        let quiet = |c: &mut Command| {
            c.stdout(Stdio::null()).stderr(Stdio::null());
        };
        let mut munged = Command::new("munged");
        munged.arg("-F");
        std::os::unix::process::CommandExt::uid(&mut munged, munge_uid);
        std::os::unix::process::CommandExt::gid(&mut munged, munge_gid);
        quiet(&mut munged);
        cluster
            .daemons
            .push(munged.spawn().map_err(|e| e.to_string())?);
        for daemon in ["slurmctld", "slurmd"] {
            let mut c = Command::new(daemon);
            c.args(["-D", "-f"]).arg(&conf).env("SLURM_CONF", &conf);
            quiet(&mut c);
            cluster.daemons.push(c.spawn().map_err(|e| e.to_string())?);
        }
        // Generous: a loaded machine may take long, and only the failure waits it out.
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            let out = output(cluster.client("sinfo").args(["-h", "-o", "%T"]));
            if text(&out.stdout).trim() == "idle" {
                eprintln!(
                    "slurm: cluster up in {:.1} s",
                    start.elapsed().as_secs_f64()
                );
                return Ok(cluster);
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        panic!("the cluster did not come up: see {}/ctld.log", d);
    }

    fn client(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf).current_dir(&self.dir);
        c
    }

    /// Submits a job array running `script` (sh) in `dir`, returning its job id; with `wait`,
    /// once it is over (and it must have succeeded).
    fn submit(&self, dir: &Path, array: &str, script: &str, wait: bool) -> String {
        let mut c = self.client("sbatch");
        c.current_dir(dir)
            .args(["--parsable", "--array", array, "-o"])
            .arg(dir.join("job-%A-%a.log"))
            .args(["--wrap", script]);
        let out = output(&mut c);
        assert!(out.status.success(), "sbatch: {}", text(&out.stderr));
        let job = text(&out.stdout).trim().to_string();
        if wait {
            // Polled here rather than by `sbatch --wait`, whose checks come seconds apart
            // (about 10 s for an array of tasks that take a tenth of one).
            self.wait_gone(&job);
            let shown = output(self.client("scontrol").args(["show", "job", &job]));
            let shown = text(&shown.stdout);
            let codes: Vec<&str> = shown
                .split_whitespace()
                .filter(|w| w.starts_with("ExitCode="))
                .collect();
            assert!(!codes.is_empty(), "scontrol show job {job}: {shown}");
            assert!(
                codes.iter().all(|&c| c == "ExitCode=0:0"),
                "job {job} failed: {codes:?}"
            );
        }
        job
    }

    /// The job ids (tasks of arrays as JOB_TASK) Slurm holds pending or running: all, or of
    /// `job` alone.
    fn queue(&self, job: &str) -> String {
        let mut c = self.client("squeue");
        c.args(["--noheader", "--format=%i"]);
        if !job.is_empty() {
            c.args(["--jobs", job]);
        }
        text(&output(&mut c).stdout).trim().to_string()
    }

    /// Waits until `job` (all its tasks) has left the queue.
    fn wait_gone(&self, job: &str) {
        let start = Instant::now();
        while !self.queue(job).is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(900),
                "job {job} still queued: {}",
                self.queue(job)
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }

    /// A fresh directory for one scenario, inside the cluster's.
    fn scenario(&self, name: &str) -> PathBuf {
        let dir = self.dir.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Runs hnefi in `dir` with the cluster's configuration (for its squeue, scancel and
    /// sbatch): whether it succeeded, its standard output and its standard error.
    fn hnefi(&self, dir: &Path, args: &[&str]) -> (bool, String, String) {
        let conf = self.conf.display().to_string();
        common::output_of_hnefi_with(dir, args, &[("SLURM_CONF", &conf)])
    }
}

fn sorted_samples(path: &Path) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect();
    lines.sort();
    lines
}

/// The games of a datagen file: the distinct GAME fields of its samples.
fn games_in(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let games: std::collections::BTreeSet<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(';').nth(3))
        .collect();
    games.len()
}

fn summary(path: &Path) -> Summary {
    Summary::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The pairs the pairs files of `dir` hold.
fn pairs_in(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .map(|t| t.lines().filter(|l| !l.starts_with('#')).count())
        .sum()
}

/// A scenario's name, and the scenario.
type Scenario = (&'static str, fn(&Cluster));

/// The scenarios run one after another on one cluster, since each start costs seconds, and
/// the cluster (a local) is stopped even when one of them fails.
#[test]
fn shards_run_as_slurm_job_arrays() {
    let cluster = match Cluster::start("arrays") {
        Ok(c) => c,
        Err(why) if std::env::var_os("CI").is_none() => {
            eprintln!("slurm: skipped: {why}");
            return;
        }
        Err(why) => panic!("under CI the Slurm tests must run: {why}"),
    };
    let scenarios: [Scenario; 5] = [
        ("datagen array", datagen_array),
        ("match array", match_array),
        ("SPRT over an array", sprt_cancels_the_array),
        ("killed shard resumed", killed_shard_resumes),
        ("generation", generation),
    ];
    for (name, scenario) in scenarios {
        let began = Instant::now();
        scenario(&cluster);
        eprintln!("slurm: {name}: {:.1} s", began.elapsed().as_secs_f64());
    }
}

/// A datagen array of 4 shards, numbered from 2, equals the unsharded run; merges name a
/// missing shard and refuse another run's.
fn datagen_array(cluster: &Cluster) {
    let dir = cluster.scenario("datagen");
    let datagen = "datagen --rules brandubh --games 8 --nodes 100 --balance-nodes 100 \
                   --max-plies 60 --balance 30000 --seed 5 --threads 1";
    let began = Instant::now();
    cluster.submit(
        &dir,
        "2-5",
        &format!("{HNEFI} {datagen} --shard slurm -o shard-$SLURM_ARRAY_TASK_ID.txt"),
        true,
    );
    let array = began.elapsed();
    let began = Instant::now();
    datagen_direct(&dir, datagen);
    let direct = began.elapsed();
    eprintln!(
        "slurm: datagen array of 4 in {:.1} s, the same run direct in {:.1} s",
        array.as_secs_f64(),
        direct.as_secs_f64()
    );
    let shards: Vec<String> = (2..=5).map(|i| format!("shard-{i}.txt")).collect();
    let mut args = vec!["datagen", "merge", "-o", "merged.txt"];
    args.extend(shards.iter().map(String::as_str));
    let (ok, err) = common::run_hnefi_in(&dir, &args);
    assert!(ok, "{err}");
    assert_eq!(
        sorted_samples(&dir.join("merged.txt")),
        sorted_samples(&dir.join("whole.txt"))
    );
    let merge = |out: &str, files: &[&str]| {
        let mut args = vec!["datagen", "merge", "-o", out];
        args.extend(files);
        common::run_hnefi_in(&dir, &args)
    };
    let (ok, err) = merge("three.txt", &[&shards[0], &shards[1], &shards[3]]);
    assert!(!ok && err.contains("shard 3 of 4 missing"), "{err}");
    // A shard of another seed is another run.
    let other = datagen.replace("--seed 5", "--seed 6");
    let (ok, err) = common::run_hnefi_in(
        &dir,
        &[
            other.split(' ').collect::<Vec<_>>(),
            vec!["--shard", "3/4", "-o", "other.txt"],
        ]
        .concat(),
    );
    assert!(ok, "{err}");
    let (ok, err) = merge(
        "mixed.txt",
        &[&shards[0], "other.txt", &shards[2], &shards[3]],
    );
    assert!(!ok && err.contains("shards of different runs"), "{err}");
    assert!(!dir.join("mixed.txt").exists());
}

/// A fixed-games match over an array: the merge adds the shards' pentanomial counts and
/// results by side, and refuses a shard of another match.
fn match_array(cluster: &Cluster) {
    let dir = cluster.scenario("match");
    let play = format!(
        "match --rules brandubh --engine cmd={HNEFI} name=nnue --engine cmd={HNEFI} name=hand \
         option.Eval=hand --each nodes=200 --games 8 --records - --report-every 0"
    );
    cluster.submit(
        &dir,
        "1-2",
        &format!("{HNEFI} {play} --shard slurm --json part-$SLURM_ARRAY_TASK_ID.json"),
        true,
    );
    let (ok, out, err) = cluster.hnefi(
        &dir,
        &[
            "match",
            "merge",
            "part-1.json",
            "part-2.json",
            "--json",
            "merged.json",
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains("Ptnml(0-2)"), "{out}");
    let (a, b) = (
        summary(&dir.join("part-1.json")),
        summary(&dir.join("part-2.json")),
    );
    let merged = summary(&dir.join("merged.json"));
    let (ea, eb, e) = (&a.encounters[0], &b.encounters[0], &merged.encounters[0]);
    for i in 0..5 {
        assert_eq!(e.pentanomial[i], ea.pentanomial[i] + eb.pentanomial[i]);
    }
    for side in 0..2 {
        for result in 0..3 {
            assert_eq!(
                e.by_side[side][result],
                ea.by_side[side][result] + eb.by_side[side][result]
            );
        }
    }
    assert_eq!(merged.games(), 8);
    assert_eq!(e.pentanomial.iter().sum::<u64>(), 4);
    // The same match at other node counts is another match.
    let mut other: Vec<&str> = play.split(' ').collect();
    for word in other.iter_mut() {
        if *word == "nodes=200" {
            *word = "nodes=300";
        }
    }
    other.extend(["--shard", "2/2", "--json", "other.json"]);
    let (ok, _, err) = cluster.hnefi(&dir, &other);
    assert!(ok, "{err}");
    let (ok, _, err) = cluster.hnefi(&dir, &["match", "merge", "part-1.json", "other.json"]);
    assert!(!ok && err.contains("shards of different runs"), "{err}");
    let (ok, _, err) = cluster.hnefi(&dir, &["match", "merge", "part-1.json"]);
    assert!(!ok && err.contains("shard 2 of 2 missing"), "{err}");
}

/// An SPRT over an array of 4 that decides early (full strength against level 0, wide
/// bounds): the watcher cancels the rest of the array, which leaves the queue with most of
/// its pairs unplayed.
fn sprt_cancels_the_array(cluster: &Cluster) {
    let dir = cluster.scenario("sprt");
    let play = format!(
        "{HNEFI} match --rules brandubh --engine cmd={HNEFI} name=full --engine cmd={HNEFI} \
         name=weak 'args=--level 0' --each nodes=200 --games 100 --records - --report-every 0 \
         --shard slurm --pairs pairs"
    );
    let job = cluster.submit(&dir, "1-4", &play, false);
    let (ok, out, err) = cluster.hnefi(
        &dir,
        &[
            "match",
            "watch",
            "pairs",
            "--sprt",
            "elo0=0",
            "elo1=300",
            "--job",
            &job,
            "--interval",
            "1",
        ],
    );
    assert!(ok, "{err}");
    assert!(out.starts_with("H1 accepted"), "{out}");
    assert!(out.contains(&format!("Cancelled job {job}")), "{out}");
    cluster.wait_gone(&job);
    let played = pairs_in(&dir.join("pairs"));
    eprintln!("slurm: the SPRT decided with {played} of 50 pairs played");
    assert!(played < 50, "{played} pairs: all played");
    // Watched again once the job has gone: the same decision, nothing to cancel.
    let (ok, out, err) = cluster.hnefi(
        &dir,
        &[
            "match", "watch", "pairs", "--sprt", "elo0=0", "elo1=300", "--job", &job, "--once",
        ],
    );
    assert!(ok, "{err}");
    assert!(
        out.starts_with("H1 accepted") && !out.contains("Cancelled"),
        "{out}"
    );
}

/// A datagen shard cancelled in the middle of its games, then submitted again alone with
/// --skip-existing: the merge equals the unsharded run.
fn killed_shard_resumes(cluster: &Cluster) {
    let dir = cluster.scenario("resume");
    let datagen = "datagen --rules brandubh --games 160 --nodes 100 --balance-nodes 100 \
                   --max-plies 60 --balance 30000 --seed 7 --threads 1";
    // The shard from the task's index, so that the task can run again alone.
    let script = format!(
        "{HNEFI} {datagen} --shard $SLURM_ARRAY_TASK_ID/2 -o shard-$SLURM_ARRAY_TASK_ID.txt \
         --skip-existing"
    );
    let job = cluster.submit(&dir, "1-2", &script, false);
    let shard = dir.join("shard-2.txt");
    let start = Instant::now();
    while games_in(&shard) < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "shard 2 wrote no games"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = output(cluster.client("scancel").arg(format!("{job}_2")));
    assert!(out.status.success(), "scancel: {}", text(&out.stderr));
    cluster.wait_gone(&job);
    let cut = games_in(&shard);
    assert!(
        cut < 80,
        "shard 2 played all its {cut} games before it was cancelled"
    );
    cluster.submit(&dir, "2", &script, true);
    assert_eq!(games_in(&shard), 80);
    eprintln!("slurm: shard 2 cancelled after {cut} of 80 games, then resumed");
    let (ok, err) = common::run_hnefi_in(
        &dir,
        &[
            "datagen",
            "merge",
            "-o",
            "merged.txt",
            "shard-1.txt",
            "shard-2.txt",
        ],
    );
    assert!(ok, "{err}");
    datagen_direct(&dir, datagen);
    assert_eq!(
        sorted_samples(&dir.join("merged.txt")),
        sorted_samples(&dir.join("whole.txt"))
    );
}

/// A whole tiny generation, from submission to decision.
fn generation(cluster: &Cluster) {
    let dir = cluster.scenario("generation");
    let began = Instant::now();
    let (ok, out, err) = cluster.hnefi(
        &dir,
        &[
            "cluster",
            "generation",
            "--dir",
            "run",
            "--rules",
            "brandubh",
            "--shards",
            "2",
            "--games",
            "8",
            "--nodes",
            "100",
            "--datagen-args",
            "--balance 30000 --balance-nodes 100 --max-plies 60",
            "--epochs",
            "1",
            "--match-games",
            "8",
            "--interval",
            "1",
            "--submit",
        ],
    );
    assert!(ok, "{err}");
    let jobs: Vec<(String, String)> = out
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(step, id)| (step.to_string(), id.to_string()))
        .collect();
    let steps: Vec<&str> = jobs.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(steps, ["datagen", "train", "match", "decide"], "{out}");
    for (_, id) in &jobs {
        cluster.wait_gone(id);
    }
    let run = dir.join("run");
    let verdict = std::fs::read_to_string(run.join("verdict.txt")).unwrap_or_else(|e| {
        let log = std::fs::read_to_string(run.join("logs/decide.log")).unwrap_or_default();
        panic!("no verdict ({e}); the decision's log:\n{log}")
    });
    eprintln!(
        "slurm: a tiny generation from submission to decision in {:.1} s: {}",
        began.elapsed().as_secs_f64(),
        verdict.trim()
    );
    assert!(
        [
            "H1 accepted",
            "H0 accepted",
            "No decision after all 4 pairs"
        ]
        .iter()
        .any(|v| verdict.starts_with(v)),
        "{verdict}"
    );
    assert_eq!(games_in(&run.join("selfplay.txt")), 8);
    assert!(run.join("new.nnue").exists());
    let readme = std::fs::read_to_string(run.join("README.md")).unwrap();
    for (step, id) in &jobs {
        assert!(readme.contains(&format!("{step} {id}")), "{readme}");
    }
}

/// What `hnefi cluster generation` says when it cannot do its work; the sbatch lines it
/// prints without --submit.
#[test]
fn generation_errors_and_lines() {
    let dir = common::fresh_dir("slurm-generation-errors");
    let (ok, out, err) =
        common::output_of_hnefi_in(&dir, &["cluster", "generation", "--dir", "run"]);
    assert!(ok, "{err}");
    assert_eq!(out.matches("$(sbatch --parsable").count(), 4, "{out}");
    assert!(out.contains("--dependency=afterok:$train"), "{out}");
    for file in [
        "datagen.sh",
        "train.sh",
        "match.sh",
        "decide.sh",
        "submit.sh",
        "README.md",
    ] {
        assert!(dir.join("run").join(file).exists(), "no {file}");
    }
    // No sbatch to run.
    let (ok, _, err) = common::output_of_hnefi_with(
        &dir,
        &["cluster", "generation", "--dir", "run", "--submit"],
        &[("PATH", "/nonexistent")],
    );
    assert!(!ok && err.contains("cannot run sbatch"), "{err}");
    assert!(!dir.join("run/jobs.txt").exists());
    // A run directory that cannot be made: under a file.
    std::fs::write(dir.join("file"), "").unwrap();
    let (ok, _, err) =
        common::output_of_hnefi_in(&dir, &["cluster", "generation", "--dir", "file/run"]);
    assert!(!ok && err.contains("cannot write"), "{err}");
    let (ok, _, err) = common::output_of_hnefi_in(
        &dir,
        &[
            "cluster",
            "generation",
            "--dir",
            "run",
            "--match-games",
            "7",
        ],
    );
    assert!(!ok && err.contains("--match-games 7"), "{err}");
}

/// Runs the datagen of `args` on this machine, not on the cluster, into `dir/whole.txt`.
fn datagen_direct(dir: &std::path::Path, args: &str) {
    let words = [args.split(' ').collect::<Vec<_>>(), vec!["-o", "whole.txt"]].concat();
    let (ok, err) = common::run_hnefi_in(dir, &words);
    assert!(ok, "{err}");
}
