//! Every tunable number of the search and the evaluation, in one place.
//!
//! Glossary:
//! - cp: centi-pawns, the evaluation's unit; one attacker is worth about 100.
//! - RFP: reverse futility pruning, returning the static eval when it beats beta by a margin.
//! - LMR: late move reductions, searching quiet moves late in the order less deep.
//! - LMP: late move pruning, not searching quiet moves late in the order near the horizon.
//! - futility pruning: not searching quiet moves near the horizon when the static eval is so
//!   far below alpha that a quiet move will not bring it back.
//! - NMP: null move pruning, letting the side to move pass to prove the position is good.
//! - aspiration: a narrow window around the last iteration's score, widened on each fail
//!   until it gives up and searches the full window.
//! - history: a score per move and side, raised when the move causes a cutoff and lowered
//!   when it was tried before one; quiet moves are ordered by it.
//! - moves to go: the moves a clock is planned to last for when the host does not say.
//! - soft limit: the time after which no new iteration starts; hard limit: the time at
//!   which the search stops wherever it is. Both are multiples of the share of the clock
//!   planned for one move.
//! - corner distance: king moves needed to reach a corner on the current board.
//! - swing: an attackers' move that opens a shut ring (the defenders reached no door before it
//!   and reach one after), made while ahead by more than `swing_cp` and costing them more than
//!   that of static eval at once: the squeeze switching off as a guard leaves its door to
//!   capture, which one quiet move may undo. The two nodes after it are not pruned on their
//!   static eval.
//! - policy: the move policy learned from deep searches (`search::policy`), whose logit of a
//!   move says how likely a deep search is to play it; quiet moves are ordered by it beside
//!   their history, at nodes deep enough to pay for its rows.
//! - lone king: the king with no defender soldier left, and the king's room, the squares he
//!   reaches step by step past no attacker (`eval::endgame`).
//! - squeeze: the hand evaluation's term for the room the defenders lose while every corner
//!   is sealed (`eval::features`).
//! - level: the `Skill Level`, 0 to 20; below 20 a search stops at a node budget and its move
//!   is drawn from the best lines within a margin (`skill`).
//! - breadcrumbs: marks the threads of a parallel search leave near the root on the
//!   positions they are searching, so that the others start elsewhere.
//! - danger: an attackers' node where the king is near escape, searched out where pruning
//!   would otherwise cut it.
//! - glance: how the weakest levels choose some of their moves: a noisy look at each move's
//!   static evaluation instead of the search's lines.

use std::time::Duration;

// ---- Evaluation ----
// The evaluation's weights are fitted to game results by `hnefi tune` and live in the
// weights files `eval/*.weights`; only the shape of the blend is set here.

/// Soldiers on the board (attackers and defenders, the king not counted) at which the
/// evaluation uses its opening weights alone; with fewer it blends toward its ending weights.
pub const PHASE_PIECES: i32 = 36;

/// In the squeeze of sealed corners, each edge square the defenders cannot reach counts as
/// this many squares more than another: where the edge is a way out (an exit fort) and a ring
/// that cuts them off from it wins (encirclement), the steps that cut them off from the edge
/// are the steps to the end. Without it the attackers' shallow search saw no more in them than
/// in any other square of room, and a deep defense left their rings by an edge fort (issue 46).
pub const SQUEEZE_EDGE_SQUARES: i32 = 3;

/// The largest fitted evaluation, the hand one's or the network's (the search adds the lone
/// king's ending on top, up to [`LONE_KING_MAX`]). The weights were fitted on boards with at
/// most the start's pieces; a composed board packed with pieces can sum to more (a board of
/// defenders alone comes to about -21,500), and must never reach the decisive scores nor, with
/// the search's margins added, leave the 16 bits the table stores.
pub const MAX_EVAL: i32 = 20_000;

/// Past [`MAX_EVAL`], the lone king's ending adds its room divided by this (a half): the
/// attackers still see each square they take from him, and the sum stays below
/// [`LONE_KING_MAX`].
pub const LONE_KING_BEYOND_DIVISOR: i32 = 2;

/// The lone king (no defender soldier left) is squeezed like a sealed ring once he is at least
/// this many king moves from a corner: nearer, his race to the corner is the position.
pub const LONE_KING_SQUEEZE_DISTANCE: usize = 3;

