//! Nothing panics when the reader of the output goes away (`hnefi eval | head -1`): every
//! command that prints stops quietly, with status 0 and nothing on standard error, and the
//! engine loops take a host that closed their output in their stride.

use crate::common;

/// Runs `args` into a closed pipe; it must end with status 0 and with standard error as
/// `stderr_ok` wants it.
fn quietly(args: &[&str], input: &str, stderr_ok: impl Fn(&str) -> bool) {
    let dir = common::fresh_dir(&format!("closed-pipe-{}", args[0]));
    let (status, stderr) = common::run_hnefi_into_closed_pipe(&dir, args, input);
    assert!(status.success(), "{args:?}: {status}\n{stderr}");
    assert!(stderr_ok(&stderr), "{args:?}:\n{stderr}");
}

fn silent(args: &[&str]) {
    quietly(args, "", str::is_empty);
}

#[test]
fn commands_that_print_stop_quietly() {
    silent(&["eval"]);
    silent(&["eval", "--eval", "hand"]);
    silent(&["analyse", "--depth", "3"]);
    silent(&[
        "openings",
        &common::repo_file("data/copenhagen.csv")
            .display()
            .to_string(),
    ]);
    silent(&["perft", "2", "--divide"]);
    silent(&["board"]);
    silent(&["timetodepth", "--depth", "1"]);
    silent(&[
        "games-data",
        &common::repo_file("data/copenhagen.csv")
            .display()
            .to_string(),
    ]);
    // Two of the tactics: solving them all takes a minute in a debug build.
    let dir = common::fresh_dir("closed-pipe-epd");
    let epd = common::repo_file("positions/tactics.epd");
    let text = std::fs::read_to_string(epd).expect("the tactics");
    let two: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(2)
        .collect();
    std::fs::write(dir.join("two.epd"), two.join("\n")).expect("an EPD file");
    silent(&[
        "tactics",
        "--file",
        &dir.join("two.epd").display().to_string(),
        "--depth",
        "1",
    ]);
}

#[test]
fn bench_stops_quietly_after_its_progress() {
    // Its progress goes to standard error by design; nothing else may.
    quietly(&["bench", "2", "--eval", "hand"], "", |err| {
        err.lines().all(|l| l.starts_with("position "))
    });
}

#[test]
fn progress_into_a_closed_pipe_is_passed_over() {
    // `hnefi bench 2>&1 | head -1`: the progress lines on standard error fail first.
    let dir = common::fresh_dir("closed-pipe-both");
    for args in [
        &["bench", "2", "--eval", "hand"][..],
        &["tactics", "--generate", "none.csv"],
        &["annotate", "d1-d3", "--depth", "1"],
    ] {
        std::fs::write(dir.join("none.csv"), "").unwrap();
        let status = common::run_hnefi_all_into_closed_pipe(&dir, args);
        assert!(status.success(), "{args:?}: {status}");
    }
}

#[test]
fn annotate_stops_quietly() {
    silent(&["annotate", "d1-d3 e5-e2", "--depth", "1"]);
}

#[test]
fn engine_loops_go_on_without_their_host_reading() {
    for (protocol, input) in [
        (
            "uci",
            "uci\nisready\nposition startpos\ngo depth 3\nisready\nquit\n",
        ),
        ("htp", "name\nplay black d1 d3\ngenmove white\nquit\n"),
        ("otep", "goodbye\n"),
    ] {
        quietly(
            &["--protocol", protocol, "--nodes", "500"],
            input,
            str::is_empty,
        );
    }
}
