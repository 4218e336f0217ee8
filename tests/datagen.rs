//! `hnefi datagen`, `hnefi games-data` and `hnefi openings --balanced`, run for real on a few
//! inline games.

use crate::common;

use hnefi::learn::sample::{GameResult, Sample};
use hnefi::search::size::Standard;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

// Lines 62, 1036, 7, 817 and 1694 of copenhagen.csv (CC0).
const GAMES: &str = "\
d1-d3 g5-i5 f2-i2 f8-b8 k8-c8xb8 f4-i4 k7-i7 f5-f2 e1-e2,1,0,Black
h1-h3 f8-c8 b6-b9 d6-d3 a4-c4 e7-e10 d11-d10xe10 e6-e10 b9-e9xe10 f6-b6,2,0,White
d1-d3 h6-h3 k4-k3 g7-g9 h11-i11 g6-i6 h1-i1 g5-j5,0,0,Ongoing
g1-g3 timeout,0,0,Black
e1-e3 g7-g10 h11-h10xg10 f7-g7 f10-g10 f8-f10 h10-h9 f6-f9 b6-b1 f9-a9 e11-e10xf10 a9-a11,2,0,White
";

/// A fresh directory for one test, with the games file in it.
fn workdir(name: &str) -> PathBuf {
    let dir = common::fresh_dir(&format!("datagen-{name}"));
    std::fs::write(dir.join("games.csv"), GAMES).expect("the games file");
    dir
}

/// A tiny run (4 games, 200 nodes, 4 book plies) into `out`, with `extra` options added or
/// replacing those.
fn datagen(dir: &Path, out: &str, extra: &[&str]) -> (bool, String) {
    datagen_with(dir, out, extra, &[])
}

/// [`datagen`] with the variables `vars` set.
fn datagen_with(dir: &Path, out: &str, extra: &[&str], vars: &[(&str, &str)]) -> (bool, String) {
    let base = [
        ("--book", "games.csv"),
        ("--book-plies", "4"),
        ("--games", "4"),
        ("--nodes", "200"),
        ("--max-plies", "120"),
        ("--seed", "3"),
        ("--threads", "2"),
    ];
    let mut args = vec!["datagen", "-o", out];
    args.extend_from_slice(extra);
    for (key, value) in base {
        if !extra.contains(&key) {
            args.extend([key, value]);
        }
    }
    let (ok, stdout, stderr) = common::output_of_hnefi_with(dir, &args, vars);
    assert!(stdout.is_empty(), "{stdout}");
    (ok, stderr)
}

/// The lines of a file, sorted: games come in the order they finish, and a game can hold the
/// same line twice (a repeated position searched alike).
fn lines(path: &Path) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(path)
        .expect("the output")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

fn games(lines: &[String]) -> BTreeSet<u64> {
    lines
        .iter()
        .map(|l| l.parse::<Sample<Standard>>().expect("a sample").game)
        .collect()
}

