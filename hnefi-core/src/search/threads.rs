//! Lazy SMP: the threads of one search share a transposition table, a stop flag and a node
//! count; thread 0 reports and decides, the others deepen the table ahead of it.

use super::alphabeta::{RootMove, Worker};
use super::nnue::QuantisedNetwork;
use super::params::SearchParams;
use super::policy::Policy;
use super::skill::draw_seed;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::{EvalKind, Go, Info, Options, Score, SearchResult};
use crate::board::Geometry;
use crate::board::zobrist::Key;
use crate::board::{MoveList, Position};
use crate::search::size::Size;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

/// What every search thread shares.
pub struct Shared<'a, G: Geometry> {
    pub tt: &'a TranspositionTable,
    pub stop: &'a AtomicBool,
    /// Nodes of all threads, added in batches.
    pub nodes: &'a AtomicU64,
    pub time: &'a TimeManager,
    pub limits: &'a Go<G>,
    /// While set (a ponder search), time limits do not apply.
    pub pondering: &'a AtomicBool,
    /// The depth the main thread is searching; helpers keep one ply ahead of it.
    pub main_depth: &'a AtomicU32,
    /// Near the root, which thread is searching which position (see [`Breadcrumbs`]).
    pub breadcrumbs: &'a Breadcrumbs,
    pub params: SearchParams,
    /// The network, when the search runs the NNUE evaluation.
    pub net: Option<&'a QuantisedNetwork>,
    /// The move policy, read beside the network's accumulators.
    pub policy: Option<&'a Policy>,
    /// Whether the network's accumulators are computed afresh at every node
    /// ([`EvalKind::NnueRefresh`]).
    pub refresh: bool,
    /// Below full strength, the level's node budget ([`super::Level::node_budget`]).
    pub level_nodes: Option<u64>,
}

/// Marks left by threads on the positions they are searching near the root. A thread that
/// finds another's mark on its node reduces its late moves more and leaves the work to the
/// other, so that two threads spread out instead of searching the same lines in step.
pub struct Breadcrumbs {
    keys: Vec<AtomicU64>,
    owners: Vec<AtomicU32>,
}

