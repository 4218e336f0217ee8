//! Every tunable number of the search and the evaluation, in one place.
//!
//! Glossary:
//! - cp: centi-pawns, the evaluation's unit; one attacker is worth about 100.
//! - RFP: reverse futility pruning, returning the static eval when it beats beta by a margin.
//! - LMR: late move reductions, searching quiet moves late in the order less deep.
//! - NMP: null move pruning, letting the side to move pass to prove the position is good.
//! - aspiration: a narrow window around the last iteration's score.
//! - corner distance: king moves needed to reach a corner on the current board.

// ---- Evaluation (cp, positive for the side named) ----

/// Value of an attacker and of a defender (the defenders have half as many, each worth more).
pub const ATTACKER_VALUE: i32 = 100;
pub const DEFENDER_VALUE: i32 = 175;
/// For the defenders, by how many king moves a corner is away: index 1 = an open line.
pub const CORNER_DISTANCE_BONUS: [i32; 5] = [0, 900, 220, 70, 0];
/// For the defenders, per legal king move.
pub const KING_FREEDOM: i32 = 4;
/// For the defenders, per board edge the king can reach in one move (edge control: from the
/// edge he threatens corners, and attackers must guard both ends).
pub const KING_EDGE_ACCESS: i32 = 35;
/// For the defenders, per square of the edge their pieces can reach without crossing attackers.
pub const OPEN_EDGE: i32 = 3;
/// For the attackers, when the defenders cannot reach the edge at all but are not yet
/// fully encircled (a closed ring with defenders left inside).
pub const RING_CLOSED: i32 = 400;
/// For the attackers, per attacker on a corner guard square (b3, c2 and their mirrors).
pub const CORNER_GUARD: i32 = 25;
/// For the attackers, per attacker next to the king.
pub const KING_PRESSURE: i32 = 18;
/// Per legal move, for each side.
pub const MOBILITY: i32 = 1;
/// For the side to move.
pub const TEMPO: i32 = 10;

// ---- Search ----

/// Half-width of the aspiration window, and how it grows on a fail.
pub const ASPIRATION_WINDOW: i32 = 40;
pub const RFP_MAX_DEPTH: i32 = 4;
pub const RFP_MARGIN: i32 = 90;
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;
pub const LMR_MIN_DEPTH: i32 = 3;
/// Moves searched at full depth before reductions start.
pub const LMR_FULL_MOVES: usize = 3;
/// Reduction = LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR.
pub const LMR_BASE: f64 = 0.5;
pub const LMR_DIVISOR: f64 = 2.25;
/// Quiescence plies beyond the horizon.
pub const QSEARCH_MAX_PLY: u32 = 8;
/// Deepest ply the search stack holds.
pub const MAX_PLY: usize = 128;
/// History bonus cap.
pub const HISTORY_MAX: i32 = 16_384;
/// How much a position repeated inside the search is worth to the side the repetition rule
/// favours (a real third occurrence is a win or loss; a second one only points that way).
pub const REPETITION_SCORE: i32 = 600;
