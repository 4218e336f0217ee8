//! Static evaluation: a weighted sum of the features of [`features`], with weights fitted to
//! game results by `hnefi tune` (the weights files that [`weights`] reads). Each feature has an opening and
//! an ending weight, blended by the soldiers left. Computed for the attackers, then turned to
//! the side to move; each group of features can be shown on its own.

pub mod endgame;
pub mod features;
pub mod weights;

use super::params::PHASE_PIECES;
use super::score::Score;
use super::size::Size;
use crate::board::geometry::MAX_SQUARES;
use crate::board::{Bitboard, Board, Rulebook, Square};
use crate::board::{Geometry, Piece, Side};
use features::{
    ATTACKER_SQ, DEFENDER_SQ, FEATURES, FOLDED_SQUARES, GROUPS, Group, KING_SQ, KingRoutes, Sink,
    extract, phase,
};

/// King moves needed to reach an escape square on this board (1 = an open line), capped at 4.
pub fn escape_distance<G: Geometry>(board: &Board<G>, rulebook: &Rulebook<G>) -> usize {
    KingRoutes::of(board, rulebook).distance
}

/// The escape squares the king could enter right now, along an open line.
#[inline(always)]
pub fn open_escape_lines<G: Geometry>(board: &Board<G>, rulebook: &Rulebook<G>) -> Bitboard<G> {
    let terrain = rulebook.terrain();
    if terrain.classic_escape {
        // The king goes anywhere on the classic squares, and escapes to the corners.
        Bitboard::rook_targets(board.king(), board.occupied()) & Bitboard::CORNERS
    } else {
        open_escape_lines_on_terrain(board, rulebook)
    }
}

#[inline(never)]
fn open_escape_lines_on_terrain<G: Geometry>(
    board: &Board<G>,
    rulebook: &Rulebook<G>,
) -> Bitboard<G> {
    let terrain = rulebook.terrain();
    let reach = if terrain.classic_moves {
        Bitboard::rook_targets(board.king(), board.occupied())
    } else {
        terrain.targets(Piece::King, board.king(), board.occupied())
    };
    reach & terrain.escape
}

/// The weights of one board size's hand evaluation, fitted by `hnefi tune` ([`weights::ELEVEN`]
/// for 11x11 and [`weights::SEVEN`] for 7x7; 9x9 and 13x13 play with 11x11's until weights
/// fitted to them win a match).
pub struct HandWeights {
    /// The logistic scale: P(attackers win) = 1 / (1 + exp(-scale * cp)).
    pub scale: f64,
    /// Each feature's opening and ending weight.
    pub weights: &'static [[i16; 2]; FEATURES],
}

/// A board size's hand evaluation, ready to run: its weights, with the square groups'
/// unfolded so that the commonest features cost one lookup a piece.
pub struct HandEval<G: Geometry> {
    /// Its weights.
    pub weights: HandWeights,
    /// The attackers', defenders' and king's opening and ending weights by square.
    squares: [[[i32; 2]; MAX_SQUARES]; 3],
    /// The feature tables of `G`.
    pub features: features::FeatureTables<G>,
    fingerprint: u64,
}

impl<G: Geometry> HandEval<G> {
    /// The opening and ending weights of `piece` on `sq`.
    #[inline(always)]
    fn square(&self, piece: Piece, sq: Square<G>) -> [i32; 2] {
        let group = match piece {
            Piece::Attacker => ATTACKER_SQ,
            Piece::Defender => DEFENDER_SQ,
            Piece::King => KING_SQ,
        };
        self.squares[group.start / FOLDED_SQUARES][sq.index()]
    }

    /// The evaluation of `weights` on boards of `G`.
    pub fn new(weights: HandWeights) -> Self {
        let features = features::FeatureTables::new();
        let mut squares = [[[0; 2]; MAX_SQUARES]; 3];
        for group in [ATTACKER_SQ, DEFENDER_SQ, KING_SQ] {
            for sq in Bitboard::<G>::ALL {
                let [o, e] = weights.weights[group.start + features.fold(sq)];
                squares[group.start / FOLDED_SQUARES][sq.index()] = [o as i32, e as i32];
            }
        }
        // FNV-1a over the scale's bits, then every weight.
        let bytes = weights.scale.to_bits().to_le_bytes().into_iter().chain(
            weights
                .weights
                .iter()
                .flatten()
                .flat_map(|w| w.to_le_bytes()),
        );
        let fingerprint = bytes.fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        HandEval {
            weights,
            squares,
            features,
            fingerprint,
        }
    }
}

