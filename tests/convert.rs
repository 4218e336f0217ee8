//! `hnefi convert` and the binary sample format through the real binary: text to binary and
//! back unchanged, training from either, and bad files refused with their reason and nothing
//! overwritten.

use crate::common;

use std::path::Path;

/// The samples of the first games of data/copenhagen.csv, as `hnefi games-data` writes them.
fn text_samples(dir: &Path) -> String {
    let games: String = common::games_text()
        .lines()
        .take(40)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("games.csv"), games).unwrap();
    let (ok, err) = common::run_hnefi_in(dir, &["games-data", "games.csv", "-o", "s.txt"]);
    assert!(ok, "{err}");
    std::fs::read_to_string(dir.join("s.txt")).unwrap()
}

#[test]
fn text_goes_to_binary_and_back_unchanged_and_trains_alike() {
    let dir = common::fresh_dir("convert-round-trip");
    let text = text_samples(&dir);
    let (ok, err) = common::run_hnefi_in(&dir, &["convert", "s.txt", "-o", "s.bin"]);
    assert!(ok, "{err}");
    let positions = text.lines().count();
    assert!(
        err.contains(&format!("convert: {positions} positions of 11x11 boards")),
        "{err}"
    );
    let bin = std::fs::read(dir.join("s.bin")).unwrap();
    assert_eq!(bin.len(), 16 + 46 * positions);
    assert!(
        bin.len() < text.len() * 2 / 3,
        "{} against {}",
        bin.len(),
        text.len()
    );
    let (ok, err) = common::run_hnefi_in(&dir, &["convert", "s.bin", "-o", "back.txt"]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("back.txt")).unwrap(), text);

    // The trainer reads either, to the same network.
    let train = |data: &str, out: &str| {
        let args = [
            "train",
            data,
            "-o",
            out,
            "--epochs",
            "1",
            "--threads",
            "1",
            "--seed",
            "4",
        ];
        let (ok, err) = common::run_hnefi_in(&dir, &args);
        assert!(ok, "{err}");
        std::fs::read(dir.join(out)).unwrap()
    };
    assert_eq!(train("s.txt", "t.nnue"), train("s.bin", "b.nnue"));
}

#[test]
fn bad_files_are_refused_with_their_reason_and_nothing_is_overwritten() {
    let dir = common::fresh_dir("convert-bad");
    text_samples(&dir);
    let (ok, err) = common::run_hnefi_in(&dir, &["convert", "s.txt", "-o", "s.bin"]);
    assert!(ok, "{err}");
    let bin = std::fs::read(dir.join("s.bin")).unwrap();
    std::fs::write(dir.join("kept.txt"), "what was here\n").unwrap();
    let refused = |args: &[&str], why: &str| {
        let (ok, err) = common::run_hnefi_in(&dir, args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains(why), "{args:?}: {err}");
        assert_eq!(
            std::fs::read_to_string(dir.join("kept.txt")).unwrap(),
            "what was here\n",
            "{args:?} overwrote its output"
        );
    };

    // Truncated: the whole records before the cut are not written either.
    std::fs::write(dir.join("cut.bin"), &bin[..bin.len() - 10]).unwrap();
    refused(
        &["convert", "cut.bin", "-o", "kept.txt"],
        "is cut short (36 of 46 bytes)",
    );
    // A wrong record size in the header.
    let mut wrong = bin.clone();
    wrong[12] = 43;
    std::fs::write(dir.join("wrong.bin"), &wrong).unwrap();
    refused(
        &["convert", "wrong.bin", "-o", "kept.txt"],
        "43-byte records where 11x11 boards have 46",
    );
    // A file of another board, read for 11x11.
    std::fs::write(
        dir.join("seven.txt"),
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a;12;d;1\n",
    )
    .unwrap();
    let (ok, err) = common::run_hnefi_in(&dir, &["convert", "seven.txt", "-o", "seven.bin"]);
    assert!(ok, "{err}");
    assert!(err.contains("1 positions of 7x7 boards"), "{err}");
    refused(
        &["train", "seven.bin", "-o", "kept.txt", "--epochs", "1"],
        "the file is for 7x7 boards, not 11x11",
    );
    // Mixed kinds and sizes in one conversion.
    refused(
        &["convert", "s.txt", "s.bin", "-o", "kept.txt"],
        "convert them apart",
    );
    refused(
        &["convert", "s.bin", "seven.bin", "-o", "kept.txt"],
        "convert them apart",
    );
    // Not samples at all.
    refused(&["convert", "games.csv", "-o", "kept.txt"], "games.csv");
}