/// The most the lone king's ending scores: clear of the decisive scores (`Score::is_decisive`,
/// from 29,000), with room for the search's margins.
pub const LONE_KING_MAX: i32 = 27_000;

// ---- Search ----

/// The transposition table's size (MiB) unless the host sets `Hash`.
pub const DEFAULT_HASH_MB: usize = 16;

/// The time kept back from each move for the host's lag unless it sets `Move Overhead`.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// Plies from the root where threads leave marks (breadcrumbs) on the positions they search,
/// so that the others search elsewhere first.
pub const BREADCRUMB_PLIES: u32 = 8;

/// King moves from escape (the king's distance to a corner, or an edge with exit forts) at
/// which the attackers' node is in danger: it is searched out where pruning would otherwise
/// cut it.
pub const DANGER_ESCAPE_DISTANCE: usize = 2;

/// Deepest ply the search stack holds.
pub const MAX_PLY: usize = 128;

/// The search's tunable numbers. They can be set at run time (as UCI options named as in
/// [`TUNABLES`]) so that a tuner can play versions against each other without rebuilding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Half-width of the aspiration window, and how much it grows on a fail (cp).
    pub aspiration_window: i32,
    /// Aspiration: the shallowest depth searched with a window, where the score before is
    /// steady enough to centre one on.
    pub aspiration_min_depth: i32,
    /// Aspiration: on each fail the window grows by this share of itself (percent) plus
    /// `aspiration_growth_cp`.
    pub aspiration_growth: i32,
    /// Aspiration: the fixed part of the growth (cp).
    pub aspiration_growth_cp: i32,
    /// Aspiration: past this half-width (cp) the window gives up for the full one.
    pub aspiration_give_up: i32,
    /// RFP: deepest remaining depth where it applies, and its margin per ply (cp).
    pub rfp_max_depth: i32,
    /// RFP: its margin per ply of remaining depth (cp).
    pub rfp_margin: i32,
    /// LMP: deepest remaining depth where it applies (0: never), and the moves searched before
    /// it prunes quiet ones: `base + per_depth_squared * depth^2` (12, 24, 44 at depths 1-3,
    /// of the 60-100 moves a tafl position has).
    pub lmp_max_depth: i32,
    /// LMP: the moves searched at any depth before it prunes.
    pub lmp_base: i32,
    /// LMP: the moves added per depth squared.
    pub lmp_per_depth_squared: i32,
    /// Futility pruning: deepest remaining depth where it applies (0: never), and its margin
    /// per ply (cp).
    pub futility_max_depth: i32,
    /// Futility pruning: its margin per ply (cp).
    pub futility_margin: i32,
    /// NMP: shallowest depth, and the reduction `base + depth / divisor`.
    pub nmp_min_depth: i32,
    /// NMP: the fixed part of the reduction.
    pub nmp_base_reduction: i32,
    /// NMP: the depth that adds a ply of reduction.
    pub nmp_depth_divisor: i32,
    /// LMR: shallowest depth, and moves searched at full depth before reductions start.
    pub lmr_min_depth: i32,
    /// LMR: moves searched at full depth before reductions start.
    pub lmr_full_moves: i32,
    /// LMR: reduction = base + ln(depth) * ln(move number) / divisor, both in hundredths.
    pub lmr_base: i32,
    /// LMR: the divisor of the logarithms' product, in hundredths.
    pub lmr_divisor: i32,
    /// Quiescence plies beyond the horizon.
    pub qsearch_max_ply: i32,
    /// History bonus cap.
    pub history_max: i32,
    /// The most a cutoff adds to a move's history (the bonus is depth squared, up to this).
    pub history_bonus_max: i32,
    /// Moves of a node picked one at a time, best first, before the rest are sorted at once:
    /// most cutoffs come early, where a full sort would be wasted.
    pub sort_after: i32,
    /// What a position repeated inside the search is worth to the side the repetition rule
    /// favours (a real third occurrence is a win or loss; a second one only points that way).
    pub repetition_score: i32,
    /// The swing of the glossary, in cp (0: off). After one, the reply is not cut by RFP or
    /// null move, and at the attackers' next node the move back is tried first and never
    /// pruned. Only the attackers' own searches look for swings: in the defenders' it cost
    /// them games (docs/history/strength-log.md, issue 46).
    pub swing_cp: i32,
    /// Policy: history points a quiet move's score gains per nat of its policy logit; 0 runs
    /// no policy, the default until a policy wins its match (measured at 2000).
    pub policy_order: i32,
    /// Policy: the shallowest remaining depth whose nodes compute it (the root always does).
    pub policy_min_depth: i32,
    /// The lone king's ending, added to the evaluation (`eval::endgame::lone_king`): cp for
    /// the attackers per square of the board outside the king's room, and per move he lacks.
    pub lone_king_room: i32,
    /// The lone king's ending: cp for the attackers per move the king lacks.
    pub lone_king_move: i32,
    /// The most defender soldiers the king may have left and still count as alone in the
    /// lone king's ending.
    pub lone_king_soldiers: i32,
    /// Time: the moves the clock is planned for when the host gives no `movestogo`. Tafl
    /// games last about 40-60 moves a side, and the middle of the game deserves the most.
    pub moves_to_go: i32,
    /// Time: the share of the increment added to a move's share of the clock (percent).
    pub increment_share: i32,
    /// Time: the soft and hard limits as multiples of a move's share (percent).
    pub soft_factor: i32,
    /// Time: the hard limit as a multiple of a move's share (percent).
    pub hard_factor: i32,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        // RfpMaxDepth, RfpMargin, LmrBase, LmrDivisor, HistoryMax and RepetitionScore as
        // SPSA left them (250 iterations of 8 pairs at 10,000 nodes; docs/tuning.md, the
        // search's parameters by SPSA); the others stayed within half a step of these.
        SearchParams {
            aspiration_window: 40,
            aspiration_min_depth: 4,
            aspiration_growth: 50,
            aspiration_growth_cp: 10,
            aspiration_give_up: 1000,
            rfp_max_depth: 5,
            rfp_margin: 61,
            lmp_max_depth: 3,
            lmp_base: 8,
            lmp_per_depth_squared: 4,
            futility_max_depth: 2,
            futility_margin: 150,
            nmp_min_depth: 3,
            nmp_base_reduction: 3,
            nmp_depth_divisor: 4,
            lmr_min_depth: 3,
            lmr_full_moves: 3,
            lmr_base: 52,
            lmr_divisor: 214,
            qsearch_max_ply: 8,
            history_max: 16_711,
            history_bonus_max: 400,
            sort_after: 4,
            repetition_score: 558,
            swing_cp: 2000,
            policy_order: 0,
            policy_min_depth: 3,
            lone_king_room: 100,
            lone_king_move: 100,
            lone_king_soldiers: 1,
            moves_to_go: 30,
            increment_share: 75,
            soft_factor: 100,
            hard_factor: 300,
        }
    }
}

