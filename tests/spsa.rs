//! `hnefi spsa` run for real: two short iterations of Hnefi against itself through its own
//! binary, the state file they leave, resuming it, and the errors that must come before any
//! game.

use hnefi::tournament::spsa::SpsaState;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hnefi-spsa-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// `hnefi spsa` with a small run's arguments, then `extra`.
fn spsa(state: &Path, extra: &[&str]) -> Output {
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/openings-balanced.txt");
    Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .arg("spsa")
        .args(["--engine", &format!("cmd={}", env!("CARGO_BIN_EXE_hnefi"))])
        .args([
            "nodes=200",
            "--param",
            "LmrBase",
            "--param",
            "RfpMargin=100,8",
        ])
        .args([
            "--pairs-per-iteration",
            "2",
            "--concurrency",
            "2",
            "--seed",
            "3",
        ])
        .args(["--max-plies", "150", "--openings"])
        .arg(openings)
        .arg("--state")
        .arg(state)
        .args(extra)
        .output()
        .expect("run hnefi spsa")
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

#[test]
fn two_iterations_leave_a_state_and_print_the_values() {
    let dir = scratch("run");
    let state_path = dir.join("spsa.json");
    let out = spsa(&state_path, &["--iterations", "2"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stderr.contains("iteration 2/2: theta+ "), "{stderr}");
    let state = SpsaState::load(&state_path).expect("the state file");
    assert_eq!(state.iteration, 2);
    assert_eq!(state.score.games(), 2 * 2 * 2, "two pairs an iteration");
    assert_eq!(state.theta.len(), 2);
    assert!(
        std::fs::read_dir(&dir).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .ends_with(".tmp")),
        "no temporary file left"
    );
    // The values as engine words, then as UCI commands, as the state rounds them.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0], state.option_words());
    assert!(lines[0].starts_with("option.LmrBase="), "{stdout}");
    assert!(lines[1].starts_with("setoption name LmrBase value "));
    assert!(lines[2].starts_with("setoption name RfpMargin value "));

    // The run is over: resuming it plays nothing and answers the same.
    let again = spsa(&state_path, &["--iterations", "2", "--resume"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), stdout);
    assert!(!text(&again.stderr).contains("iteration 1/"));

    // Another schedule cannot take the run over, nor a new run overwrite it.
    let other = spsa(&state_path, &["--iterations", "3", "--resume"]);
    assert!(!other.status.success());
    assert!(
        text(&other.stderr).contains("(iterations: 2 there, 3 now)"),
        "{}",
        text(&other.stderr)
    );
    let fresh = spsa(&state_path, &["--iterations", "2"]);
    assert!(!fresh.status.success());
    assert!(text(&fresh.stderr).contains("add --resume"));
    assert_eq!(SpsaState::load(&state_path).unwrap(), state, "left alone");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_settings_fail_before_any_game() {
    let dir = scratch("bad");
    let state_path = dir.join("spsa.json");
    for (extra, says) in [
        (
            &["--iterations", "2", "--param", "Colour=3"][..],
            "parameter 'Colour' is unknown",
        ),
        (&["--iterations", "0"], "at least one iteration"),
        (&["--iterations", "2", "--resume"], "cannot read"),
    ] {
        let out = spsa(&state_path, extra);
        assert!(!out.status.success(), "{extra:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{extra:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
        assert!(!state_path.exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
