//! The match: a deterministic schedule of game pairs, workers that play them, and the referee
//! that keeps each game with the rules core and decides it.

use super::ending::Ending;
use super::openings::Opening;
use super::player::{Answer, Decision, Fault, Forfeit, Player, htp_sizes};
use super::spec::EngineSpec;
use super::summary::{Encounter, Sprt, Summary};
use crate::board::rules::Repetition;
use crate::board::variant::NamedRules;
use crate::board::{Board, Move, Position};
use crate::board::{Geometry, Outcome, Reason, Side};
use crate::games::record::{Verdict, write_game};
use crate::protocol::Protocol;
use crate::search::Clock;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// How long past its deadline an engine may still answer to count as late rather than hung.
const GRACE: Duration = Duration::from_secs(1);

/// Why a match cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error(
        "engine {engine}: OpenTafl's rules strings cannot say that the defenders may not \
         repeat a board ({rules} rules), so it would forfeit by playing such a repeat; play \
         OpenTafl engines under another --rules preset"
    )]
    OpenTaflRepeats { engine: String, rules: String },
    #[error(
        "engine {engine}: the hnefatafl text protocol plays boards of 7, 11 and 13 squares a \
         side (board_size), not the {side}x{side} board of {rules}; play it over another \
         protocol (proto=uci or otep)"
    )]
    HtpSize {
        engine: String,
        side: u8,
        rules: String,
    },
    #[error(
        "engine {engine}: the hnefatafl text protocol cannot set up a position, so its games \
         start from the rules' start: the openings give positions ({openings})"
    )]
    HtpPositions { engine: String, openings: String },
    #[error("engine {engine} does not start: {why}")]
    DoesNotStart { engine: String, why: String },
    #[error("interrupted")]
    Interrupted,
    #[error(
        "{} holds games under the rules {theirs}, and this match plays {ours}: give another \
         --records (or - for none) rather than mix them in one file",
        .path.display()
    )]
    RecordsOfOtherRules {
        path: PathBuf,
        theirs: String,
        ours: String,
    },
    #[error("cannot write {}: {error}", .path.display())]
    Records {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("cannot start workers: {0}")]
    Workers(String),
}

/// Everything that defines a match on boards of `G`.
pub struct MatchSettings<G: Geometry> {
    pub engines: Vec<Arc<EngineSpec>>,
    /// Games per encounter (pair of engines), an even number.
    pub games: usize,
    pub concurrency: usize,
    pub openings: Vec<Opening<G>>,
    /// Where the openings came from, for the report.
    pub openings_name: String,
    pub seed: u64,
    pub rules: NamedRules,
    /// The rules' start, where games without an opening begin.
    pub start: Board<G>,
    /// A game this long is a draw.
    pub max_plies: usize,
    /// Play only the game of each opening where the encounter's first engine attacks, not a
    /// pair with the sides swapped: a yardstick of one side, such as attackers given less
    /// time than the defense. Such games make no pairs, so no pentanomial and no SPRT.
    pub first_attacks_only: bool,
    pub sprt: Option<Sprt>,
    /// Play only shard `.0` (from 1) of `.1`.
    pub shard: (u32, u32),
    /// How far past its clock an engine may answer.
    pub time_margin: Duration,
    /// How long an engine without a time limit may think about one move.
    pub move_timeout: Duration,
    /// Where each game goes (appended), one line of the community record format.
    pub records: Option<PathBuf>,
}

impl<G: Geometry> MatchSettings<G> {
    /// The settings that make two runs the same match (not concurrency or shard).
    pub fn describe(&self) -> String {
        let engines: Vec<String> = self.engines.iter().map(|e| e.describe()).collect();
        format!(
            "Match: {}; {} games per encounter{}, openings {} ({}), seed {}, rules {}, draw at {} plies",
            engines.join(" vs "),
            self.games,
            if self.first_attacks_only {
                ", the first engine attacking"
            } else {
                ""
            },
            self.openings_name,
            self.openings.len(),
            self.seed,
            self.rules,
            self.max_plies
        )
    }

    fn encounters(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect()
    }
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// Pair number across the whole match: its two games share an opening, sides swapped.
    pub pair: usize,
    pub encounter: usize,
    /// Engine indices: attackers, defenders.
    pub engines: [usize; 2],
    /// Index into the openings (none when there are none).
    pub opening: Option<usize>,
    /// Whether the encounter's first engine plays the attackers.
    pub first_attacks: bool,
}