impl Breadcrumbs {
    pub fn new() -> Breadcrumbs {
        Breadcrumbs {
            keys: (0..1024).map(|_| AtomicU64::new(0)).collect(),
            owners: (0..1024).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    /// Claims `key` for thread `id`. Returns whether another thread holds it, and whether this
    /// thread now holds it (and must [`Breadcrumbs::release`] it).
    pub(super) fn visit(&self, key: Key, id: usize) -> (bool, bool) {
        let i = (key as usize) & 1023;
        let held = self.keys[i].load(Ordering::Relaxed);
        if held == key {
            return (self.owners[i].load(Ordering::Relaxed) != id as u32, false);
        }
        if held == 0 {
            self.owners[i].store(id as u32, Ordering::Relaxed);
            self.keys[i].store(key, Ordering::Relaxed);
            return (false, true);
        }
        (false, false)
    }

    pub(super) fn release(&self, key: Key) {
        self.keys[(key as usize) & 1023].store(0, Ordering::Relaxed);
    }
}

impl Default for Breadcrumbs {
    fn default() -> Breadcrumbs {
        Breadcrumbs::new()
    }
}

/// Raises a stop flag when dropped, also during a panic.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What one search of a game leaves for the next: the table, and the main thread's move
/// histories (the move history and the continuation history).
pub(super) struct Memory<'a> {
    pub tt: &'a TranspositionTable,
    pub history: &'a Mutex<Vec<i32>>,
}

/// One search on `options.threads` threads sharing the table (Lazy SMP): thread 0 reports and
/// decides; the others deepen the shared table.
pub(super) fn run<G: Size>(
    pos: &Position<G>,
    limits: &Go<G>,
    options: &Options,
    memory: Memory<'_>,
    stop: &AtomicBool,
    pondering: &AtomicBool,
    mut report: impl FnMut(&Info<G>),
) -> SearchResult<G> {
    let Memory { tt, history } = memory;
    tt.new_search();
    let time = TimeManager::new(
        limits,
        pos.side_to_move(),
        options.move_overhead,
        &options.params,
    );
    let nodes = AtomicU64::new(0);
    let main_depth = AtomicU32::new(0);
    let breadcrumbs = Breadcrumbs::new();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if list.iter().any(|m| limits.searchmoves.contains(m)) {
        list.retain(|m| limits.searchmoves.contains(m));
    }
    let mut result = SearchResult {
        best: list.first().copied(),
        ponder: None,
        score: Score::ZERO,
        depth: 0,
        nodes: 0,
        lines: Vec::new(),
    };
    if list.is_empty() {
        // The game is over: the rulebook's verdict is the score.
        if let Some(end) = pos.outcome() {
            result.score = Score::of_outcome(end, pos.side_to_move(), 0);
        }
        // Nothing to search; an infinite or ponder search still waits for its stop.
        while (limits.infinite || pondering.load(Ordering::Relaxed))
            && !stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        return result;
    }
    let net = options.network::<G>(pos.rules());
    let policy = options.move_policy::<G>(pos.rules());
    // The deep search's likeliest moves first: the first iteration searches them with the
    // full window, and later ones keep the order of the moves that fail low.
    if let (Some(policy), Some(net)) = (policy, net) {
        let acc = super::nnue::Accumulator::refresh(net, pos.board());
        let mut logits = vec![0; list.len()];
        policy.logits(&acc, pos.board(), &list, &mut logits);
        let mut order: Vec<usize> = (0..list.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(logits[i]));
        list = order.into_iter().map(|i| list[i]).collect();
    }
    let root_moves: Vec<RootMove<G>> = list
        .iter()
        .map(|&mv| RootMove {
            mv,
            score: -Score::INFINITE,
            pv: vec![mv],
            seldepth: 0,
        })
        .collect();
    let lines: Mutex<Vec<Info<G>>> = Mutex::new(Vec::new());
    let threads = options.threads.max(1);
    let shown = options.multipv.max(1);
    let multipv = options.level.lines(shown);
    let (depth, best_moves, from_helper) = std::thread::scope(|s| {
        let shared = || Shared {
            tt,
            stop,
            nodes: &nodes,
            time: &time,
            limits,
            pondering,
            main_depth: &main_depth,
            breadcrumbs: &breadcrumbs,
            params: options.params,
            net,
            policy,
            refresh: options.eval == EvalKind::NnueRefresh,
            level_nodes: options.level.node_budget(),
        };
        // Helpers are a bonus: one the system will not start is done without.
        let helpers: Vec<_> = (1..threads)
            .filter_map(|id| {
                let root_moves = root_moves.clone();
                let shared = shared();
                std::thread::Builder::new()
                    .spawn_scoped(s, move || {
                        let mut searcher = Worker::new(shared, pos, id, threads);
                        searcher.iterate(pos.board(), root_moves, 1, 1, &mut |_| {})
                    })
                    .map_err(|e| log::warn!("search helper {id} not started: {e}"))
                    .ok()
            })
            .collect();
        // Should the main search panic, the helpers must still stop, or the scope would wait
        // for them forever: the guard raises the flag while the panic unwinds.
        let _stop_helpers = StopOnDrop(stop);
        let mut main = Worker::new(shared(), pos, 0, threads);
        main.adopt_history(&mut history.lock().unwrap_or_else(|e| e.into_inner()));
        let mut on_info = |info: Info<G>| {
            report(&info);
            let mut l = lines.lock().unwrap_or_else(|e| e.into_inner());
            if info.multipv == 1 {
                l.clear();
            }
            l.push(info);
        };
        let (mut depth, mut best) =
            main.iterate(pos.board(), root_moves, multipv, shown, &mut on_info);
        main.give_history(&mut history.lock().unwrap_or_else(|e| e.into_inner()));
        // An infinite or ponder search never ends by itself: wait for the word.
        while (limits.infinite || pondering.load(Ordering::Relaxed))
            && !stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        stop.store(true, Ordering::Relaxed);
        // A helper that completed a deeper iteration than the main thread has the better move.
        let mut from_helper = false;
        for h in helpers {
            if let Ok((d, moves)) = h.join()
                && d > depth
                && multipv == 1
                && !moves.is_empty()
            {
                depth = d;
                best = moves;
                from_helper = true;
            }
        }
        (depth, best, from_helper)
    });
    if from_helper && let Some(rm) = best_moves.first() {
        let n = nodes.load(Ordering::Relaxed);
        let t = time.elapsed();
        let info = Info {
            depth,
            seldepth: rm.seldepth.max(depth),
            multipv: 1,
            score: rm.score,
            nodes: n,
            nps: (n as f64 / t.as_secs_f64().max(1e-3)) as u64,
            hashfull: tt.hashfull(),
            time: t,
            pv: rm.pv.clone(),
        };
        report(&info);
        let mut l = lines.lock().unwrap_or_else(|e| e.into_inner());
        l.clear();
        l.push(info);
    }
    let seed = draw_seed(options.seed.unwrap_or_else(fresh_seed), pos.board().key());
    let played = options.level.choose(
        &exact_scores(&best_moves[..multipv.min(best_moves.len())]),
        seed,
    );
    if let Some(rm) = best_moves.get(played) {
        result.best = Some(rm.mv);
        result.ponder = rm.pv.get(1).copied();
        result.score = rm.score;
    }
    // A beginner's move: the score stays the search's view of the position.
    if let Some(mv) = options.level.glance(pos, &list, seed)
        && result.best != Some(mv)
    {
        result.best = Some(mv);
        result.ponder = None;
    }
    result.lines = lines.into_inner().unwrap_or_else(|e| e.into_inner());
    result.depth = result.lines.first().map_or(0, |i| i.depth);
    result.nodes = nodes.load(Ordering::Relaxed);
    result
}

/// The scores of `lines` as far as they are exact: a line the search never finished scores
/// below every real score.
fn exact_scores<G: Geometry>(lines: &[RootMove<G>]) -> Vec<Score> {
    lines
        .iter()
        .map(|rm| rm.score)
        .take_while(|&s| s > -Score::INFINITE)
        .collect()
}

/// A seed for a search of an engine nobody seeded: different in every search.
fn fresh_seed() -> u64 {
    super::instant::fresh_seed()
}
