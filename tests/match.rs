//! `hnefi match` run for real: Hnefi against itself through its own binary, misbehaving
//! engines (the scripts in tests/engines/) that must lose with the right reason, shards that
//! add up to the whole match, and Ctrl-C leaving no engine behind.

use hnefi::tournament::summary::Summary;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hnefi-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// A copy of a misbehaving engine script under a path no other test uses, so that its
/// processes can be found and counted.
fn script(dir: &Path, name: &str) -> String {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(name);
    let to = dir.join(name);
    std::fs::copy(&from, &to).expect("copy the script");
    to.display().to_string()
}

/// Processes whose command line mentions `needle`.
fn processes_with(needle: &str) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|c| String::from_utf8_lossy(c).contains(needle))
        .count()
}

fn hnefi_engine(name: &str, nodes: u32) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={}", env!("CARGO_BIN_EXE_hnefi")),
        format!("name={name}"),
        format!("nodes={nodes}"),
    ]
}

fn run(dir: &Path, args: &[String]) -> (Output, Option<Summary>) {
    run_with(dir, args, &[])
}

/// [`run`] with the variables `vars` set.
fn run_with(dir: &Path, args: &[String], vars: &[(&str, &str)]) -> (Output, Option<Summary>) {
    let json = dir.join("summary.json");
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .envs(vars.iter().copied())
        .arg("match")
        .args(args)
        .arg("--records")
        .arg(dir.join("games.csv"))
        .arg("--json")
        .arg(&json)
        .output()
        .expect("run hnefi match");
    let summary = std::fs::read_to_string(&json)
        .ok()
        .map(|t| Summary::from_json(&t).expect("a summary"));
    (out, summary)
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

#[test]
fn hnefi_against_itself_with_node_limits() {
    let dir = scratch("self");
    let mut args = hnefi_engine("strong", 3000);
    args.extend(hnefi_engine("weak", 300));
    args.extend(words("--games 6 --concurrency 2 --seed 7"));
    let (out, summary) = run(&dir, &args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = summary.expect("the JSON summary");
    let e = &summary.encounters[0];
    assert_eq!(e.games(), 6);
    assert_eq!(e.pentanomial.iter().sum::<u64>(), 3);
    assert_eq!(
        e.by_side[0].iter().sum::<u64>(),
        3,
        "three games as attackers"
    );
    for key in [
        "Elo:",
        "LOS:",
        "Ptnml(0-2):",
        "strong as attackers:",
        "Endings:",
    ] {
        assert!(stdout.contains(key), "{key} missing from\n{stdout}");
    }
    // The records replay under the rules with the results they claim.
    let records = std::fs::read_to_string(dir.join("games.csv")).expect("records");
    let games = hnefi::games::record::read_games(&records);
    assert_eq!(games.len(), 6);
    for (_, g) in games {
        let positions = g.positions(hnefi::board::Rules::default());
        assert_eq!(positions.len(), g.moves.len() + 1, "every move legal");
        let last = positions.last().unwrap();
        match last.outcome() {
            Some(_) => assert_eq!(
                hnefi::games::record::Verdict::from(last.outcome()),
                g.result,
                "ends as recorded"
            ),
            // A game the rules did not end is the runner's draw at its move limit.
            None => {
                assert_eq!(g.result, hnefi::games::record::Verdict::Draw, "a draw");
                assert!(
                    g.moves.len() >= 500,
                    "at the limit: {} plies",
                    g.moves.len()
                );
            }
        }
    }
}

/// The attackers' yardstick (scripts/attackers-yardstick.sh): from the stuck positions, the
/// first engine attacks in every game, each position is played once, and the report counts
/// the pieces each side lost.
#[test]
fn a_one_sided_match_plays_each_position_once_with_the_first_engine_attacking() {
    let dir = scratch("one-sided");
    let stuck = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/stuck-attackers.fen");
    let mut args = hnefi_engine("fast", 200);
    args.extend(hnefi_engine("deep", 1000));
    args.extend(words(
        "--first-attacks-only --games 3 --max-plies 20 --concurrency 2",
    ));
    args.extend(["--openings".into(), stuck.display().to_string()]);
    let (out, summary) = run(&dir, &args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let e = &summary.expect("the JSON summary").encounters[0];
    assert_eq!(e.games(), 3, "an odd count is kept: no pairs");
    assert_eq!(
        e.by_side[0].iter().sum::<u64>(),
        3,
        "all three as attackers"
    );
    assert_eq!(e.pentanomial, [0; 5]);
    assert!(stdout.contains("fast as attackers:"), "{stdout}");
    assert!(stdout.contains("pieces lost a game: attackers"), "{stdout}");
    assert!(!stdout.contains("fast as defenders"), "{stdout}");
    // Three different positions, each the start of its game.
    let records = std::fs::read_to_string(dir.join("games.csv")).expect("records");
    let starts: std::collections::HashSet<&str> = records
        .lines()
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(starts.len(), 3, "{records}");
    // The pieces lost are the records' captures (`xSQUARE`), and at most a king a game.
    let lost: u64 = e.captured[0].iter().sum();
    let in_records = records.matches('x').count() as u64;
    assert!(
        (in_records..=in_records + 3).contains(&lost),
        "{lost} pieces lost, {in_records} captures recorded"
    );
}

/// The yardstick's sets of stuck positions: each a Copenhagen position with the attackers to
/// move and the game not over, no board twice, none in two sets.
#[test]
fn the_stuck_positions_are_live_distinct_and_the_attackers_to_move() {
    use hnefi::board::notation::parse_fen;
    use hnefi::board::{Position, Rules, Side};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = std::collections::HashSet::new();
    for (file, count) in [
        ("positions/stuck-attackers.fen", 16),
        ("positions/stuck-more.fen", 48),
        ("positions/stuck-hunt.fen", 18),
    ] {
        let text = std::fs::read_to_string(root.join(file)).expect(file);
        let fens: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(fens.len(), count, "{file}");
        for fen in fens {
            let board = parse_fen(fen).unwrap_or_else(|e| panic!("{file}: {fen}: {e}"));
            let pos = Position::new(board, Rules::default());
            assert_eq!(pos.side_to_move(), Side::Attackers, "{file}: {fen}");
            assert_eq!(pos.outcome(), None, "{file}: {fen}");
            assert!(seen.insert(pos.key()), "{file}: {fen} twice");
        }
    }
}

/// Plays `script` against Hnefi and returns the summary; the script must lose every game.
fn misbehaving(name: &str, extra: &str) -> Summary {
    let dir = scratch(name);
    let path = script(&dir, name);
    let mut args = hnefi_engine("hnefi", 200);
    args.extend(words(&format!(
        "--engine cmd=sh args={path} name=bad nodes=100"
    )));
    args.extend(words(&format!("--games 2 {extra}")));
    let (out, summary) = run(&dir, &args);
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(processes_with(&path), 0, "{name} left running");
    let summary = summary.expect("a summary");
    let e = &summary.encounters[0];
    assert_eq!(e.by_side, [[1, 0, 0], [1, 0, 0]], "hnefi wins both: {e:?}");
    summary
}

/// `script` loses both its games with `reason`.
fn loses_by(script: &str, extra: &str, reason: &str) {
    let s = misbehaving(script, extra);
    let endings: Vec<(String, u64)> = s.encounters[0].endings.clone().into_iter().collect();
    assert_eq!(endings, vec![(format!("bad lost by {reason}"), 2)]);
}

#[test]
fn an_illegal_move_loses() {
    loses_by("illegal.sh", "", "illegal move");
}

#[test]
fn a_crash_loses() {
    loses_by("crash.sh", "", "crash");
}

#[test]
fn an_engine_that_never_answers_loses() {
    loses_by("silent.sh", "--move-timeout 1", "no answer");
}

#[test]
fn junk_output_loses() {
    loses_by("junk.sh", "", "illegal move");
}

#[test]
fn running_over_the_move_time_loses_on_time() {
    // The script answers after 0.3 s; it has 0.05 s and no margin (and one second's grace
    // before it would count as not answering).
    loses_by("slow.sh", "--each st=0.05 --time-margin 0", "time loss");
}

#[test]
fn shards_add_up_to_the_whole_match() {
    let dir = scratch("shards");
    let mut base = hnefi_engine("a", 400);
    base.extend(hnefi_engine("b", 250));
    base.extend(words("--games 8 --seed 3"));
    let (_, whole) = run(&dir, &base);
    let whole = whole.expect("whole");
    let mut parts = Vec::new();
    for i in 1..=3 {
        let sub = dir.join(format!("shard{i}"));
        std::fs::create_dir_all(&sub).unwrap();
        let mut args = base.clone();
        // The last shard as the third task of a Slurm job array numbered from 0.
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "2"),
            ("SLURM_ARRAY_TASK_STEP", "1"),
        ];
        let (shard, vars) = if i == 3 {
            ("slurm".to_string(), &vars[..])
        } else {
            (format!("{i}/3"), &[][..])
        };
        args.extend(["--shard".to_string(), shard]);
        let (out, s) = run_with(&sub, &args, vars);
        assert!(out.status.success());
        parts.push(sub.join("summary.json"));
        assert!(s.is_some());
    }
    let merged_json = dir.join("merged.json");
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["match", "merge"])
        .args(&parts)
        .arg("--json")
        .arg(&merged_json)
        .output()
        .expect("merge");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Shards: 1/3 2/3 3/3"));
    let merged = Summary::from_json(&std::fs::read_to_string(merged_json).unwrap()).unwrap();
    assert_eq!(merged.games_scheduled, whole.games_scheduled);
    assert_eq!(merged.encounters, whole.encounters);
    // The merged games can be put to a sequential test.
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["match", "merge"])
        .args(&parts)
        .args(["--sprt", "elo0=0", "elo1=10"])
        .output()
        .expect("merge");
    assert!(out.status.success());
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("LLR: ") && report.contains("[0.00, 10.00]"),
        "{report}"
    );
    // A shard given twice is refused.
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["match", "merge"])
        .arg(&parts[0])
        .arg(&parts[0])
        .output()
        .expect("merge");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("shard 1/3 is in both"), "{err}");
    // A shard left out is named.
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["match", "merge"])
        .args(&parts[..2])
        .output()
        .expect("merge");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("shard 3 of 3 missing"), "{err}");
}