/// The games of shard `settings.shard`, in playing order. The same settings always give the
/// same schedule; shards split it by pair.
pub fn schedule<G: Geometry>(settings: &MatchSettings<G>) -> Vec<Scheduled> {
    let mut order: Vec<usize> = (0..settings.openings.len()).collect();
    order.shuffle(&mut StdRng::seed_from_u64(settings.seed));
    let encounters = settings.encounters();
    let (shard, shards) = settings.shard;
    let mut games = Vec::new();
    let (rounds, sides): (usize, &[bool]) = if settings.first_attacks_only {
        (settings.games, &[true])
    } else {
        (settings.games.div_ceil(2), &[true, false])
    };
    for round in 0..rounds {
        for (e, &(i, j)) in encounters.iter().enumerate() {
            let pair = round * encounters.len() + e;
            if pair % shards as usize != (shard - 1) as usize {
                continue;
            }
            let opening = (!order.is_empty()).then(|| order[round % order.len()]);
            for &first_attacks in sides {
                games.push(Scheduled {
                    pair,
                    encounter: e,
                    engines: if first_attacks { [i, j] } else { [j, i] },
                    opening,
                    first_attacks,
                });
            }
        }
    }
    games
}

/// A game the referee decided.
#[derive(Clone, Debug)]
pub struct Finished {
    pub game: Scheduled,
    pub ending: Ending,
    /// The game as a line of the community record format.
    pub record: String,
    /// When this game completes its pair: the encounter's first engine's half points in the
    /// pair (0 to 4).
    pub pair_points: Option<usize>,
    /// Pieces each side lost (attackers, defenders) from where the engines took over.
    pub captured: [u32; 2],
}

/// Checks that every engine's protocol can be told the match's rules and openings, then starts
/// each engine once and shuts it down, so that a wrong command fails at once rather than as a
/// forfeit in every game.
pub fn check_engines<G: Geometry>(
    settings: &MatchSettings<G>,
    stop: &Arc<AtomicBool>,
) -> Result<(), MatchError> {
    let rules = || settings.rules.to_string();
    for spec in &settings.engines {
        let engine = || spec.name.clone();
        // An engine that does not know a rule that forbids moves will play them and forfeit.
        if spec.proto == Protocol::Otep
            && settings.rules.rules.repetition == Repetition::DefendersMayNotRepeat
        {
            return Err(MatchError::OpenTaflRepeats {
                engine: engine(),
                rules: rules(),
            });
        }
        if spec.proto == Protocol::Htp {
            if !htp_sizes().contains(&G::SIDE) {
                return Err(MatchError::HtpSize {
                    engine: engine(),
                    side: G::SIDE,
                    rules: rules(),
                });
            }
            if settings.openings.iter().any(|o| o.start != settings.start) {
                return Err(MatchError::HtpPositions {
                    engine: engine(),
                    openings: settings.openings_name.clone(),
                });
            }
        }
    }
    for spec in &settings.engines {
        match Player::start(spec.clone(), &settings.rules, settings.start, stop.clone()) {
            Ok(_) => {}
            Err(Fault::Stopped) => return Err(MatchError::Interrupted),
            Err(Fault::Forfeit(_, why)) => {
                return Err(MatchError::DoesNotStart {
                    engine: spec.name.clone(),
                    why,
                });
            }
        }
    }
    Ok(())
}

/// How many games the records file of `settings` holds already (0 when it does not exist),
/// checked to be games under the same rules: a file of other rules' games is refused rather
/// than mixed with them (their records even have another number of fields).
pub fn check_records<G: Geometry>(settings: &MatchSettings<G>) -> Result<usize, MatchError> {
    let Some(path) = &settings.records else {
        return Ok(0);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(error) => {
            return Err(MatchError::Records {
                path: path.clone(),
                error,
            });
        }
    };
    let games: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    // A record without a rules field is a Copenhagen game.
    let copenhagen = NamedRules::default().name;
    let other = games
        .iter()
        .map(|line| crate::games::record::rules_field(line).unwrap_or(&copenhagen))
        .find(|rules| *rules != settings.rules.name);
    match other {
        Some(theirs) => Err(MatchError::RecordsOfOtherRules {
            path: path.clone(),
            theirs: theirs.to_string(),
            ours: settings.rules.name.clone(),
        }),
        None => Ok(games.len()),
    }
}

