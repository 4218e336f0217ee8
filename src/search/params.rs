//! Every tunable number of the search and the evaluation, in one place.
//!
//! Glossary:
//! - cp: centi-pawns, the evaluation's unit; one attacker is worth about 100.
//! - RFP: reverse futility pruning, returning the static eval when it beats beta by a margin.
//! - LMR: late move reductions, searching quiet moves late in the order less deep.
//! - NMP: null move pruning, letting the side to move pass to prove the position is good.
//! - aspiration: a narrow window around the last iteration's score.
//! - corner distance: king moves needed to reach a corner on the current board.

// ---- Evaluation ----
// The evaluation's weights are fitted to game results by `hnefi tune` and live in the
// generated `eval/weights.rs`; only the shape of the blend is set here.

/// Soldiers on the board (attackers and defenders, the king not counted) at which the
/// evaluation uses its opening weights alone; with fewer it blends toward its ending weights.
pub const PHASE_PIECES: i32 = 36;

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
