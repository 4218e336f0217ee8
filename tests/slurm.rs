//! Sharded datagen and matches on a real Slurm: a single-node cluster from Debian's packages
//! (slurmctld, slurmd, slurm-client, munge), started as this test's children and stopped by pid
//! at its end. Without the packages (or root, which slurmd needs) the test says so and passes,
//! except under CI, where .ci/run installs them.

mod common;

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
        let missing: Vec<&str> = ["munged", "slurmctld", "slurmd", "sbatch", "scancel"]
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

    /// Submits a job array running `script` (sh), returning its job id; with `wait`, once it
    /// is over (and it must have succeeded).
    fn submit(&self, array: &str, script: &str, wait: bool) -> String {
        let mut c = self.client("sbatch");
        c.args(["--parsable", "--array", array, "-o"])
            .arg(self.dir.join("job-%A-%a.log"))
            .args(["--wrap", script]);
        if wait {
            c.arg("--wait");
        }
        let out = output(&mut c);
        assert!(out.status.success(), "sbatch: {}", text(&out.stderr));
        text(&out.stdout).trim().to_string()
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
    let dir = cluster.dir.clone();
    // A datagen array of 4 shards, numbered from 2, equals the unsharded run.
    let datagen = "datagen --rules brandubh --games 8 --nodes 100 --balance-nodes 100 \
                   --max-plies 60 --balance 30000 --seed 5 --threads 1";
    let began = Instant::now();
    cluster.submit(
        "2-5",
        &format!("{HNEFI} {datagen} --shard slurm -o shard-$SLURM_ARRAY_TASK_ID.txt"),
        true,
    );
    let array = began.elapsed();
    let began = Instant::now();
    let (ok, err) = common::run_hnefi_in(
        &dir,
        &[
            datagen.split(' ').collect::<Vec<_>>(),
            vec!["-o", "whole.txt"],
        ]
        .concat(),
    );
    assert!(ok, "{err}");
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
    // A missing shard is named.
    let (ok, err) = common::run_hnefi_in(
        &dir,
        &[
            "datagen",
            "merge",
            "-o",
            "three.txt",
            &shards[0],
            &shards[1],
            &shards[3],
        ],
    );
    assert!(!ok && err.contains("shard 3 of 4 missing"), "{err}");
}
