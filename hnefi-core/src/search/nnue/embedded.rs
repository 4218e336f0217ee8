//! The nets built into the binary: one table, one row a board size, and one way to read
//! them, so that a size without a row plays the hand evaluation and a file in the wrong row
//! fails a unit test instead of playing another board's net.

use super::{NnueError, QuantisedNetwork};
use crate::board::{Geometry, Rules};
use std::sync::OnceLock;

/// A net built into the binary: its file in `hnefi-core/src/search/nnue/`, made by the recipe in NET.md.
pub struct Embedded {
    /// The side of the board it is for.
    pub side: u8,
    pub file: &'static str,
    bytes: &'static [u8],
    /// Whether it plays under these rules; where it does not, the hand evaluation plays.
    pub plays: fn(&Rules) -> bool,
}

impl Embedded {
    /// The network, refused unless it is a net of this row's board.
    pub fn read(&self) -> Result<QuantisedNetwork, NnueError> {
        QuantisedNetwork::from_bytes_for(self.bytes, self.side)
    }
}

macro_rules! embedded {
    ([] $($name:ident $hand:ident [$($file:literal => $plays:expr),* $(,)?]),* $(,)?) => {
        /// Rows of [`EMBEDDED`].
        const ROWS: usize = [$($($file,)*)*].len();

        /// The nets built into the binary, the networks of the size table's rows in order.
        // A static, not a const: a const indexed at run time is copied onto the stack at each
        // use.
        pub static EMBEDDED: [Embedded; ROWS] = [$($(
            Embedded {
                side: <crate::board::$name as Geometry>::SIDE,
                file: $file,
                bytes: include_bytes!($file),
                plays: $plays,
            },
        )*)*];
    };
}

crate::search::size::engine_table!([embedded]);

/// The network of row `i`, read once.
fn network(i: usize) -> &'static QuantisedNetwork {
    static NETS: [OnceLock<QuantisedNetwork>; ROWS] = [const { OnceLock::new() }; ROWS];
    NETS[i].get_or_init(|| {
        EMBEDDED[i]
            .read()
            .unwrap_or_else(|e| panic!("built-in net {}: {e}", EMBEDDED[i].file))
    })
}

/// The first network built into the binary for boards of `G` (the one for their commonest
/// rules), if there is one.
pub fn embedded<G: Geometry>() -> Option<&'static QuantisedNetwork> {
    EMBEDDED.iter().position(|e| e.side == G::SIDE).map(network)
}

/// The network built into the binary for boards of `G` under `rules`, if one plays them;
/// else the hand evaluation plays.
// Out of line: inlined, it grew the frame the search thread starts from by 16 bytes, which
// misaligned the search's stack copies (cachegrind: +1.5 M instructions in memcpy on `bench 4`).
#[inline(never)]
pub fn embedded_for<G: Geometry>(rules: &Rules) -> Option<&'static QuantisedNetwork> {
    EMBEDDED
        .iter()
        .position(|e| e.side == G::SIDE && (e.plays)(rules))
        .map(network)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::Preset;
    use crate::board::{Eleven, Nine};
    use crate::search::size::Size;

    #[test]
    fn every_board_size_has_built_in_networks_for_it_and_its_hand_evaluation() {
        fn check<G: Size>() {
            let first = embedded::<G>().expect("a built-in network");
            assert!(std::ptr::eq(first, embedded::<G>().unwrap()), "read once");
            for i in (0..ROWS).filter(|&i| EMBEDDED[i].side == G::SIDE) {
                let net = network(i);
                assert_eq!(net.board_side(), Some(G::SIDE), "{}", EMBEDDED[i].file);
                assert!(
                    net.fits_hand_evaluation(),
                    "the {} hand evaluation was refitted: train {} again \
                     (hnefi-core/src/search/nnue/NET.md)",
                    G::NAME,
                    EMBEDDED[i].file
                );
            }
        }
        for side in crate::board::SIDES {
            crate::with_size!(side, check()).unwrap();
        }
        let mut sides: Vec<u8> = EMBEDDED.iter().map(|e| e.side).collect();
        sides.dedup();
        assert_eq!(sides, crate::board::SIDES);
    }

    #[test]
    fn the_loader_refuses_a_net_of_another_board_or_shape() {
        for row in &EMBEDDED {
            for other in EMBEDDED.iter().filter(|o| o.side != row.side) {
                let wrong = Embedded {
                    bytes: other.bytes,
                    ..*row
                };
                let err = wrong.read().unwrap_err();
                assert!(
                    matches!(err, NnueError::Board { side, inputs }
                        if side == row.side && inputs == 3 * usize::from(other.side).pow(2)),
                    "{} read for {}x{}: {err}",
                    other.file,
                    row.side,
                    row.side
                );
                assert!(err.to_string().contains(&format!("{0}x{0}", row.side)));
            }
            // Hidden units at 128: a net of another shape.
            let mut bytes = row.bytes.to_vec();
            bytes[16..20].copy_from_slice(&128u32.to_le_bytes());
            assert!(matches!(
                QuantisedNetwork::from_bytes_for(&bytes, row.side),
                Err(NnueError::Shape { hidden: 128, .. })
            ));
        }
    }

    #[test]
    fn each_9x9_network_plays_where_it_won() {
        let plays = |preset, file: &str| {
            let i = EMBEDDED.iter().position(|e| e.file == file).unwrap();
            embedded_for::<Nine>(&Rules::preset(preset))
                .is_some_and(|n| std::ptr::eq(n, network(i)))
        };
        assert!(plays(Preset::Tablut, "tablut.nnue"));
        assert!(plays(Preset::SeaBattle, "tablut.nnue"));
        assert!(plays(Preset::FotevikenTablut, "foteviken.nnue"));
        assert!(embedded_for::<Eleven>(&Rules::default()).is_some());
    }
}