#[test]
fn a_watcher_decides_the_sprt_of_sharded_pairs_and_cancels_the_job() {
    let dir = scratch("watch");
    let path = script(&dir, "illegal.sh");
    let mut args = hnefi_engine("hnefi", 200);
    args.extend(words(&format!(
        "--engine cmd=sh args={path} name=bad nodes=100 --games 40 --pairs"
    )));
    args.push(dir.join("pairs").display().to_string());
    for i in 1..=2 {
        let sub = dir.join(format!("shard{i}"));
        std::fs::create_dir_all(&sub).unwrap();
        let mut shard = args.clone();
        shard.extend(words(&format!("--shard {i}/2")));
        let (out, _) = run(&sub, &shard);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let pairs = std::fs::read_to_string(dir.join("pairs/shard-2-of-2.pairs")).unwrap();
    assert!(
        pairs.starts_with("# hnefi match shard 2/2 settings "),
        "{pairs}"
    );
    assert_eq!(pairs.lines().count(), 1 + 10, "{pairs}");
    // Stand-ins for Slurm's scancel, which notes what it was asked, and squeue, which says
    // the job is still queued; bin-squeue holds squeue alone.
    let bin = dir.join("bin");
    let squeue_only = dir.join("bin-squeue");
    let stand_in = |path: PathBuf, text: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&path, perms).unwrap();
    };
    stand_in(
        bin.join("scancel"),
        "#!/bin/sh\necho \"$@\" > \"$(dirname \"$0\")/cancelled\"\n",
    );
    for place in [&bin, &squeue_only] {
        stand_in(place.join("squeue"), "#!/bin/sh\necho 77\n");
    }
    let watch = |sprt: &str, extra: &[&str], path: &str| {
        Command::new(env!("CARGO_BIN_EXE_hnefi"))
            .env("PATH", path)
            .args(["match", "watch"])
            .arg(dir.join("pairs"))
            .args(["--sprt"])
            .args(words(sprt))
            .args(extra)
            .output()
            .expect("watch")
    };
    let with_scancel = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = watch("elo0=0 elo1=400", &["--job", "77"], &with_scancel);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("H1 accepted: 20 pairs from 2 shards"),
        "{stdout}"
    );
    assert!(stdout.contains("Cancelled job 77"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(bin.join("cancelled"))
            .unwrap()
            .trim(),
        "77"
    );
    // Bounds the twenty pairs cannot tell apart: every pair is in, and nothing is decided.
    let out = watch("elo0=0 elo1=1", &["--once"], &with_scancel);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("No decision after all 20 pairs"),
        "{stdout}"
    );
    // Without scancel, a decided test says it cannot stop the job.
    let out = watch(
        "elo0=0 elo1=400",
        &["--job", "78"],
        &squeue_only.display().to_string(),
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot cancel job 78"), "{err}");
}