/// A fingerprint of a board size's fitted weights and scale. A residual network corrects
/// one hand evaluation and no other, and its net file records the fingerprint of that one.
pub fn fingerprint<G: Size>() -> u64 {
    G::hand().fingerprint
}

/// The fingerprint of the hand evaluation of boards of `side`, if the engine plays them.
pub fn fingerprint_of(side: u8) -> Option<u64> {
    crate::with_size!(side, fingerprint()).ok()
}

/// The opening and ending sums of the pieces' square weights: the part of the hand evaluation
/// a move changes only on its squares, which the search keeps from node to node
/// ([`PieceSquares::after`]) instead of summing every piece at every evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceSquares(pub [i32; 2]);

impl PieceSquares {
    /// The sums of every piece of `board`.
    pub fn of<G: Size>(board: &Board<G>) -> PieceSquares {
        let hand = G::hand();
        let mut sums = [0; 2];
        for (piece, squares) in [
            (Piece::Attacker, board.attackers()),
            (Piece::Defender, board.defenders()),
            (Piece::King, Bitboard::from_square(board.king())),
        ] {
            squares.for_each_square(|sq| {
                let [o, e] = hand.square(piece, sq);
                sums[0] += o;
                sums[1] += e;
            });
        }
        PieceSquares(sums)
    }

    /// The sums after `b`'s side to move moved `piece` from `from` to `to` and captured
    /// `captured`.
    #[inline]
    pub fn after<G: Size>(
        self,
        b: &Board<G>,
        piece: Piece,
        from: Square<G>,
        to: Square<G>,
        captured: Bitboard<G>,
    ) -> PieceSquares {
        let hand = G::hand();
        let [mut o, mut e] = self.0;
        let [fo, fe] = hand.square(piece, from);
        let [to_o, to_e] = hand.square(piece, to);
        o += to_o - fo;
        e += to_e - fe;
        if captured.any() {
            let victim = match b.side_to_move() {
                Side::Attackers => Piece::Defender,
                Side::Defenders => Piece::Attacker,
            };
            captured.for_each_square(|sq| {
                let [co, ce] = hand.square(victim, sq);
                o -= co;
                e -= ce;
            });
        }
        PieceSquares([o, e])
    }
}

/// Opening and ending sums of the weights.
struct Sums<'a, G: Geometry> {
    hand: &'a HandEval<G>,
    opening: i32,
    ending: i32,
    /// The pieces' square weights are already in the sums.
    squares_given: bool,
}

impl<G: Geometry> Sink<G> for Sums<'_, G> {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        let [o, e] = self.hand.weights.weights[feature];
        self.opening += o as i32 * count;
        self.ending += e as i32 * count;
    }

    #[inline(always)]
    fn add_squares(&mut self, group: Group, squares: Bitboard<G>, _: &features::FeatureTables<G>) {
        debug_assert!([ATTACKER_SQ, DEFENDER_SQ, KING_SQ].contains(&group));
        if self.squares_given {
            return;
        }
        let table = &self.hand.squares[group.start / FOLDED_SQUARES];
        squares.for_each_square(|sq| {
            let [o, e] = table[sq.index()];
            self.opening += o;
            self.ending += e;
        });
    }
}

/// Blends opening and ending values by the phase.
#[inline]
fn blend(opening: i32, ending: i32, phase: i32) -> i32 {
    (opening * phase + ending * (PHASE_PIECES - phase)) / PHASE_PIECES
}

/// The evaluation in cp for the attackers (negative favours the defenders).
#[inline]
pub fn attackers_view<G: Size>(board: &Board<G>, rulebook: &Rulebook<G>) -> i32 {
    attackers_view_on(board, rulebook, None)
}

/// [`attackers_view`], the pieces' square weights summed already where `given`.
#[inline]
fn attackers_view_on<G: Size>(
    board: &Board<G>,
    rulebook: &Rulebook<G>,
    given: Option<PieceSquares>,
) -> i32 {
    let hand = G::hand();
    let [opening, ending] = given.map_or([0, 0], |g| g.0);
    let mut sums = Sums {
        hand,
        opening,
        ending,
        squares_given: given.is_some(),
    };
    extract(board, rulebook, &hand.features, &mut sums);
    blend(sums.opening, sums.ending, phase(board))
}

pub use crate::search::params::MAX_EVAL;