/// One run-time setting of [`SearchParams`]: its option name, its range, and its field.
pub struct Tunable {
    /// Its option name.
    pub name: &'static str,
    /// The least value.
    pub min: i32,
    /// The greatest value.
    pub max: i32,
    /// The field it sets.
    pub field: fn(&mut SearchParams) -> &mut i32,
}

/// Every search parameter that can be set at run time, by name.
pub const TUNABLES: [Tunable; 34] = [
    Tunable {
        name: "AspirationWindow",
        min: 5,
        max: 500,
        field: |p| &mut p.aspiration_window,
    },
    Tunable {
        name: "AspirationMinDepth",
        min: 1,
        max: 64,
        field: |p| &mut p.aspiration_min_depth,
    },
    Tunable {
        name: "AspirationGrowth",
        min: 0,
        max: 400,
        field: |p| &mut p.aspiration_growth,
    },
    Tunable {
        name: "AspirationGrowthCp",
        min: 1,
        max: 500,
        field: |p| &mut p.aspiration_growth_cp,
    },
    Tunable {
        name: "AspirationGiveUp",
        min: 10,
        max: 10_000,
        field: |p| &mut p.aspiration_give_up,
    },
    Tunable {
        name: "RfpMaxDepth",
        min: 0,
        max: 12,
        field: |p| &mut p.rfp_max_depth,
    },
    Tunable {
        name: "RfpMargin",
        min: 10,
        max: 1000,
        field: |p| &mut p.rfp_margin,
    },
    Tunable {
        name: "LmpMaxDepth",
        min: 0,
        max: 12,
        field: |p| &mut p.lmp_max_depth,
    },
    Tunable {
        name: "LmpBase",
        min: 1,
        max: 200,
        field: |p| &mut p.lmp_base,
    },
    Tunable {
        name: "LmpPerDepthSquared",
        min: 0,
        max: 100,
        field: |p| &mut p.lmp_per_depth_squared,
    },
    Tunable {
        name: "FutilityMaxDepth",
        min: 0,
        max: 12,
        field: |p| &mut p.futility_max_depth,
    },
    Tunable {
        name: "FutilityMargin",
        min: 10,
        max: 2000,
        field: |p| &mut p.futility_margin,
    },
    Tunable {
        name: "NmpMinDepth",
        min: 1,
        max: 20,
        field: |p| &mut p.nmp_min_depth,
    },
    Tunable {
        name: "NmpBaseReduction",
        min: 1,
        max: 10,
        field: |p| &mut p.nmp_base_reduction,
    },
    Tunable {
        name: "NmpDepthDivisor",
        min: 1,
        max: 20,
        field: |p| &mut p.nmp_depth_divisor,
    },
    Tunable {
        name: "LmrMinDepth",
        min: 1,
        max: 20,
        field: |p| &mut p.lmr_min_depth,
    },
    Tunable {
        name: "LmrFullMoves",
        min: 1,
        max: 60,
        field: |p| &mut p.lmr_full_moves,
    },
    Tunable {
        name: "LmrBase",
        min: -200,
        max: 300,
        field: |p| &mut p.lmr_base,
    },
    Tunable {
        name: "LmrDivisor",
        min: 50,
        max: 1000,
        field: |p| &mut p.lmr_divisor,
    },
    Tunable {
        name: "QsearchMaxPly",
        min: 0,
        max: 32,
        field: |p| &mut p.qsearch_max_ply,
    },
    Tunable {
        name: "HistoryMax",
        min: 256,
        max: 1 << 20,
        field: |p| &mut p.history_max,
    },
    Tunable {
        name: "HistoryBonusMax",
        min: 1,
        max: 1000,
        field: |p| &mut p.history_bonus_max,
    },
    Tunable {
        name: "SortAfter",
        min: 1,
        max: 256,
        field: |p| &mut p.sort_after,
    },
    Tunable {
        name: "RepetitionScore",
        min: 0,
        max: 5000,
        field: |p| &mut p.repetition_score,
    },
    Tunable {
        name: "LoneKingRoom",
        min: 0,
        max: 1000,
        field: |p| &mut p.lone_king_room,
    },
    Tunable {
        name: "LoneKingMove",
        min: 0,
        max: 1000,
        field: |p| &mut p.lone_king_move,
    },
    Tunable {
        name: "SwingCp",
        min: 0,
        max: 40_000,
        field: |p| &mut p.swing_cp,
    },
    Tunable {
        name: "PolicyOrder",
        min: 0,
        max: 1_000_000,
        field: |p| &mut p.policy_order,
    },
    Tunable {
        name: "PolicyMinDepth",
        min: 1,
        max: 64,
        field: |p| &mut p.policy_min_depth,
    },
    Tunable {
        name: "LoneKingSoldiers",
        min: 0,
        max: 12,
        field: |p| &mut p.lone_king_soldiers,
    },
    Tunable {
        name: "MovesToGo",
        min: 1,
        max: 100,
        field: |p| &mut p.moves_to_go,
    },
    Tunable {
        name: "IncrementShare",
        min: 0,
        max: 100,
        field: |p| &mut p.increment_share,
    },
    Tunable {
        name: "SoftFactor",
        min: 10,
        max: 1000,
        field: |p| &mut p.soft_factor,
    },
    Tunable {
        name: "HardFactor",
        min: 10,
        max: 1000,
        field: |p| &mut p.hard_factor,
    },
];