#[test]
fn ctrl_c_stops_the_match_and_its_engines() {
    let dir = scratch("interrupt");
    let path = script(&dir, "silent.sh");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args([
            "match",
            "--engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_hnefi")),
        ])
        .args(["--engine", "cmd=sh", &format!("args={path}"), "name=silent"])
        .args([
            "--each",
            "nodes=100",
            "--games",
            "4",
            "--move-timeout",
            "600",
            "--records",
        ])
        .arg(dir.join("games.csv"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the match");
    // Wait until the silent engine is thinking (the check at start and the first game).
    let until = Instant::now() + Duration::from_secs(60);
    while processes_with(&path) == 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(processes_with(&path) > 0, "the engine never started");
    // SAFETY: sends a signal to our own child process, which is still running.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0, "SIGINT sent");
    let until = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(Instant::now() < until, "the runner did not stop");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let mut stdout = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    assert!(stdout.contains("stopped early"), "{stdout}");
    assert_eq!(processes_with(&path), 0, "an engine outlived the runner");
}

#[test]
fn bad_command_lines_are_refused_with_a_reason() {
    let dir = scratch("bad");
    let cases: [(&[&str], &str); 8] = [
        (&["--engine", "cmd=x"], "two or more"),
        (
            &[
                "--engine",
                "cmd=a",
                "--engine",
                "cmd=b",
                "--first-attacks-only",
                "--sprt",
                "elo0=0",
                "elo1=5",
            ],
            "--first-attacks-only plays none",
        ),
        (
            &["--engine", "cmd=/nonexistent/engine", "--engine", "cmd=y"],
            "does not start",
        ),
        (
            &[
                "--engine", "cmd=a", "--engine", "cmd=b", "--sprt", "elo0=5", "elo1=0",
            ],
            "elo0",
        ),
        (
            &["--engine", "cmd=a", "--engine", "cmd=b", "--shard", "4/3"],
            "--shard",
        ),
        (
            &["--engine", "cmd=a", "tc=x", "--engine", "cmd=b"],
            "not a number",
        ),
        (
            &["--engine", "cmd=a", "--engine", "cmd=b", "depth=x"],
            "not a depth",
        ),
        (
            &[
                "--engine",
                "cmd=a",
                "--engine",
                "cmd=b",
                "--json",
                "/nonexistent/s.json",
            ],
            "cannot write",
        ),
    ];
    for (args, expect) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
            .arg("match")
            .args(args)
            .args(["--each", "nodes=100", "--records"])
            .arg(dir.join("x.csv"))
            .output()
            .expect("run");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}

#[test]
fn an_option_the_engine_refuses_stops_the_match() {
    let dir = scratch("options");
    let cases = [
        ("option.EvalFile=/nonexistent.nnue", "cannot read net file"),
        ("option.Foo=1", "offers no option 'Foo'"),
        ("option.Hash=abc", "'abc' is not a whole number"),
    ];
    for (option, expect) in cases {
        let mut args = hnefi_engine("good", 100);
        args.extend(hnefi_engine("typo", 100));
        args.push(option.into());
        let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
            .arg("match")
            .args(&args)
            .arg("--records")
            .arg(dir.join("games.csv"))
            .output()
            .expect("run hnefi match");
        assert!(!out.status.success(), "{option}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("engine typo") && err.contains(option) && err.contains(expect),
            "{option}: {err}"
        );
        assert!(
            !dir.join("games.csv").exists(),
            "{option}: no game is played"
        );
    }
    // Options the engine takes pass, in any case of their names.
    let mut args = hnefi_engine("a", 100);
    args.extend(hnefi_engine("b", 100));
    args.extend(words("option.hash=8 option.Eval=hand --games 2"));
    let (out, summary) = run(&dir, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(summary.expect("a summary").games(), 2);
}

#[test]
fn opentafl_engines_are_told_the_increment_as_overtime() {
    let dir = scratch("otep-clock");
    let path = script(&dir, "otep_tell.sh");
    let told = dir.join("told.txt");
    let mut args = hnefi_engine("hnefi", 100);
    args.extend(words("--engine cmd=sh proto=otep name=bad tc=60+2"));
    args.push(format!("args={path} {}", told.display()));
    args.extend(words("--games 2"));
    let (out, summary) = run(&dir, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(summary.expect("a summary").games(), 2);
    let told = std::fs::read_to_string(&told).expect("what the engine was told");
    // Main time and one period of the increment make the 60 s; the opponent has no clock and
    // is shown the engine's own. OpenTafl's host ends the line with a space.
    let clocks: Vec<&str> = told.lines().filter(|l| l.starts_with("clock")).collect();
    assert_eq!(clocks, ["clock 58000 58000 2 1 1 "; 2], "{told}");
    assert!(told.contains("clock 58000 58000 2 1 1 \nplay "), "{told}");
}

#[test]
fn an_opentafl_engine_s_critical_error_resigns_its_game() {
    let dir = scratch("otep-critical");
    let path = script(&dir, "otep_gives_up.sh");
    let mut args = hnefi_engine("hnefi", 100);
    // A clock the engine would take a minute to lose on.
    args.extend(words("--engine cmd=sh proto=otep name=quitter tc=60+2"));
    args.push(format!("args={path}"));
    args.extend(words("--games 2"));
    let (out, summary) = run(&dir, &args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(summary.expect("a summary").games(), 2);
    assert_eq!(
        err.matches("quitter: critical error, resigns: this engine cannot play these rules")
            .count(),
        2,
        "{err}"
    );
    // Not lost waiting for a move.
    assert!(!err.contains(" lost by "), "{err}");
}

#[test]
fn opentafl_engines_are_refused_rules_they_cannot_be_told() {
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args([
            "match",
            "--engine",
            "cmd=a",
            "proto=otep",
            "--engine",
            "cmd=b",
        ])
        .args(["proto=otep", "--rules", "hnefatafl-org", "--records", "-"])
        .output()
        .expect("run");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("may not repeat"), "{err}");
}

#[test]
fn every_protocol_plays_a_round_robin() {
    // Hnefi over every protocol, in two round robins because the protocols cannot all be told
    // the same rules: OpenTafl's rules strings cannot forbid the defenders' repeats, and the
    // hnefatafl text protocol always plays hnefatafl-org's rules, which do. So UCI against
    // OpenTafl under Copenhagen rules; UCI, the text protocol on stdin, and the same as a
    // light-server client over TCP under hnefatafl-org rules.
    let exe = env!("CARGO_BIN_EXE_hnefi");
    let dir = scratch("protocols-otep");
    let mut args = hnefi_engine("uci", 500);
    args.extend(words(&format!(
        "--engine cmd={exe} name=otep proto=otep tc=4+0.05"
    )));
    // A wide time margin: a loaded machine must not turn this into a time loss.
    args.extend(words(
        "--games 2 --concurrency 2 --rules copenhagen --max-plies 60 --time-margin 3000",
    ));
    round_robin_without_forfeits(&dir, &args, 1);

    let dir = scratch("protocols-htp");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut args = hnefi_engine("uci", 500);
    args.extend(words(&format!("--engine cmd={exe} name=htp proto=htp")));
    args.push("args=--protocol htp --movetime 10".into());
    args.extend(words(&format!(
        "--engine cmd={exe} name=tcp proto=htp listen={port}"
    )));
    args.push(format!("args=connect 127.0.0.1:{port} --movetime 10"));
    args.extend(words(
        "--games 2 --concurrency 2 --rules hnefatafl-org --max-plies 60 --time-margin 3000",
    ));
    round_robin_without_forfeits(&dir, &args, 3);
}

#[test]
fn a_light_server_client_is_told_the_board_size() {
    // Such a client answers nothing but moves, so `board_size` goes unanswered; without it the
    // client would play 11x11 moves in a 7x7 game and forfeit.
    let exe = env!("CARGO_BIN_EXE_hnefi");
    let dir = scratch("light-server-7x7");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut args = words(&format!("--engine cmd={exe} name=htp proto=htp"));
    args.push("args=--protocol htp --movetime 10".into());
    args.extend(words(&format!(
        "--engine cmd={exe} name=tcp proto=htp listen={port}"
    )));
    args.push(format!("args=connect 127.0.0.1:{port} --movetime 10"));
    args.extend(words(
        "--games 2 --rules brandubh --max-plies 40 --time-margin 3000",
    ));
    round_robin_without_forfeits(&dir, &args, 1);
}

#[test]
fn repeated_openings_are_pointed_out() {
    let dir = scratch("repeated-openings");
    let file = dir.join("one.txt");
    std::fs::write(&file, "d3-c3 d2-e2\n").expect("write the opening");
    let mut args = hnefi_engine("a", 100);
    args.extend(hnefi_engine("b", 100));
    args.extend(words(
        "--games 4 --rules brandubh --max-plies 20 --openings",
    ));
    args.push(file.display().to_string());
    let (out, _) = run(&dir, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("1 openings for 2 pairs of games an encounter: openings repeat"),
        "{stderr}"
    );
}

fn round_robin_without_forfeits(dir: &Path, args: &[String], encounters: usize) {
    let (out, summary) = run(dir, args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = summary.expect("a summary");
    assert_eq!(summary.encounters.len(), encounters);
    for e in &summary.encounters {
        assert_eq!(e.games(), 2, "{e:?}");
        assert!(
            e.endings.keys().all(|k| !k.contains("lost by")),
            "no forfeits: {e:?}"
        );
    }
}

#[test]
fn the_sprt_stops_the_match_when_it_decides() {
    let dir = scratch("sprt");
    let path = script(&dir, "illegal.sh");
    let mut args = hnefi_engine("hnefi", 200);
    args.extend(words(&format!(
        "--engine cmd=sh args={path} name=bad nodes=100"
    )));
    // Every pair is 2-0: evidence enough against hypotheses far apart, in a few pairs.
    args.extend(words("--games 2000 --sprt elo0=0 elo1=400"));
    let (out, summary) = run(&dir, &args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let summary = summary.expect("a summary");
    assert!(summary.stopped_early);
    assert!(summary.games() < 20, "{}", summary.games());
}

#[test]
fn an_engine_behind_a_wrapper_script_goes_with_it() {
    let dir = scratch("wrapper");
    let wrapper = script(&dir, "wrapper.sh");
    let inner = script(&dir, "stubborn.sh");
    let mut args = hnefi_engine("hnefi", 200);
    args.extend(words(&format!(
        "--engine cmd=sh args={wrapper} name=bad nodes=100 --games 2 --move-timeout 1"
    )));
    let (out, summary) = run(&dir, &args);
    assert!(out.status.success());
    let e = &summary.expect("a summary").encounters[0];
    assert_eq!(e.endings.get("bad lost by no answer"), Some(&2), "{e:?}");
    assert_eq!(
        processes_with(&inner),
        0,
        "the wrapped engine outlived the match"
    );
}

/// A 13x13 rules string OpenTafl engines can be told: copenhagen-13 with a third repetition
/// drawn, since its ban on the defenders' repeats has no key.
fn thirteen_rules_string() -> String {
    use hnefi::board::rules::Repetition;
    use hnefi::board::{Preset, Thirteen};
    let named = hnefi::board::variant::NamedRules::preset(Preset::Copenhagen13);
    let start = named.start_board::<Thirteen>().unwrap();
    let rules = hnefi::board::Rules {
        repetition: Repetition::ThirdIsDraw,
        ..named.rules
    };
    hnefi::board::opentafl::rules_string(&rules, &hnefi::board::notation::to_opentafl(&start))
}

/// The games of `dir/games.csv` replay under `rules` on the board of `G` as recorded, each
/// naming the rules.
fn records_replay<G: hnefi::board::Geometry>(dir: &Path, rules: &str) {
    let named: hnefi::board::variant::NamedRules = rules.parse().unwrap();
    let records = std::fs::read_to_string(dir.join("games.csv")).expect("records");
    let games = hnefi::games::record::read_games_of::<G>(&records);
    assert_eq!(games.len(), 2, "{records}");
    for (_, g) in games {
        assert_eq!(g.rules.as_deref(), Some(rules));
        let positions = g.positions_from(named.start_board().unwrap(), named.rules);
        assert_eq!(positions.len(), g.moves.len() + 1, "every move legal");
        let outcome = positions.last().unwrap().outcome();
        if outcome.is_some() {
            assert_eq!(hnefi::games::record::Verdict::from(outcome), g.result);
        }
    }
}

#[test]
fn every_board_size_plays_matches_over_otep_and_htp() {
    use hnefi::board::{Nine, Seven, Thirteen};
    let exe = env!("CARGO_BIN_EXE_hnefi");
    let thirteen = thirteen_rules_string();
    type Replay = fn(&Path, &str);
    let cases: [(&str, &str, Replay); 5] = [
        ("brandub", "otep", records_replay::<Seven>),
        ("brandubh", "htp", records_replay::<Seven>),
        ("tablut", "otep", records_replay::<Nine>),
        ("copenhagen-13", "htp", records_replay::<Thirteen>),
        (&thirteen, "otep", records_replay::<Thirteen>),
    ];
    for (i, (rules, proto, replay)) in cases.into_iter().enumerate() {
        let dir = scratch(&format!("sizes-{i}"));
        let mut args = Vec::new();
        for name in ["a", "b"] {
            args.extend(words(&format!(
                "--engine cmd={exe} name={name} proto={proto}"
            )));
            args.push(format!("args=--protocol {proto} --nodes 200"));
        }
        args.extend(words("--games 2 --concurrency 2 --max-plies 80 --rules"));
        args.push(rules.to_string());
        let (out, summary) = run(&dir, &args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{rules}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("openings random: 4 plies"), "{stdout}");
        let e = &summary.expect("a summary").encounters[0];
        assert_eq!(e.games(), 2, "{rules}: {e:?}");
        assert!(
            e.endings.keys().all(|k| !k.contains("lost by")),
            "{rules}: no forfeits: {e:?}"
        );
        replay(&dir, rules);
    }
}

#[test]
fn engines_that_cannot_be_told_the_board_are_refused() {
    let exe = env!("CARGO_BIN_EXE_hnefi");
    let dir = scratch("sizes-refused");
    let match_of = |proto: &str, rules: &str| {
        let mut args = hnefi_engine("uci", 100);
        args.extend(words(&format!(
            "--engine cmd={exe} name=other proto={proto} --rules {rules} --games 2"
        )));
        let (out, _) = run(&dir, &args);
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = match_of("htp", "tablut");
    assert!(
        err.contains("boards of 7, 11 and 13") && err.contains("9x9 board of tablut"),
        "{err}"
    );
    let err = match_of("otep", "brandubh");
    assert!(err.contains("may not repeat"), "{err}");
}

/// `hnefi match` of two Hnefis at 100 nodes a move in `dir`, with `extra` arguments: whether
/// it succeeded, its standard output and its standard error.
fn quick_match(dir: &Path, extra: &str) -> (bool, String, String) {
    let mut args = vec!["match".to_string()];
    args.extend(hnefi_engine("a", 100));
    args.extend(hnefi_engine("b", 100));
    args.extend(words(&format!("--report-every 0 {extra}")));
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .current_dir(dir)
        .args(&args)
        .output()
        .expect("run hnefi match");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_odd_number_of_games_is_said_to_be_played_in_pairs() {
    let dir = scratch("odd-games");
    let (ok, out, err) = quick_match(&dir, "--games 3 --json summary.json");
    assert!(ok, "{err}");
    assert!(
        err.contains("--games 3 plays 4 games an encounter"),
        "{err}"
    );
    let summary = std::fs::read_to_string(dir.join("summary.json")).expect("the summary");
    let summary = Summary::from_json(&summary).expect("a summary");
    assert_eq!(summary.encounters[0].games(), 4);
    assert_eq!(out.matches("Match:").count(), 1, "the header once:\n{out}");
}

#[test]
fn records_go_to_a_new_file_or_one_of_the_same_rules() {
    let dir = scratch("records");
    let (ok, out, err) = quick_match(&dir, "--games 2");
    assert!(
        ok && out.ends_with("Games written to match.csv\n"),
        "{out}\n{err}"
    );
    assert!(err.contains("games are written to match.csv"), "{err}");
    // Another match does not add its games to the first one's file without a word.
    let (ok, out, err) = quick_match(&dir, "--games 2");
    assert!(
        ok && out.ends_with("Games written to match-2.csv\n"),
        "{out}\n{err}"
    );
    let games = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .expect("records")
            .lines()
            .count()
    };
    assert_eq!((games("match.csv"), games("match-2.csv")), (2, 2));
    // Named, a file of other rules' games is refused before any game.
    let (ok, _, err) = quick_match(&dir, "--games 2 --rules brandubh --records match.csv");
    assert!(!ok, "{err}");
    assert!(
        err.contains(
            "match.csv holds games under the rules copenhagen, and this match plays brandubh"
        ),
        "{err}"
    );
    assert_eq!(games("match.csv"), 2);
    // One of the same rules is added to, and said to be.
    let (ok, _, err) = quick_match(&dir, "--games 2 --records match.csv");
    assert!(
        ok && err.contains("added to the 2 games of the same rules in match.csv"),
        "{err}"
    );
    assert_eq!(games("match.csv"), 4);
    assert!(!dir.join("match-3.csv").exists());
}
