//! The hidden layer's pre-activations of a board, kept up to date move by move.

use super::simd::{self, Kernels};
use super::{HIDDEN, QuantisedNetwork, active_features, feature};
use crate::board::{Bitboard, Board, Square};
use crate::board::{Geometry, Piece};

/// The feature transformer's output for one board: the hidden bias plus the rows of its
/// pieces, on the grid `1/QA`. Never overflows for a network read from a net file, on any
/// board of its size: the reader refuses one whose [`QuantisedNetwork::reach`] leaves `i16`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: [i16; HIDDEN],
}

impl Accumulator {
    /// The accumulator of `board`, computed from scratch.
    pub fn refresh<G: Geometry>(net: &QuantisedNetwork, board: &Board<G>) -> Accumulator {
        Accumulator::refresh_with(Kernels::detected(), net, board)
    }

    /// The accumulator of `board`, computed afresh with kernels `k`.
    pub fn refresh_with<G: Geometry>(
        k: Kernels,
        net: &QuantisedNetwork,
        board: &Board<G>,
    ) -> Accumulator {
        let mut acc = Accumulator {
            values: net.feature_bias,
        };
        active_features(board, |f| {
            simd::add(k, &mut acc.values, &net.feature_weights[f])
        });
        acc
    }

    /// The accumulator of a board given by its active inputs (as the trainer keeps them).
    pub fn from_features(net: &QuantisedNetwork, features: &[u16]) -> Accumulator {
        let k = Kernels::detected();
        let mut acc = Accumulator {
            values: net.feature_bias,
        };
        for &f in features {
            simd::add(k, &mut acc.values, &net.feature_weights[f as usize]);
        }
        acc
    }

    /// The hidden units' sums.
    pub fn values(&self) -> &[i16; HIDDEN] {
        &self.values
    }

    /// Becomes the accumulator of `parent`'s board after a move: `piece` went from `from` to
    /// `to` and took the pieces on `captured` (what `Board::play` returns), which are the
    /// other side's soldiers. The move is read and written in one pass over the rows.
    #[inline]
    pub fn set_child<G: Geometry>(
        &mut self,
        parent: &Accumulator,
        net: &QuantisedNetwork,
        piece: Piece,
        from: Square<G>,
        to: Square<G>,
        captured: Bitboard<G>,
    ) {
        self.set_child_with(Kernels::detected(), parent, net, piece, from, to, captured);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    /// This accumulator as the child of `parent` after `piece` moved from `from` to `to`
    /// capturing `captured`, with kernels `k`.
    pub fn set_child_with<G: Geometry>(
        &mut self,
        k: Kernels,
        parent: &Accumulator,
        net: &QuantisedNetwork,
        piece: Piece,
        from: Square<G>,
        to: Square<G>,
        captured: Bitboard<G>,
    ) {
        let gone = &net.feature_weights[feature(piece, from)];
        let come = &net.feature_weights[feature(piece, to)];
        simd::add_sub(k, &mut self.values, &parent.values, come, gone);
        let victim = match piece {
            Piece::Attacker => Piece::Defender,
            Piece::Defender | Piece::King => Piece::Attacker,
        };
        captured.for_each_square(|sq| {
            simd::sub(
                k,
                &mut self.values,
                &net.feature_weights[feature(victim, sq)],
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::nnue::testing::random_plies;

    #[test]
    fn updates_equal_a_refresh_after_every_move() {
        updates_equal_a_refresh(QuantisedNetwork::random(3, 363));
    }

    #[test]
    fn updates_equal_a_refresh_in_a_residual_net() {
        let mut net = QuantisedNetwork::random(4, 363);
        net.residual = true;
        updates_equal_a_refresh(net);
    }

    fn updates_equal_a_refresh(net: QuantisedNetwork) {
        let plies = random_plies(11, 12, 250);
        let mut captures = 0;
        for k in Kernels::available() {
            let mut acc = Accumulator::refresh_with(k, &net, &plies[0].before);
            for ply in &plies {
                // Each game starts afresh.
                if ply.before == crate::board::Board::start() {
                    acc = Accumulator::refresh_with(k, &net, &ply.before);
                }
                let parent = acc.clone();
                acc.set_child_with(k, &parent, &net, ply.piece, ply.from, ply.to, ply.captured);
                captures += ply.captured.count();
                let fresh = Accumulator::refresh_with(Kernels::Portable, &net, &ply.after);
                assert_eq!(acc, fresh, "{k:?} {:?}", ply.after);
            }
        }
        assert!(
            captures > 50,
            "only {captures} captures: the test must see them"
        );
    }
}