impl SearchParams {
    /// The tunable called `name` (any case), if there is one.
    pub fn tunable(name: &str) -> Option<&'static Tunable> {
        TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// The value of `t`.
    pub fn get(&self, t: &Tunable) -> i32 {
        *(t.field)(&mut self.clone())
    }

    /// Sets a tunable, or says why not.
    pub fn set(&mut self, t: &Tunable, value: i32) -> Result<(), OutOfRange> {
        if (t.min..=t.max).contains(&value) {
            *(t.field)(self) = value;
            Ok(())
        } else {
            Err(OutOfRange {
                name: t.name,
                value,
                min: t.min,
                max: t.max,
            })
        }
    }
}

/// A value a tunable cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {value} is outside {min}..{max}")]
pub struct OutOfRange {
    /// The option.
    pub name: &'static str,
    /// The value given.
    pub value: i32,
    /// The least value.
    pub min: i32,
    /// The greatest value.
    pub max: i32,
}

// ---- Quiescence ----

/// Plies into the quiescence search in which the defenders also try the king's moves that
/// see an escape or reach the edge, and look for an exit fort built in one move: near the
/// horizon such a move decides, deeper it only costs nodes.
pub const QSEARCH_EDGE_PLIES: u32 = 2;

// ---- Time ----

/// The longest soft limit any clock gives: about what a two-and-a-half-hour clock plans for a
/// move in the middle of the game. More time on the clock hardly changes the move found,
/// and a user who gives the engine a huge clock still expects it to move within minutes.
pub const MAX_SOFT: Duration = Duration::from_secs(300);

