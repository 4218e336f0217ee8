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