#[test]
fn datagen_is_seeded_and_sharded() {
    let dir = workdir("seeded");
    let (ok, err) = datagen(&dir, "all.txt", &[]);
    assert!(ok, "{err}");
    assert!(err.contains("datagen: 4 games, "), "{err}");
    assert!(err.contains("positions/s"), "{err}");
    let all = lines(&dir.join("all.txt"));
    let samples: Vec<Sample<Standard>> = all.iter().map(|l| l.parse().expect("a sample")).collect();
    assert_eq!(
        games(&all),
        BTreeSet::from([3_000_000_000, 3_000_000_001, 3_000_000_002, 3_000_000_003])
    );
    assert!(samples.iter().all(|s| s.score.is_some()));

    // The same seed, the same games; another seed, others.
    let (ok, err) = datagen(&dir, "again.txt", &["--threads", "1"]);
    assert!(ok, "{err}");
    assert_eq!(lines(&dir.join("again.txt")), all);
    let (ok, err) = datagen(&dir, "other.txt", &["--seed", "4"]);
    assert!(ok, "{err}");
    assert!(games(&lines(&dir.join("other.txt"))).is_disjoint(&games(&all)));

    // Two shards make the whole run.
    let (ok, err) = datagen(&dir, "s1.txt", &["--shard", "1/2"]);
    assert!(ok, "{err}");
    // The second, as the second task of a Slurm job array that starts at 4.
    let array = [
        ("SLURM_ARRAY_TASK_ID", "5"),
        ("SLURM_ARRAY_TASK_MIN", "4"),
        ("SLURM_ARRAY_TASK_MAX", "5"),
        ("SLURM_ARRAY_TASK_STEP", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "2"),
    ];
    let (ok, err) = datagen_with(&dir, "s2.txt", &["--shard", "slurm"], &array);
    assert!(ok, "{err}");
    assert!(err.contains("shard 2/2"), "{err}");
    let (s1, s2) = (lines(&dir.join("s1.txt")), lines(&dir.join("s2.txt")));
    assert_eq!(games(&s1), BTreeSet::from([3_000_000_000, 3_000_000_002]));
    let mut both = [s1, s2].concat();
    both.sort();
    assert_eq!(both, all);

    // Every output opens with its settings and shard; a merge checks them and joins the shards.
    let header = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        text.lines().next().unwrap_or_default().to_string()
    };
    assert!(header("all.txt").starts_with("# hnefi datagen shard 1/1 settings "));
    assert!(header("s2.txt").starts_with("# hnefi datagen shard 2/2 settings "));
    // The rules as users write them, not Rust's debug form of the struct.
    assert!(
        header("all.txt").ends_with("; rules copenhagen"),
        "{}",
        header("all.txt")
    );
    let merge = |files: &[&str], out: &str| {
        let mut args = vec!["datagen", "merge", "-o", out];
        args.extend(files);
        common::run_hnefi_in(&dir, &args)
    };
    let (ok, err) = merge(&["s2.txt", "s1.txt"], "merged.txt");
    assert!(ok, "{err}");
    assert_eq!(header("merged.txt"), header("all.txt"));
    assert_eq!(lines(&dir.join("merged.txt")), all);
    let (ok, err) = merge(&["s1.txt"], "one.txt");
    assert!(!ok && err.contains("shard 2 of 2 missing"), "{err}");
    let (ok, err) = merge(&["s1.txt", "s1.txt"], "twice.txt");
    assert!(!ok && err.contains("shard 1/2 is in both"), "{err}");
    let (ok, err) = merge(&["s1.txt", "other.txt"], "mixed.txt");
    assert!(!ok && err.contains("different runs"), "{err}");
    assert!(!dir.join("one.txt").exists() && !dir.join("mixed.txt").exists());

    // A shard's file resumes only as that shard of that run.
    let (ok, err) = datagen(&dir, "s1.txt", &["--skip-existing"]);
    assert!(!ok && err.contains("another run or shard"), "{err}");

    // Resuming a file cut in the middle of a line plays the rest exactly.
    let whole = std::fs::read_to_string(dir.join("all.txt")).unwrap();
    std::fs::write(dir.join("resumed.txt"), &whole[..whole.len() / 2]).unwrap();
    let (ok, err) = datagen(&dir, "resumed.txt", &[]);
    assert!(!ok && err.contains("--skip-existing"), "{err}");
    let (ok, err) = datagen(&dir, "resumed.txt", &["--skip-existing"]);
    assert!(ok, "{err}");
    assert_eq!(lines(&dir.join("resumed.txt")), all);
}

/// A net file of a random network in `dir`.
fn random_net(dir: &Path, seed: u64) -> &'static str {
    use hnefi::learn::network::FloatNetwork;
    let scale = hnefi::search::eval::weights::SCALE as f32;
    FloatNetwork::random(seed, scale, 363)
        .quantise()
        .save(&dir.join("random.nnue"))
        .expect("a net file");
    "random.nnue"
}

#[test]
fn datagen_plays_with_the_network_when_asked() {
    let dir = workdir("nnue");
    let net = random_net(&dir, 7);
    let (ok, err) = datagen(&dir, "hand.txt", &["--eval", "hand"]);
    assert!(ok, "{err}");
    assert!(err.contains("hand evaluation"), "{err}");
    let with_net = ["--eval", "nnue", "--eval-file", net];
    let (ok, err) = datagen(&dir, "net.txt", &with_net);
    assert!(ok, "{err}");
    assert!(err.contains("nnue random.nnue evaluation"), "{err}");
    let (hand, nnue) = (lines(&dir.join("hand.txt")), lines(&dir.join("net.txt")));
    // The same games by number, played otherwise: the scores are the network's.
    assert_eq!(games(&hand), games(&nnue));
    assert_ne!(hand, nnue);
    assert!(nnue.iter().all(|l| l.parse::<Sample<Standard>>().is_ok()));
    // Seeded as ever: the same network plays the same games.
    let (ok, err) = datagen(
        &dir,
        "again.txt",
        &[&with_net[..], &["--threads", "1"]].concat(),
    );
    assert!(ok, "{err}");
    assert_eq!(lines(&dir.join("again.txt")), nnue);
    // By default, the network built into the binary.
    let (ok, err) = datagen(&dir, "built-in.txt", &[]);
    assert!(ok, "{err}");
    assert!(err.contains("nnue (built in) evaluation"), "{err}");
    let built_in = lines(&dir.join("built-in.txt"));
    assert!(built_in != hand && built_in != nnue);
    for (extra, expected) in [
        (&["--eval", "hand", "--eval-file", net][..], "--eval nnue"),
        (
            &["--eval", "nnue", "--eval-file", "games.csv"][..],
            "games.csv",
        ),
        (&["--eval", "mlp"][..], "--eval"),
    ] {
        let (ok, err) = datagen(&dir, "bad.txt", extra);
        assert!(!ok, "{extra:?}");
        assert!(err.contains(expected), "{extra:?}: {err}");
    }
}