/// Plays the match (or its shard), calling `each` after every game with the summary so far.
/// Setting `stop` ends it early: games under way are abandoned and not counted.
pub fn run<G: Geometry>(
    settings: &MatchSettings<G>,
    stop: Arc<AtomicBool>,
    mut each: impl FnMut(&Summary, &Finished),
) -> Result<Summary, MatchError> {
    let games = schedule(settings);
    let mut summary = Summary {
        settings: settings.describe(),
        engines: settings.engines.iter().map(|e| e.name.clone()).collect(),
        shards: vec![settings.shard],
        games_scheduled: games.len() as u64,
        sprt: settings.sprt,
        stopped_early: false,
        encounters: settings
            .encounters()
            .iter()
            .map(|&(i, j)| Encounter::new(&settings.engines[i].name, &settings.engines[j].name))
            .collect(),
    };
    check_records(settings)?;
    let mut records = match &settings.records {
        // Whole lines added to what the file held: a failed write never leaves half a record.
        Some(path) => {
            Some(
                crate::files::Appender::open(path).map_err(|error| MatchError::Records {
                    path: path.clone(),
                    error,
                })?,
            )
        }
        None => None,
    };
    let workers = settings.concurrency.clamp(1, games.len().max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("match-worker-{i}"))
        .build()
        .map_err(|e| MatchError::Workers(e.to_string()))?;
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::<Finished>();
    // SPRT stopping needs the whole match in one place: shards only report the LLR.
    let sprt = settings
        .sprt
        .filter(|_| settings.shard.1 == 1 && summary.encounters.len() == 1);
    let mut halves: HashMap<usize, usize> = HashMap::new();
    let mut write_error = None;
    pool.in_place_scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (games, next, stop) = (&games, &next, stop.clone());
            scope.spawn(move |_| worker(settings, games, next, &stop, &tx));
        }
        drop(tx);
        for mut done in rx {
            let first_side = if done.game.first_attacks {
                Side::Attackers
            } else {
                Side::Defenders
            };
            let encounter = &mut summary.encounters[done.game.encounter];
            encounter.add_game(first_side, &done.ending, done.captured);
            let half = match done.ending.winner() {
                Some(w) if w == first_side => 2,
                None => 1,
                Some(_) => 0,
            };
            if let Some(other) = halves.remove(&done.game.pair) {
                encounter.add_pair(half + other);
                done.pair_points = Some(half + other);
                if let Some(s) = &sprt
                    && s.decision(&encounter.penta()).is_some()
                {
                    stop.store(true, Ordering::Relaxed);
                }
            } else {
                halves.insert(done.game.pair, half);
            }
            if let Some(w) = records.as_mut()
                && let Err(e) = w.append(format!("{}\n", done.record).as_bytes())
            {
                write_error.get_or_insert(e);
            }
            each(&summary, &done);
        }
    });
    if let Some(e) = write_error {
        log::error!("writing the game records failed: {e}");
    }
    summary.stopped_early = stop.load(Ordering::Relaxed);
    Ok(summary)
}

/// Takes games off the schedule until it is done or the match stops. Engine processes are
/// kept between games when their protocol allows and they behaved.
fn worker<G: Geometry>(
    settings: &MatchSettings<G>,
    games: &[Scheduled],
    next: &AtomicUsize,
    stop: &Arc<AtomicBool>,
    tx: &std::sync::mpsc::Sender<Finished>,
) {
    let mut players: Vec<Option<Player<G>>> = settings.engines.iter().map(|_| None).collect();
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&game) = games.get(i) else { break };
        match play(settings, game, &mut players, stop) {
            Some(done) => {
                if tx.send(done).is_err() {
                    break;
                }
            }
            None => break,
        }
    }
}

/// A player ready for a new game that began on `start` and stands at `pos`: the kept one, or
/// a fresh process.
fn ready_player<G: Geometry>(
    settings: &MatchSettings<G>,
    kept: Option<Player<G>>,
    engine: usize,
    start: &Board<G>,
    pos: &Position<G>,
    stop: &Arc<AtomicBool>,
) -> Result<Player<G>, Fault> {
    let spec = &settings.engines[engine];
    let mut player = match kept.filter(|p| p.reusable()) {
        Some(p) => p,
        None => Player::start(spec.clone(), &settings.rules, settings.start, stop.clone())?,
    };
    player.new_game(start, pos, &spec.tc)?;
    Ok(player)
}

