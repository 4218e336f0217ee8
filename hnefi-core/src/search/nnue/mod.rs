//! An NNUE evaluation: one hidden layer over one-hot piece-square inputs, trained by
//! `hnefi train` (`crate::learn::train`) and run in integers.
//!
//! - Inputs: 3 piece kinds (attacker, defender soldier, king) x the board's squares (363 on
//!   11x11, [`inputs`]), the same for either side to move. A network is for one board size.
//! - One feature transformer: `acc = bias + sum of the rows of the pieces on the board`, kept
//!   up to date move by move by an [`Accumulator`].
//! - Clipped ReLU, then an output layer per side to move (the two sides of tafl play
//!   different games, so one set of weights cannot serve both by flipping the board):
//!   `raw = out_w[stm] . crelu(acc) + out_b[stm]`.
//! - In float, `raw` is the logit of the side to move's chance to win, the unit training
//!   works in; quantised, the output layer holds cp, `raw / scale`, with the logistic scale
//!   of the hand evaluation ([`crate::search::eval::weights::SCALE`]) that the net was
//!   trained with and that its file records.
//!
//! The engine holds only the quantised network ([`QuantisedNetwork`]): what the search runs
//! (UCI `Eval nnue`) and what the file ([`file`](mod@file)) holds. The float network that training
//! moves is the trainer's, `crate::learn::network`.

mod accumulator;
mod embedded;
pub mod file;
mod network;
pub(crate) mod simd;

pub use accumulator::Accumulator;
pub use embedded::{embedded, embedded_for};
pub use file::NnueError;
pub use network::QuantisedNetwork;

use crate::board::{Board, Square};
use crate::board::{Geometry, Piece, SIDES};

/// One-hot inputs on boards of `G`: a piece kind and a square.
pub const fn inputs<G: Geometry>() -> usize {
    3 * G::SQUARES
}

/// The side of the board a network of `inputs` inputs is for, if any.
pub fn board_side(inputs: usize) -> Option<u8> {
    SIDES
        .into_iter()
        .find(|&side| 3 * usize::from(side) * usize::from(side) == inputs)
}

/// Units of the hidden layer.
pub const HIDDEN: usize = 256;

/// The quantised accumulator's 1.0: activations are clipped to `0..=QA`.
pub const QA: i32 = 255;

/// The quantised output weights' cp.
pub const QB: i32 = 64;

/// The largest feature weight or bias, in float: the trainer clips to it and a net file beyond
/// it is refused. At the clip, a full 11x11 board (121 pieces and a bias) keeps an accumulator
/// within `122 * QA = 31,110`, inside `i16`, but a full 13x13 board would not (`170 * QA`):
/// the net file reader also refuses a net that some board of its size could overflow
/// ([`QuantisedNetwork::reach`]). Trained nets stay far below (the built-in ones reach at most
/// 7,755).
pub const FEATURE_CLIP: f32 = 1.0;

// Any net within the clip is safe on boards up to 11x11 without the reader's check.
const _: () = assert!((11 * 11 + 1) * QA <= i16::MAX as i32);

/// The input of `piece` on `sq`.
#[inline(always)]
pub const fn feature<G: Geometry>(piece: Piece, sq: Square<G>) -> usize {
    piece.index() * G::SQUARES + sq.index()
}

/// The active inputs of a board, in a fixed order (attackers, defenders, king).
#[inline(always)]
pub fn active_features<G: Geometry>(board: &Board<G>, mut f: impl FnMut(usize)) {
    board
        .attackers()
        .for_each_square(|sq| f(feature(Piece::Attacker, sq)));
    board
        .defenders()
        .for_each_square(|sq| f(feature(Piece::Defender, sq)));
    f(feature(Piece::King, board.king()));
}

/// The network's view of `board`, for people (UCI `eval`, `hnefi eval`): what it adds to
/// the hand evaluation (a residual net) or says alone, and the evaluation the search takes.
pub fn describe<G: crate::search::size::Size>(
    net: &QuantisedNetwork,
    board: &Board<G>,
    rulebook: &crate::board::Rulebook<G>,
) -> String {
    let acc = Accumulator::refresh(net, board);
    let output = net.evaluate(&acc, board.side_to_move());
    let total = net.evaluate_position(&acc, board, rulebook);
    let kind = if net.is_residual() {
        "correction to the hand evaluation"
    } else {
        "evaluation"
    };
    format!(
        "network {kind}: {output:+} cp for the side to move\n\
         side to move ({}), with the network: {}\n",
        board.side_to_move(),
        total.centipawns()
    )
}

/// Random games for the tests (here and the trainer's): every move with the piece that made it
/// and what it took.
#[doc(hidden)]
pub mod testing {
    use crate::board::{Bitboard, Board, Eleven, MoveList, Piece, Position, Square};
    use crate::splitmix::SplitMix64;

    pub struct Ply {
        pub before: Board<Eleven>,
        pub piece: Piece,
        pub from: Square<Eleven>,
        pub to: Square<Eleven>,
        pub captured: Bitboard<Eleven>,
        pub after: Board<Eleven>,
    }

    /// `games` random games of legal moves from the start, each to its end or `plies`.
    pub fn random_plies(seed: u64, games: usize, plies: usize) -> Vec<Ply> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        let mut list = MoveList::new();
        for _ in 0..games {
            let mut pos = Position::start(crate::board::Rules::default()).unwrap();
            for _ in 0..plies {
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let mv = list[rng.below(list.len())];
                let before = *pos.board();
                let piece = before
                    .piece_at(mv.from())
                    .expect("a legal move moves a piece");
                let captured = pos.play(mv);
                out.push(Ply {
                    before,
                    piece,
                    from: mv.from(),
                    to: mv.to(),
                    captured,
                    after: *pos.board(),
                });
            }
        }
        out
    }
}