#[test]
fn datagen_rejects_bad_arguments_with_a_reason() {
    let dir = workdir("bad");
    for (extra, expected) in [
        (&["--shard", "3/2"][..], "--shard"),
        (&["--shard", "x"][..], "--shard"),
        // Not a task of a job array: an error, not the whole run played again.
        (&["--shard", "slurm"][..], "SLURM_ARRAY_TASK_ID is not set"),
        (&["--nodes", "0"][..], "--nodes"),
        (&["--threads", "0"][..], "--threads"),
        (&["--balance-nodes", "0"][..], "--balance-nodes"),
        (&["--max-plies", "5"][..], "--max-plies"),
        (&["--book", "missing.csv"][..], "missing.csv"),
        (&["--book-plies", "40"][..], "--book-plies"),
        (&["--rules", "chess"][..], "copenhagen-2017"),
    ] {
        let (ok, err) = datagen(&dir, "out.txt", extra);
        assert!(!ok, "{extra:?}");
        assert!(err.contains(expected), "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (ok, err) = datagen(&dir, "no/such/dir/out.txt", &[]);
    assert!(!ok && err.contains("no/such/dir/out.txt"), "{err}");
}

#[test]
fn games_data_writes_every_position_of_the_finished_games() {
    let dir = workdir("games");
    let (ok, out, err) = common::output_of_hnefi_in(&dir, &["games-data", "games.csv"]);
    assert!(ok, "{err}");
    let samples: Vec<Sample<Standard>> =
        out.lines().map(|l| l.parse().expect("a sample")).collect();
    // 10 positions of line 1, 11 of line 2, none of the unfinished line 3, 2 of line 4, and
    // 12 of line 5, whose last position (the king on a11) is over.
    let count = |game: u64| samples.iter().filter(|s| s.game == game).count();
    assert_eq!([1, 2, 3, 4, 5].map(count), [10, 11, 0, 2, 12]);
    assert!(samples.iter().all(|s| s.score.is_none()));
    assert!(
        samples
            .iter()
            .filter(|s| s.game == 2 || s.game == 5)
            .all(|s| s.result == GameResult::DefendersWon)
    );
    assert!(err.contains("35 positions"), "{err}");
    let (ok, out, err) =
        common::output_of_hnefi_in(&dir, &["games-data", "games.csv", "-o", "samples.txt"]);
    assert!(ok && out.is_empty(), "{err}");
    assert_eq!(lines(&dir.join("samples.txt")).len(), 35);
    // Without a file, the real games built into the binary, from any folder.
    let (ok, _, err) = common::output_of_hnefi_in(&dir, &["games-data", "-o", "real.txt"]);
    assert!(ok && err.contains("1752 lines"), "{err}");
}

#[test]
fn balanced_openings_read_back_as_openings() {
    let dir = workdir("openings");
    let (ok, out, err) = common::output_of_hnefi_in(
        &dir,
        &[
            "openings",
            "games.csv",
            "--balanced",
            "--min-plies",
            "4",
            "--max-plies",
            "8",
            "--nodes",
            "300",
            "--band",
            "100000",
        ],
    );
    assert!(ok, "{err}");
    assert!(out.starts_with("# Balanced openings"), "{out}");
    let openings = hnefi::tournament::openings::load_openings(
        &out,
        &hnefi::board::Board::start(),
        hnefi::board::Rules::default(),
    )
    .expect("a valid openings file");
    // Lines 1, 2 and 5 were won; all are long enough.
    assert_eq!(openings.len(), 3, "{out}");
    assert!(openings.iter().all(|o| (4..=8).contains(&o.moves.len())));
    assert!(err.contains("kept 3 of 3"), "{err}");
    let (ok, _, err) = common::output_of_hnefi_in(&dir, &["openings", "games.csv", "--nodes", "5"]);
    assert!(!ok && err.contains("--balanced"), "{err}");
}

/// `--starts`: the stuck rings of issue 46 played on, each game from the next position, past
/// its random moves; a bad or empty file, and a book beside it, are refused with the reason.
#[test]
fn datagen_plays_on_from_chosen_starts() {
    let dir = workdir("starts");
    let stuck = std::fs::read_to_string(common::repo_file("positions/stuck-attackers.fen"))
        .expect("the stuck positions");
    let fens: Vec<&str> = stuck
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(2)
        .collect();
    std::fs::write(
        dir.join("starts.fen"),
        format!("# two\n{}\n\n{}\n", fens[0], fens[1]),
    )
    .expect("the starts");
    let run = |out: &str, extra: &[&str]| {
        let mut args = vec!["datagen", "-o", out, "--starts", "starts.fen"];
        args.extend_from_slice(&[
            "--games",
            "2",
            "--nodes",
            "200",
            "--max-plies",
            "12",
            "--threads",
            "1",
        ]);
        args.extend_from_slice(extra);
        let (ok, stdout, stderr) = common::output_of_hnefi_with(&dir, &args, &[]);
        assert!(stdout.is_empty(), "{stdout}");
        (ok, stderr)
    };
    let (ok, err) = run("out.txt", &["--random-plies", "0"]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(dir.join("out.txt")).expect("the output");
    assert!(
        text.lines().next().unwrap().contains("starts 2 ("),
        "{text}"
    );
    for (g, fen) in fens.iter().enumerate() {
        let first = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.parse::<Sample<Standard>>().expect("a sample"))
            .find(|s| s.game % 1_000_000_000 == g as u64)
            .expect("the game's first position");
        assert_eq!(
            first.board,
            hnefi::board::Board::<Standard>::from_fen(fen).expect("a board")
        );
    }
    std::fs::write(dir.join("bad.fen"), "# none\n11/11 a\n").unwrap();
    let mut args = vec!["datagen", "-o", "bad.txt", "--starts", "bad.fen"];
    let (ok, _, err) = common::output_of_hnefi_with(&dir, &args, &[]);
    assert!(!ok && err.contains("bad.fen: line 2:"), "{err}");
    std::fs::write(dir.join("empty.fen"), "# none\n").unwrap();
    args[4] = "empty.fen";
    let (ok, _, err) = common::output_of_hnefi_with(&dir, &args, &[]);
    assert!(!ok && err.contains("no positions"), "{err}");
    let (ok, err) = run("book.txt", &["--book", "games.csv"]);
    assert!(!ok && err.contains("--book"), "{err}");
}

/// The policy's pipeline through the binary: datagen writes each position's best move, which is
/// legal there; `train --policy` learns from them and writes a policy file; `deep-moves`
/// measures a fast search on them with that policy and without.
#[test]
fn best_moves_train_a_policy_that_deep_moves_measures() {
    let dir = workdir("policy");
    let (ok, err) = datagen(&dir, "deep.txt", &[]);
    assert!(ok, "{err}");
    let rulebook = hnefi::board::Rulebook::<Standard>::new(Default::default());
    let mut list = hnefi::board::MoveList::new();
    let samples: Vec<Sample<Standard>> = lines(&dir.join("deep.txt"))
        .iter()
        .map(|l| l.parse().expect("a sample"))
        .collect();
    assert!(samples.len() > 20);
    for s in &samples {
        let best = s.best.expect("datagen writes the best move");
        list.clear();
        s.board.generate_moves(&rulebook, &mut list);
        assert!(list.contains(&best), "{s}");
    }
    let (ok, _, err) = common::output_of_hnefi_with(
        &dir,
        &[
            "train",
            "deep.txt",
            "--policy",
            "--epochs",
            "2",
            "--batch",
            "32",
            "--holdout",
            "0.3",
            "--threads",
            "2",
            "-o",
            "p.policy",
        ],
        &[],
    );
    assert!(ok, "{err}");
    assert!(err.contains("held out top-1"), "{err}");
    assert!(err.contains("quantised, as the search runs it"), "{err}");
    hnefi::search::policy::Policy::load(&dir.join("p.policy")).expect("a policy file");
    let (ok, out, err) = common::output_of_hnefi_with(
        &dir,
        &[
            "deep-moves",
            "deep.txt",
            "--policy",
            "p.policy",
            "--nodes",
            "300",
            "--positions",
            "5",
        ],
        &[],
    );
    assert!(ok, "{err}");
    assert!(out.contains("deep.txt, policy "), "{out}");
    assert!(out.contains("deep.txt, no policy "), "{out}");
    // A net file is not a policy file: refused with the reason.
    std::fs::write(dir.join("not.policy"), b"HNEFINNU").unwrap();
    let (ok, _, err) = common::output_of_hnefi_with(
        &dir,
        &["deep-moves", "deep.txt", "--policy", "not.policy"],
        &[],
    );
    assert!(!ok);
    assert!(err.contains("not a Hnefi policy file"), "{err}");
}