/// Plays one scheduled game; `None` when the match stopped during it.
fn play<G: Geometry>(
    settings: &MatchSettings<G>,
    game: Scheduled,
    players: &mut [Option<Player<G>>],
    stop: &Arc<AtomicBool>,
) -> Option<Finished> {
    let rules = settings.rules.rules;
    let opening = game.opening.map(|o| &settings.openings[o]);
    let start = opening.map_or(settings.start, |o| o.start);
    let mut pos = match opening {
        Some(o) => o.position(rules),
        None => Position::new(start, rules),
    };
    let specs = game.engines.map(|e| settings.engines[e].clone());
    let pieces = |pos: &Position<G>| {
        [Side::Attackers, Side::Defenders].map(|side| pos.board().pieces(side).count())
    };
    let before = pieces(&pos);
    let mut seats: [Option<Player<G>>; 2] = [None, None];
    let mut end = None;
    for side in [Side::Attackers, Side::Defenders] {
        let engine = game.engines[side.index()];
        match ready_player(settings, players[engine].take(), engine, &start, &pos, stop) {
            Ok(p) => seats[side.index()] = Some(p),
            Err(Fault::Stopped) => return None,
            Err(Fault::Forfeit(kind, why)) => {
                end = Some(End::Forfeit(side, kind, why));
                break;
            }
        }
    }
    let end = match (end, &mut seats) {
        (Some(end), _) => end,
        (None, [Some(a), Some(d)]) => referee(settings, &specs, [a, d], &mut pos, stop)?,
        (None, _) => unreachable!("both seats are filled when no one forfeited"),
    };
    let outcome = match &end {
        End::Rules(o) => Some(*o),
        End::Forfeit(..) => None,
    };
    for seat in seats.iter_mut().flatten() {
        seat.finish(outcome);
    }
    for (side, seat) in seats.into_iter().enumerate() {
        if let Some(p) = seat {
            players[game.engines[side]] = Some(p);
        }
    }
    let ending = match end {
        End::Rules(o) => Ending::Rules(o),
        End::Forfeit(loser, kind, why) => {
            let name = specs[loser.index()].name.clone();
            let level = if kind == Forfeit::Resigned {
                log::Level::Info
            } else {
                log::Level::Warn
            };
            log::log!(level, "{name} ({loser}) lost by {}: {why}", kind.label());
            Ending::Forfeit {
                side: loser,
                name,
                kind,
            }
        }
    };
    let timeout = matches!(
        ending,
        Ending::Forfeit {
            kind: Forfeit::TimeLoss,
            ..
        }
    );
    let moves: Vec<Move<G>> = pos.moves().collect();
    let record = write_game(
        &start,
        &moves,
        &settings.rules,
        Verdict::of(ending.winner()),
        timeout,
    );
    let after = pieces(&pos);
    Some(Finished {
        game,
        ending,
        record,
        pair_points: None,
        captured: [0, 1].map(|i| before[i].saturating_sub(after[i])),
    })
}

/// How a game ended: by the rules (or the length limit), or by a side's forfeit.
enum End {
    Rules(Outcome),
    /// The side that lost, how, and the details.
    Forfeit(Side, Forfeit, String),
}