/// The evaluation from the side to move's point of view.
#[inline]
pub fn evaluate<G: Size>(board: &Board<G>, rulebook: &Rulebook<G>) -> Score {
    evaluate_on(board, rulebook, None)
}

/// [`evaluate`] with the pieces' square weights of `board` summed already (the search's, kept
/// from node to node): the same score.
#[inline]
pub fn evaluate_given<G: Size>(
    board: &Board<G>,
    rulebook: &Rulebook<G>,
    squares: PieceSquares,
) -> Score {
    debug_assert_eq!(squares, PieceSquares::of(board), "{board:?}");
    evaluate_on(board, rulebook, Some(squares))
}

#[inline]
fn evaluate_on<G: Size>(
    board: &Board<G>,
    rulebook: &Rulebook<G>,
    given: Option<PieceSquares>,
) -> Score {
    let v = attackers_view_on(board, rulebook, given).clamp(-MAX_EVAL, MAX_EVAL);
    match board.side_to_move() {
        Side::Attackers => Score(v),
        Side::Defenders => Score(-v),
    }
}

/// Each group's part of the evaluation, cp for the attackers, in the order of [`GROUPS`].
pub fn terms<G: Size>(board: &Board<G>, rulebook: &Rulebook<G>) -> Vec<(&'static str, i32)> {
    struct PerFeature(Vec<[i32; 2]>, &'static [[i16; 2]; FEATURES]);
    impl<G: Geometry> Sink<G> for PerFeature {
        fn add(&mut self, feature: usize, count: i32) {
            let [o, e] = self.1[feature];
            self.0[feature][0] += o as i32 * count;
            self.0[feature][1] += e as i32 * count;
        }
    }
    let hand = G::hand();
    let mut per = PerFeature(vec![[0; 2]; FEATURES], hand.weights.weights);
    extract(board, rulebook, &hand.features, &mut per);
    let phase = phase(board);
    GROUPS
        .iter()
        .map(|g| {
            let [o, e] = per.0[g.start..g.start + g.len]
                .iter()
                .fold([0, 0], |[a, b], [o, e]| [a + o, b + e]);
            (g.name, blend(o, e, phase))
        })
        .collect()
}

/// A table of the terms, for people: one line per group, the attackers' view.
pub fn breakdown<G: Size>(board: &Board<G>, rulebook: &Rulebook<G>) -> String {
    let mut out = String::from("term               attackers' view (cp)\n");
    for (name, v) in terms(board, rulebook) {
        out.push_str(&format!("{name:<18} {v:>+6}\n"));
    }
    out.push_str(&format!(
        "{:<18} {:>+6}   (groups rounded apart)\n",
        "total",
        attackers_view(board, rulebook)
    ));
    out.push_str(&format!(
        "side to move ({}): {}\n",
        board.side_to_move(),
        evaluate(board, rulebook).centipawns()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Eleven;
    use crate::board::notation::parse_fen;

    /// The constant-corner path of classic-escape boards (11x11's hot path) evaluates as the
    /// general path over the terrain, on random games of each size that takes it.
    #[test]
    fn the_classic_escape_path_evaluates_as_the_general_one() {
        use crate::board::rules::Preset;
        use crate::board::walk::random_boards;
        use crate::board::{Seven, Thirteen};
        fn check<G: Size>(preset: Preset, seed: u64) {
            random_boards::<G>(preset, seed, 20, 80, |board, fast| {
                assert!(fast.terrain().classic_escape, "{preset}");
                let general = fast.without_fast_paths();
                assert_eq!(
                    attackers_view(board, fast),
                    attackers_view(board, &general),
                    "{preset}"
                );
                assert_eq!(
                    open_escape_lines(board, fast),
                    open_escape_lines(board, &general)
                );
            });
        }
        check::<Seven>(Preset::Brandubh, 7);
        check::<Eleven>(Preset::Copenhagen, 11);
        check::<Thirteen>(Preset::Copenhagen13, 13);
    }

    #[test]
    fn start_is_symmetric_and_balanced() {
        let b = Board::start();
        let rules = Rulebook::default();
        assert_eq!(escape_distance(&b, &rules), 4);
        assert!(open_escape_lines(&b, &rules).is_empty());
        let s = evaluate(&b, &rules).0;
        assert!(s.abs() < 400, "{s}");
        assert!(breakdown(&b, &rules).contains("corner patterns"));
    }

    #[test]
    fn boards_packed_with_pieces_stay_far_from_decisive_scores() {
        let rules = Rulebook::default();
        for fen in [
            "1dddddddddk/ddddddddddd/ddddddddddd/ddddddddddd/ddddddddddd/ddddd1ddddd/\
             ddddddddddd/ddddddddddd/ddddddddddd/ddddddddddd/1dddddddd2 d",
            "1aaaaaaaaa1/aaaaaaaaaaa/aaaaaaaaaaa/aaaaaaaaaaa/aaaaaaaaaaa/aaaaa1aaaaa/\
             aaaaaaaaaaa/aaaaaaaaaaa/aaaaaaaaaaa/aaaaaaaaaaa/1aaaaaaaa1k a",
            "1dddddddddk/d1d1d1d1d1d/11/d1d1d1d1d1d/11/d1d1d1d1d1d/11/d1d1d1d1d1d/11/\
             d1d1d1d1d1d/1ddddddddd1 d",
        ] {
            let b = parse_fen(fen).unwrap();
            let s = evaluate(&b, &rules);
            assert!(s.0.abs() <= MAX_EVAL && !s.is_decisive(), "{fen}: {s}");
        }
    }

    #[test]
    fn an_open_line_is_bad_for_the_attackers() {
        let rules = Rulebook::default();
        // The king on c1 sees a1 past an empty b1, or an attacker stands on b1.
        let open = parse_fen("11/11/11/11/11/4a6/11/11/11/5a5/2k2a5 a").unwrap();
        let shut = parse_fen("11/11/11/11/11/11/11/11/11/5a5/1ak2a5 a").unwrap();
        assert_eq!(escape_distance(&open, &rules), 1);
        assert_eq!(open_escape_lines(&open, &rules).count(), 1);
        assert!(attackers_view(&open, &rules) < attackers_view(&shut, &rules));
    }

    #[test]
    fn the_square_tables_sum_what_the_features_say() {
        // Every feature through `add`, none through the unfolded square tables.
        struct Plain(Sums<'static, Eleven>);
        impl Sink<Eleven> for Plain {
            fn add(&mut self, feature: usize, count: i32) {
                self.0.add(feature, count);
            }
        }
        let rules = Rulebook::default();
        for fen in [
            crate::board::START_FEN,
            "3a3a3/2aa4a2/1a5d1a1/a2d1ad1da1/2d1d4da/8da1/5k2a2/aa1d4aa1/1a2d2d1a1/2a3d1a2/3a3a3 a",
            "11/11/11/11/11/4a6/5k5/11/4d6/4a6/11 d",
        ] {
            let b = parse_fen(fen).unwrap();
            let hand = Eleven::hand();
            let mut plain = Plain(Sums {
                hand,
                opening: 0,
                ending: 0,
                squares_given: false,
            });
            extract(&b, &rules, &hand.features, &mut plain);
            let expected = blend(plain.0.opening, plain.0.ending, phase(&b));
            assert_eq!(attackers_view(&b, &rules), expected, "{fen}");
        }
    }

    #[test]
    fn piece_squares_kept_move_by_move_are_the_sums_afresh() {
        use crate::board::MoveList;
        use crate::splitmix::SplitMix64;
        let rules = Rulebook::default();
        let mut rng = SplitMix64::new(5);
        for _ in 0..20 {
            let mut board = Board::<Eleven>::start();
            let mut kept = PieceSquares::of(&board);
            for _ in 0..200 {
                let mut list = MoveList::new();
                board.generate_moves(&rules, &mut list);
                if list.is_empty() || rules.mover_win_landing(&board, None).is_some() {
                    break;
                }
                let mv = list[rng.below(list.len())];
                let piece = board.piece_at(mv.from()).unwrap();
                let before = board;
                let captured = board.play(mv, &rules);
                kept = kept.after(&before, piece, mv.from(), mv.to(), captured);
                assert_eq!(kept, PieceSquares::of(&board), "{board:?}");
                assert_eq!(
                    evaluate_given(&board, &rules, kept),
                    evaluate(&board, &rules),
                    "{board:?}"
                );
            }
        }
    }

    #[test]
    fn mirrored_positions_evaluate_the_same() {
        let rules = Rulebook::default();
        let b =
            parse_fen("3aaaaa3/5a5/3d7/a4d4a/a3d1d3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 d")
                .unwrap();
        let m =
            parse_fen("3aaaaa3/5a5/7d3/a4d4a/a3d1d3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 d")
                .unwrap();
        assert_eq!(attackers_view(&b, &rules), attackers_view(&m, &rules));
    }
}
