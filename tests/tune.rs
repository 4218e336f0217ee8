//! `hnefi tune` through the binary: samples of a few real games in, a weights file out.

use crate::common;

use hnefi::search::eval::weights::{self, WeightsFile};
use std::path::{Path, PathBuf};

// Lines 62 and 1036 of copenhagen.csv (CC0).
const GAMES: &str = "\
d1-d3 g5-i5 f2-i2 f8-b8 k8-c8xb8 f4-i4 k7-i7 f5-f2 e1-e2,1,0,Black
h1-h3 f8-c8 b6-b9 d6-d3 a4-c4 e7-e10 d11-d10xe10 e6-e10 b9-e9xe10 f6-b6,2,0,White
";

fn workdir(name: &str) -> PathBuf {
    let dir = common::fresh_dir(&format!("tune-{name}"));
    std::fs::write(dir.join("games.csv"), GAMES).expect("the games file");
    dir
}

fn hnefi(dir: &Path, args: &[&str]) -> (bool, String) {
    common::run_hnefi_in(dir, args)
}

#[test]
fn tune_writes_a_weights_file_with_its_recipe() {
    let dir = workdir("writes");
    let (ok, err) = hnefi(&dir, &["games-data", "games.csv", "-o", "games.txt"]);
    assert!(ok, "{err}");
    let args = [
        "tune",
        "games.txt",
        "--epochs",
        "20",
        "--holdout",
        "0.5",
        "-o",
        "fit.weights",
    ];
    let (ok, err) = hnefi(&dir, &args);
    assert!(ok, "{err}");
    assert!(err.contains("held out"), "{err}");
    let bytes = std::fs::read(dir.join("fit.weights")).expect("weights written");
    let recipe = WeightsFile::recipe(&bytes).expect("a recipe");
    assert!(
        recipe.contains("hnefi tune games.txt --epochs 20"),
        "the recipe: {recipe}"
    );
    assert!(recipe.contains("games.txt: "), "{recipe}");
    let fit = WeightsFile::read(&bytes).expect("weights that this build reads");
    // Fitted from the engine's 11x11 weights, on their scale.
    assert_eq!(fit.scale, weights::ELEVEN.scale);
    assert_ne!(fit.weights, *weights::ELEVEN.weights);
    // The same data and settings give the same file.
    std::fs::rename(dir.join("fit.weights"), dir.join("first.weights")).unwrap();
    let (ok, err) = hnefi(&dir, &args);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(dir.join("first.weights")).unwrap(),
        std::fs::read(dir.join("fit.weights")).unwrap()
    );
}

#[test]
fn bad_samples_and_settings_are_refused_with_a_reason() {
    let dir = workdir("bad");
    std::fs::write(dir.join("bad.txt"), "11/11 a;1;a;1\n").unwrap();
    let (ok, err) = hnefi(&dir, &["tune", "bad.txt"]);
    assert!(!ok && err.contains("bad.txt:1"), "{err}");
    let (ok, err) = hnefi(&dir, &["tune", "missing.txt"]);
    assert!(!ok && err.contains("cannot read"), "{err}");
    let (ok, err) = hnefi(&dir, &["tune", "games.csv", "--lambda", "2"]);
    assert!(!ok && err.contains("--lambda"), "{err}");
}