/// Keeps the game between two ready players until the rules, the length limit or a forfeit
/// end it. `None` when the match stopped.
fn referee<G: Geometry>(
    settings: &MatchSettings<G>,
    specs: &[Arc<EngineSpec>; 2],
    seats: [&mut Player<G>; 2],
    pos: &mut Position<G>,
    stop: &AtomicBool,
) -> Option<End> {
    let mut clock = Clock::new(specs[0].tc.clock, specs[1].tc.clock);
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(outcome) = pos.outcome() {
            return Some(End::Rules(outcome));
        }
        if pos.plies() >= settings.max_plies {
            return Some(End::Rules(Outcome::draw(Reason::MoveLimit)));
        }
        let side = pos.side_to_move();
        let me = side.index();
        let tc = specs[me].tc;
        let budget = clock.side(side).map(|c| c.left).or(tc.movetime);
        let asked = Instant::now();
        let deadline = match budget {
            Some(b) => asked + b + settings.time_margin + GRACE,
            None => asked + settings.move_timeout,
        };
        let forfeit = |kind, why: String| Some(End::Forfeit(side, kind, why));
        let Answer { decision, at } = match seats[me].ask(pos, &tc, clock, deadline) {
            Ok(Some(answer)) => answer,
            Ok(None) => {
                let waited = deadline - asked;
                return forfeit(
                    Forfeit::NoAnswer,
                    format!("no move within {:.1} s", waited.as_secs_f64()),
                );
            }
            Err(Fault::Stopped) => return None,
            Err(Fault::Forfeit(kind, why)) => return forfeit(kind, why),
        };
        let used = at.saturating_duration_since(asked);
        if let Some(b) = budget {
            if used > b + settings.time_margin {
                return forfeit(
                    Forfeit::TimeLoss,
                    format!(
                        "took {} ms with {} ms left",
                        used.as_millis(),
                        b.as_millis()
                    ),
                );
            }
            clock.spend(side, used);
        }
        let mv = match decision {
            Decision::Move(mv) => mv,
            Decision::Resign => return forfeit(Forfeit::Resigned, "resigned".into()),
            Decision::Unreadable { text, why } => {
                return forfeit(Forfeit::IllegalMove, format!("sent '{text}': {why}"));
            }
        };
        let captured = match pos.try_play(mv) {
            Ok(c) => c,
            Err(e) => return forfeit(Forfeit::IllegalMove, format!("played {mv:?}: {e}")),
        };
        if let Err(fault) = seats[me].accepted(pos) {
            return match fault {
                Fault::Stopped => None,
                Fault::Forfeit(kind, why) => forfeit(kind, why),
            };
        }
        if pos.outcome().is_none() && pos.plies() < settings.max_plies {
            match seats[1 - me].tell(mv, captured, pos) {
                Ok(()) => {}
                Err(Fault::Stopped) => return None,
                Err(Fault::Forfeit(kind, why)) => {
                    return Some(End::Forfeit(side.opponent(), kind, why));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::size::Standard;
    use crate::tournament::spec::EngineSpec;

    fn settings(engines: usize, games: usize, shard: (u32, u32)) -> MatchSettings<Standard> {
        MatchSettings {
            engines: (0..engines)
                .map(|i| {
                    Arc::new(
                        EngineSpec::parse(&[], &[format!("cmd=e{i}"), "nodes=1".into()])
                            .expect("a spec"),
                    )
                })
                .collect(),
            games,
            concurrency: 1,
            openings: vec![
                Opening {
                    start: Board::start(),
                    moves: vec![]
                };
                7
            ],
            openings_name: "test".into(),
            seed: 3,
            rules: NamedRules::default(),
            start: Board::start(),
            max_plies: 100,
            first_attacks_only: false,
            sprt: None,
            shard,
            time_margin: Duration::ZERO,
            move_timeout: Duration::from_secs(1),
            records: None,
        }
    }

    #[test]
    fn schedules_pairs_with_sides_swapped() {
        let s = schedule(&settings(2, 6, (1, 1)));
        assert_eq!(s.len(), 6);
        for pair in s.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].engines, [0, 1]);
            assert_eq!(pair[1].engines, [1, 0]);
        }
        // Three engines: three encounters, each with its games.
        let s = schedule(&settings(3, 4, (1, 1)));
        assert_eq!(s.len(), 12);
        assert_eq!(s.iter().filter(|g| g.encounter == 2).count(), 4);
        assert_eq!(schedule(&settings(3, 4, (1, 1))), s, "deterministic");
    }

    #[test]
    fn one_sided_matches_give_each_game_an_opening_and_the_first_engine_the_attack() {
        let mut one_sided = settings(2, 5, (1, 1));
        one_sided.first_attacks_only = true;
        one_sided.openings = (0..5).map(|_| one_sided.openings[0].clone()).collect();
        let s = schedule(&one_sided);
        assert_eq!(s.len(), 5);
        assert!(s.iter().all(|g| g.first_attacks && g.engines == [0, 1]));
        let mut openings: Vec<_> = s.iter().map(|g| g.opening.unwrap()).collect();
        openings.sort();
        assert_eq!(openings, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn shards_split_the_schedule_by_pair() {
        let whole = schedule(&settings(2, 20, (1, 1)));
        let mut parts: Vec<Scheduled> = (1..=3)
            .flat_map(|i| schedule(&settings(2, 20, (i, 3))))
            .collect();
        parts.sort_by_key(|g| (g.pair, !g.first_attacks));
        assert_eq!(parts, whole);
    }
}