/// The longest hard limit any clock gives, in the same proportion to [`MAX_SOFT`] as the
/// hard limit to the soft one below.
pub const MAX_HARD: Duration = Duration::from_secs(900);

/// The most of a fixed move time kept back as overhead: a tenth.
pub const MOVETIME_RESERVE_DIVISOR: u32 = 10;

/// The soft limit is at most the time left divided by this: half of it, so that one long
/// think never spends the clock.
pub const SOFT_CAP_DIVISOR: u32 = 2;

/// The hard limit keeps back the time left divided by this (a fifth) for the moves after.
pub const HARD_CAP_KEEP: u32 = 5;

// ---- Skill levels ----

/// Lines searched just below full strength, the candidates the move is drawn from; each two
/// levels down add one.
pub const CANDIDATES: usize = 4;

/// Plies every weakened search completes whatever its budget: three see every reply that
/// wins at once, also by leaving the mover no move (which two plies missed in a real game).
pub const MIN_DEPTH: u32 = 3;

/// The node budget of level 0.
pub const BASE_NODES: f64 = 1000.0;
/// Each level up multiplies the node budget by this: 40 % more.
pub const NODE_GROWTH: f64 = 1.4;

/// At level 0, how far (centipawns, about four attackers) behind the best line a move may be
/// and still be played; the margin shrinks with the square of the levels left to full
/// strength, so that the upper levels differ mostly in depth and the lower ones in care.
pub const MAX_MARGIN: i32 = 400;

/// Each this many levels below full strength add one candidate line.
pub const LEVELS_A_CANDIDATE: u8 = 2;

/// The weight of a line falls to 1/e at the margin divided by this (a half) behind the best:
/// a bell whose width is the margin.
pub const MARGIN_TEMPERATURE_DIVISOR: f64 = 2.0;

/// Levels below this one glance at some of their moves instead of reading the search's
/// lines.
pub const SEARCHING: u8 = 6;

/// For each level below [`SEARCHING`], the share of its moves it glances at; with
/// [`GLANCE_NOISE`], the noise of its glance (cp: a move this much worse than the best looks is 1/e as likely). Measured: a
/// glance at 150 cp lost to hnefatafl-copenhagen's depth-1 AI by about 150 Elo, while the
/// search at its weakest settings beat it by about 200; a few glanced moves a game cost much
/// (halving the share from 1 lost 458 Elo a level, from 1/16 to none 108), hence the shares
/// falling slowly at first.
pub const GLANCE_SHARE: [f64; SEARCHING as usize] = [1.0, 1.0, 0.6, 0.35, 0.18, 0.08];
/// For each level below [`SEARCHING`], the noise of its glance (cp): see [`GLANCE_SHARE`].
pub const GLANCE_NOISE: [f64; SEARCHING as usize] = [150.0, 55.0, 35.0, 25.0, 18.0, 12.0];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_names_its_own_field_and_holds_its_default() {
        let defaults = SearchParams::default();
        for (i, t) in TUNABLES.iter().enumerate() {
            let mut p = SearchParams::default();
            let v = defaults.get(t);
            assert!((t.min..=t.max).contains(&v), "{} default {v}", t.name);
            p.set(t, if v == t.max { t.min } else { v + 1 }).unwrap();
            let changed = TUNABLES
                .iter()
                .filter(|u| p.get(u) != defaults.get(u))
                .count();
            assert_eq!(changed, 1, "{} (#{i}) changes exactly one field", t.name);
            assert!(p.set(t, t.max + 1).is_err());
            assert!(SearchParams::tunable(&t.name.to_lowercase()).is_some());
        }
    }
}
