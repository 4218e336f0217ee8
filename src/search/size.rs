//! The board sizes the engine plays, each with what the search needs of it besides the board:
//! its hand evaluation's weights and tables and its built-in network. Everything above the
//! board is generic over a [`Size`] and compiled once per size, so that nothing asks the
//! size at run time; a game's size is chosen once, where a protocol or a tool starts it.

use super::eval::{HandEval, weights};
use super::nnue::QuantisedNetwork;
use crate::board::{Eleven, Geometry, Nine, Rules, Seven, Thirteen};
use std::sync::LazyLock;

pub trait Size: Geometry {
    /// The hand evaluation of this size.
    fn hand() -> &'static HandEval<Self>;
    /// The network built into the binary for this size, if there is one.
    fn embedded_network() -> Option<&'static QuantisedNetwork>;
    /// Whether the built-in network plays under `rules`, or the hand evaluation alone.
    fn network_plays(_rules: &Rules) -> bool {
        true
    }
}

macro_rules! size {
    ($g:ty, $weights:expr, $net:expr $(, $plays:expr)?) => {
        impl Size for $g {
            #[inline(always)]
            fn hand() -> &'static HandEval<$g> {
                static HAND: LazyLock<HandEval<$g>> = LazyLock::new(|| HandEval::new($weights));
                &HAND
            }

            fn embedded_network() -> Option<&'static QuantisedNetwork> {
                $net
            }

            $(
                fn network_plays(rules: &Rules) -> bool {
                    let plays: fn(&Rules) -> bool = $plays;
                    plays(rules)
                }
            )?
        }
    };
}

size!(Seven, weights::SEVEN, {
    static NET: LazyLock<QuantisedNetwork> = LazyLock::new(|| {
        QuantisedNetwork::from_bytes(include_bytes!("nnue/brandubh.nnue"))
            .expect("the embedded net file is valid: a unit test reads it")
    });
    Some(&*NET)
});
// 9x9 and 13x13: the 11x11 weights, until a fit of their own wins (docs/training.md), each
// with its own network. Tablut's network beat the hand evaluation on tablut and sea battle
// and lost on Foteviken Tablut (NET.md), whose attackers keep to their camps: boards with
// camps play the hand evaluation.
size!(
    Nine,
    weights::ELEVEN,
    {
        static NET: LazyLock<QuantisedNetwork> = LazyLock::new(|| {
            QuantisedNetwork::from_bytes(include_bytes!("nnue/tablut.nnue"))
                .expect("the embedded net file is valid: a unit test reads it")
        });
        Some(&*NET)
    },
    |rules| rules.attacker_forts.squares.is_empty()
);
size!(Eleven, weights::ELEVEN, Some(QuantisedNetwork::embedded()));
size!(Thirteen, weights::ELEVEN, {
    static NET: LazyLock<QuantisedNetwork> = LazyLock::new(|| {
        QuantisedNetwork::from_bytes(include_bytes!("nnue/copenhagen13.nnue"))
            .expect("the embedded net file is valid: a unit test reads it")
    });
    Some(&*NET)
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_networks_are_for_their_board_and_its_hand_evaluation() {
        for (net, side) in [
            (Seven::embedded_network(), 7),
            (Nine::embedded_network(), 9),
            (Eleven::embedded_network(), 11),
            (Thirteen::embedded_network(), 13),
        ] {
            let net = net.expect("a built-in network");
            assert_eq!(net.board_side(), Some(side));
            assert!(net.fits_hand_evaluation(), "{side}x{side}");
        }
    }

    #[test]
    fn the_9x9_network_plays_where_it_won() {
        use crate::board::rules::Preset;
        let plays = |p| Nine::network_plays(&Rules::preset(p));
        assert!(plays(Preset::Tablut) && plays(Preset::SeaBattle));
        assert!(!plays(Preset::FotevikenTablut));
        assert!(Eleven::network_plays(&Rules::default()));
    }
}
