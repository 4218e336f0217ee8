//! `hnefi perft` through the binary, once a board size; the counts themselves are the rules
//! crate's tests (hnefi-rules/tests/perft.rs and preset_perft.rs).

use crate::common;

#[test]
fn perft_of_every_board_size_through_the_binary() {
    for (preset, leaves) in [
        ("brandubh", 944),
        ("tablut", 4400),
        ("copenhagen", 6788),
        ("copenhagen-13", 20348),
    ] {
        let (ok, out, err) =
            common::output_of_hnefi_in(&std::env::temp_dir(), &["perft", "2", "--rules", preset]);
        assert!(
            ok && out.contains(&format!("Nodes searched: {leaves}")),
            "{preset}: {out}{err}"
        );
    }
}

#[test]
fn a_perft_hash_counts_the_same_and_one_too_large_is_refused() {
    let dir = std::env::temp_dir();
    for preset in ["brandubh", "copenhagen"] {
        let count = |hash: &str| {
            let (ok, out, err) = common::output_of_hnefi_in(
                &dir,
                &["perft", "4", "--rules", preset, "--hash", hash],
            );
            assert!(ok, "{preset} --hash {hash}: {err}");
            out.lines()
                .find(|l| l.starts_with("Nodes searched:"))
                .unwrap_or_else(|| panic!("{out}"))
                .to_string()
        };
        assert_eq!(count("8"), count("0"), "{preset}");
    }
    let (ok, _, err) =
        common::output_of_hnefi_in(&dir, &["perft", "3", "--hash", "99999999999999"]);
    assert!(
        !ok && err.contains("--hash: cannot allocate a perft hash of 99999999999999 MB"),
        "{err}"
    );
}
