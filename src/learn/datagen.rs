//! Self-play training data: Hnefi plays itself at a fixed node count per move from varied,
//! roughly even starts, and every position of each game is kept as a [`Sample`] with its search
//! score and the game's result.
//!
//! A start is the opening of a real game (its first `book_plies` plies) followed by
//! `random_plies` uniformly random legal moves; it is kept only if a search of it scores within
//! `balance` cp of even, so that the games teach the middle of the scale rather than lost
//! causes.
//!
//! A game whose search score stays past `adjudicate_cp` for `adjudicate_plies` plies in a row,
//! for the same side, ends there as that side's win: its remaining plies would teach little
//! and cost most of a decided game's time. Within a game, a position met again (a piece moved
//! back and forth, a fortress shuffled until the ply limit) is kept only the first time. The
//! set of positions is per game, not per run, so that game `g` stays the same whichever shard
//! or thread plays it and the run's memory does not grow with its length.
//!
//! Reproducibility: everything random in game `g` comes from [`game_rng`]`(seed, g)`, and each
//! game starts from a cleared single-threaded engine searching to a node count, so game `g` is
//! the same line for line whichever shard, thread or order plays it. Shard `I/N` plays the games
//! `g` with `g % N == I - 1`; the shards of a run together hold exactly the unsharded run.
//! The `GAME` field of game `g` is `seed * GAME_NUMBER_STRIDE + g`, so runs with different
//! seeds can be pooled and still be split by game.

use crate::board::{Board, Move, MoveList, Position};
use crate::board::{Geometry, Rules, Side};
use crate::cluster::shard::Header;
use crate::files::Appender;
use crate::games::record::read_games;
use crate::learn::sample::{GameResult, SCORE_CAP, Sample};
use crate::search::nnue::QuantisedNetwork;
use crate::search::size::Size;
use crate::search::size::Standard;
use crate::search::{EvalKind, Go, Options, Score, Searcher};
use crate::splitmix::SplitMix64;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `GAME` of game `g` under seed `s` is `s * GAME_NUMBER_STRIDE + g`.
pub const GAME_NUMBER_STRIDE: u64 = 1_000_000_000;

/// Starts drawn per game before giving up on finding one within the balance band.
pub const MAX_START_TRIES: u32 = 1000;

/// The default score past which a game counts as decided, in cp from the attackers' view: a
/// found win, or a score at the cap. Lower bounds end more games early but misjudge them: over
/// 20 games of 5,000 nodes a move played out, a score of 5,000 cp for 4 plies decided 12 games
/// and 2 of them were draws by the ply limit (the attackers surrounding the king without
/// taking it), and 1,000 cp misjudged 9 of 19; a net taught those would learn that surrounding
/// wins, which is what it should unlearn. The cap misjudges too, since the squeeze scores a
/// shut ring past it: of 583 games of g16 (seed 61) that reached it for the attackers and were
/// played out (`--adjudicate-plies 0`), 243 were drawn (docs/history/strength-log.md). The networks learn
/// the scores alone (`hnefi train --lambda 0`), so it has cut only the drawn rings' shuffles.
pub const ADJUDICATE_CP: i32 = SCORE_CAP;

/// The default plies in a row that the score must stay past [`ADJUDICATE_CP`], for one side,
/// before the game is adjudicated: both sides' searches agree.
pub const ADJUDICATE_PLIES: usize = 2;

/// The generator of game `g` of a run seeded `seed`: both numbers are hashed before they are
/// combined, so that neighbouring games and neighbouring seeds get unrelated streams.
pub fn game_rng(seed: u64, g: u64) -> SplitMix64 {
    let a = SplitMix64::new(seed).next_u64();
    let b = SplitMix64::new(g ^ 0x5851_F42D_4C95_7F2D).next_u64();
    SplitMix64::new(a ^ b)
}

/// What a run plays.
#[derive(Clone, Debug)]
pub struct DatagenSettings {
    pub rules: Rules,
    /// The start of every game before its opening, a FEN of the rules' board.
    pub start: String,
    /// Positions to play on instead (FENs of the rules' board): game `g` from `starts[g % N]`
    /// after `random_plies` random moves, with no opening and no balance check. Such starts are
    /// chosen, not drawn, like the surrounded kings the attackers must finish (issue 46).
    pub starts: Vec<String>,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Nodes searched per move by the defenders, when they get more than the attackers: a
    /// deep defense, against which surrounding the king without capturing draws, as it does
    /// against strong engines, rather than wins, as it does against an equal defense. `None`:
    /// `nodes`.
    pub defender_nodes: Option<u64>,
    /// Nodes searched to judge whether a start is even.
    pub balance_nodes: u64,
    /// Plies of a real game's opening at the start.
    pub book_plies: usize,
    /// Random legal moves after the opening.
    pub random_plies: usize,
    /// A start is kept when its score is within this many cp of 0.
    pub balance: i32,
    /// A game still going after this many plies, counted from the initial position with the
    /// opening included, is stopped and counted as a draw.
    pub max_plies: usize,
    /// A game is won by a side once the score has been at least this many cp for it ...
    pub adjudicate_cp: i32,
    /// ... for this many plies in a row; 0 plays every game out.
    pub adjudicate_plies: usize,
    pub seed: u64,
    /// Games in the whole run, numbered `0..games`.
    pub games: u64,
    /// Shard `.0` (from 1) of `.1`.
    pub shard: (u64, u64),
    /// Transposition table of each game's engine.
    pub hash_mb: usize,
    /// The evaluation the games are played with.
    pub eval: EvalKind,
    /// The network of [`EvalKind::Nnue`]; without one, the one built into the binary.
    pub net: Option<Arc<QuantisedNetwork>>,
}

impl Default for DatagenSettings {
    fn default() -> DatagenSettings {
        DatagenSettings {
            rules: Rules::default(),
            start: crate::board::START_FEN.to_string(),
            starts: Vec::new(),
            nodes: 5000,
            defender_nodes: None,
            balance_nodes: 20_000,
            book_plies: 8,
            random_plies: 2,
            balance: 300,
            max_plies: 300,
            adjudicate_cp: ADJUDICATE_CP,
            adjudicate_plies: ADJUDICATE_PLIES,
            seed: 1,
            games: 1000,
            shard: (1, 1),
            hash_mb: 16,
            eval: EvalKind::default(),
            net: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    #[error(
        "nodes per move and nodes to judge a start must be at least 1 (--nodes, \
         --defender-nodes, --balance-nodes)"
    )]
    NoNodes,
    #[error("the balance band must be 0 cp or more (--balance), not {0}")]
    Balance(i32),
    #[error(
        "--adjudicate-cp {0}: a game is decided past a positive score, at most {SCORE_CAP} \
         (a found win)"
    )]
    Adjudicate(i32),
    #[error(
        "--max-plies {max} leaves no room to play after {start} plies of opening and random \
         moves; raise --max-plies or lower --book-plies/--random-plies"
    )]
    MaxPlies { max: usize, start: usize },
    #[error("shard {index}/{count}: need 1 <= I <= N, as in --shard 2/4")]
    Shard { index: u64, count: u64 },
    #[error("--games {0}: at most {GAME_NUMBER_STRIDE} games per seed; use more seeds")]
    TooManyGames(u64),
    #[error("--seed {0} is too large: seed * {GAME_NUMBER_STRIDE} + game must fit in 64 bits")]
    SeedTooLarge(u64),
    #[error(
        "no game of the games file has more than {0} plies that replay legally; \
         lower --book-plies or check the file"
    )]
    NoBook(usize),
    #[error(
        "game {game}: none of {tries} starts scored within {balance} cp of even; \
         widen --balance or shorten --random-plies"
    )]
    NoBalancedStart { game: u64, tries: u32, balance: i32 },
    #[error("engine: {0} (--hash)")]
    Engine(crate::search::OptionsError),
    #[error("game {game}: the engine chose {mv}, which is not legal here (a search bug)")]
    IllegalMove { game: u64, mv: String },
    #[error("cannot use {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{} is not empty; pass --skip-existing to resume the run that wrote it, \
         or write to another file",
        .0.display()
    )]
    OutputExists(PathBuf),
    #[error(
        "{}:{line}: not a training sample of this board ({why}); --skip-existing resumes \
         only a file written by datagen with the same rules",
        path.display()
    )]
    NotSamples {
        path: PathBuf,
        line: usize,
        why: String,
    },
    #[error("the start position {fen:?} is not a board of these rules: {why}")]
    Start { fen: String, why: String },
    /// A chosen start is over, or every random continuation of it tried ended the game.
    #[error(
        "game {game}: the start {fen:?} is over, or its random continuations all ended it; \
         leave it out of --starts or give fewer --random-plies"
    )]
    StartOver { game: u64, fen: String },
    #[error(
        "{}: holds game {game}, which is not a game of this run (seed {seed}, games 0..{games}); \
         resume with the settings that wrote it, or write to another file",
        path.display()
    )]
    ForeignGame {
        path: PathBuf,
        game: u64,
        seed: u64,
        games: u64,
    },
    #[error("cannot start worker threads: {0}")]
    Threads(#[source] rayon::ThreadPoolBuildError),
    #[error(
        "{} was written by another run or shard; resume it with the settings and --shard that \
         wrote it, or write to another file:\n  it holds: {}\n  this run: {}",
        .path.display(), .theirs.trim_end(), .ours.trim_end()
    )]
    OtherRun {
        path: PathBuf,
        theirs: String,
        ours: String,
    },
    #[error(transparent)]
    Shards(#[from] crate::cluster::shard::ShardError),
    #[error(
        "{}: shard {index}/{count} holds {held} of its {expected} games; resume it (the same \
         command with --skip-existing) before merging",
        path.display()
    )]
    Unfinished {
        path: PathBuf,
        index: u32,
        count: u32,
        held: usize,
        expected: usize,
    },
}

/// `rules` as a user writes them: a preset's name, or else the OpenTafl rules string with the
/// start `start` (a FEN of the board of `G`).
fn rules_text<G: Geometry>(rules: &Rules, start: &str) -> String {
    use crate::board::notation::to_opentafl;
    use crate::board::opentafl::rules_string;
    if *rules == Rules::preset(rules.preset) {
        return rules.preset.name().to_string();
    }
    let start = Board::<G>::from_fen(start)
        .map(|board| to_opentafl(&board))
        .unwrap_or_default();
    rules_string(rules, &start)
}

/// The command name in the header of datagen's shard files.
pub const HEADER_KIND: &str = "datagen";

impl DatagenSettings {
    pub fn check(&self) -> Result<(), DatagenError> {
        if self.nodes == 0 || self.balance_nodes == 0 || self.defender_nodes == Some(0) {
            return Err(DatagenError::NoNodes);
        }
        if self.balance < 0 {
            return Err(DatagenError::Balance(self.balance));
        }
        if !(1..=SCORE_CAP).contains(&self.adjudicate_cp) {
            return Err(DatagenError::Adjudicate(self.adjudicate_cp));
        }
        let start = self.book_plies + self.random_plies;
        if self.max_plies <= start {
            return Err(DatagenError::MaxPlies {
                max: self.max_plies,
                start,
            });
        }
        let (index, count) = self.shard;
        if index == 0 || index > count {
            return Err(DatagenError::Shard { index, count });
        }
        if self.games > GAME_NUMBER_STRIDE {
            return Err(DatagenError::TooManyGames(self.games));
        }
        if self.seed > u64::MAX / GAME_NUMBER_STRIDE - 1 {
            return Err(DatagenError::SeedTooLarge(self.seed));
        }
        Ok(())
    }

    /// The header line of this run's output: everything that decides its games (not the
    /// threads, which only decide their order), the openings `book` among them.
    pub fn header<G: Geometry>(&self, book: &[Vec<Move<G>>]) -> crate::cluster::shard::Header {
        let book_text: String = book
            .iter()
            .map(|line| line.iter().map(|m| format!("{m} ")).collect::<String>() + "\n")
            .collect();
        let net = match &self.net {
            Some(net) => format!("{:016x}", crate::cluster::shard::fnv1a(&net.to_bytes())),
            None => "built-in".to_string(),
        };
        // Only runs with a deep defense name it, so that older runs' headers, and resuming
        // them, stay as they were.
        let defense = match self.defender_nodes {
            Some(n) => format!("defender nodes {n}; "),
            None => String::new(),
        };
        let starts = if self.starts.is_empty() {
            String::new()
        } else {
            let text = self.starts.join("\n");
            format!(
                "starts {} ({:016x}); ",
                self.starts.len(),
                crate::cluster::shard::fnv1a(text.as_bytes())
            )
        };
        let settings = format!(
            "games {}; seed {}; nodes {}; {defense}balance nodes {}; book plies {} ({} openings, {:016x}); \
             random plies {}; balance {} cp; max plies {}; adjudicate {} cp for {} plies; \
             duplicates skipped; hash {} MB; eval {:?}; net {net}; {starts}start {}; rules {}",
            self.games,
            self.seed,
            self.nodes,
            self.balance_nodes,
            self.book_plies,
            book.len(),
            crate::cluster::shard::fnv1a(book_text.as_bytes()),
            self.random_plies,
            self.balance,
            self.max_plies,
            self.adjudicate_cp,
            self.adjudicate_plies,
            self.hash_mb,
            self.eval,
            self.start,
            rules_text::<G>(&self.rules, &self.start),
        );
        let (index, count) = self.shard;
        let shard = (
            u32::try_from(index).unwrap_or(u32::MAX),
            u32::try_from(count).unwrap_or(u32::MAX),
        );
        crate::cluster::shard::Header::new(HEADER_KIND, &settings, shard)
    }

    /// The `GAME` field of game `g`.
    pub fn game_number(&self, g: u64) -> u64 {
        self.seed * GAME_NUMBER_STRIDE + g
    }

    /// The games `g` this shard plays, in order.
    pub fn shard_games(&self) -> impl Iterator<Item = u64> + use<> {
        let (index, count) = self.shard;
        (index.saturating_sub(1)..self.games).step_by(count.max(1) as usize)
    }
}

/// The openings to start from: the first `plies` moves of every real game that has more moves
/// than that, legal under `rules` with the game still going at their end. Repeats are kept,
/// so that openings are drawn as often as people played them.
pub fn book_from_games(games_csv: &str, plies: usize, rules: Rules) -> Vec<Vec<Move<Standard>>> {
    read_games(games_csv)
        .into_iter()
        .filter(|(_, g)| g.moves.len() > plies)
        .map(|(_, g)| g.moves[..plies].iter().map(|m| m.mv).collect::<Vec<_>>())
        .filter(|line| {
            // Rules of another board than the real games' 11x11 take none of them.
            let Ok(mut pos) = Position::start(rules) else {
                return false;
            };
            line.iter().all(|&mv| pos.try_play(mv).is_ok()) && pos.outcome().is_none()
        })
        .collect()
}

/// A score in cp from the attackers' view, decided games written as +/-[`SCORE_CAP`].
pub fn attackers_cp(score: Score, side_to_move: Side) -> i32 {
    let cp = if score.is_decisive() {
        SCORE_CAP * score.0.signum()
    } else {
        score.0.clamp(-SCORE_CAP, SCORE_CAP)
    };
    match side_to_move {
        Side::Attackers => cp,
        Side::Defenders => -cp,
    }
}

/// One self-play game.
#[derive(Clone, Debug)]
pub struct SelfPlayGame<G: Geometry> {
    /// The game's `g` within the run (its `GAME` field is [`DatagenSettings::game_number`]).
    pub index: u64,
    /// Every position from the start on while the game was going, in order.
    pub samples: Vec<Sample<G>>,
    pub result: GameResult,
    /// Starts drawn before one was even enough.
    pub start_tries: u32,
    /// Whether the score decided the game ([`DatagenSettings::adjudicate_plies`]), not the rules.
    pub adjudicated: bool,
    /// Positions searched again later in the game, not kept twice.
    pub duplicates: u64,
}

impl<G: Geometry> SelfPlayGame<G> {
    /// The game's lines, each ending in a newline.
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(self.samples.len() * 64);
        for s in &self.samples {
            out.push_str(&s.to_string());
            out.push('\n');
        }
        out
    }
}

/// A search to `nodes` nodes. A score means something only once the first iteration has
/// finished, which a small node count may not allow (the best move then stands at minus
/// infinity); such a search is redone to depth 1, whatever that costs, which keeps it
/// deterministic.
fn searched<G: Size>(
    engine: &mut Searcher<G>,
    pos: &Position<G>,
    nodes: u64,
) -> crate::search::SearchResult<G> {
    let found = engine.search(
        pos,
        Go {
            nodes: Some(nodes),
            ..Go::default()
        },
    );
    if found.depth > 0 {
        return found;
    }
    engine.search(
        pos,
        Go {
            depth: Some(1),
            ..Go::default()
        },
    )
}

/// Plays `plies` uniformly random legal moves, fewer if the side to move has none.
fn random_moves<G: Geometry>(pos: &mut Position<G>, plies: usize, rng: &mut SplitMix64) {
    let mut list = MoveList::new();
    for _ in 0..plies {
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        pos.play(list[rng.below(list.len())]);
    }
}

/// Game `g`'s chosen start (see [`DatagenSettings::starts`]) and its random moves, tried
/// again while they end the game.
fn chosen_start<G: Size>(
    settings: &DatagenSettings,
    g: u64,
    rng: &mut SplitMix64,
) -> Result<(Position<G>, u32), DatagenError> {
    let fen = &settings.starts[(g % settings.starts.len() as u64) as usize];
    let board = Board::<G>::from_fen(fen).map_err(|e| DatagenError::Start {
        fen: fen.clone(),
        why: e.to_string(),
    })?;
    let tries = if settings.random_plies == 0 {
        1
    } else {
        MAX_START_TRIES
    };
    for tries in 1..=tries {
        let mut pos = Position::new(board, settings.rules);
        random_moves(&mut pos, settings.random_plies, rng);
        if pos.outcome().is_none() {
            return Ok((pos, tries));
        }
    }
    Err(DatagenError::StartOver {
        game: g,
        fen: fen.clone(),
    })
}

/// Draws starts until one is legal, still going and scored within the band.
fn pick_start<G: Size>(
    settings: &DatagenSettings,
    book: &[Vec<Move<G>>],
    g: u64,
    rng: &mut SplitMix64,
    engine: &mut Searcher<G>,
) -> Result<(Position<G>, u32), DatagenError> {
    if !settings.starts.is_empty() {
        return chosen_start(settings, g, rng);
    }
    let start = start_board::<G>(settings)?;
    let no_opening: [Vec<Move<G>>; 1] = [Vec::new()];
    let book = if book.is_empty() { &no_opening } else { book };
    for tries in 1..=MAX_START_TRIES {
        let opening = &book[rng.below(book.len())];
        let mut pos = Position::new(start, settings.rules);
        if opening.iter().any(|&mv| pos.try_play(mv).is_err()) {
            continue;
        }
        random_moves(&mut pos, settings.random_plies, rng);
        if pos.outcome().is_some() {
            continue;
        }
        // Every search starts from an empty table, so that a start's verdict depends on the
        // start alone and not on the starts rejected before it.
        engine.clear();
        let score = searched(engine, &pos, settings.balance_nodes).score;
        if !score.is_decisive() && score.0.abs() <= settings.balance {
            return Ok((pos, tries));
        }
    }
    Err(DatagenError::NoBalancedStart {
        game: g,
        tries: MAX_START_TRIES,
        balance: settings.balance,
    })
}

/// Plays game `g` of the run with `engine` (which should search on one thread, for the game to
/// be reproducible).
pub fn play_game<G: Size>(
    settings: &DatagenSettings,
    book: &[Vec<Move<G>>],
    g: u64,
    engine: &mut Searcher<G>,
) -> Result<SelfPlayGame<G>, DatagenError> {
    let mut rng = game_rng(settings.seed, g);
    let (mut pos, start_tries) = pick_start(settings, book, g, &mut rng, engine)?;
    engine.clear();
    let game = settings.game_number(g);
    let mut samples: Vec<(Board<G>, i32, Move<G>)> = Vec::new();
    let mut seen: HashSet<Board<G>> = HashSet::new();
    let mut streak = Streak::default();
    let mut adjudicated = false;
    let mut duplicates = 0;
    let result = loop {
        if let Some(outcome) = pos.outcome() {
            break GameResult::of(outcome.winner);
        }
        if pos.plies() >= settings.max_plies {
            break GameResult::Draw;
        }
        let nodes = match pos.side_to_move() {
            Side::Defenders => settings.defender_nodes.unwrap_or(settings.nodes),
            Side::Attackers => settings.nodes,
        };
        let found = searched(engine, &pos, nodes);
        let Some(mv) = found.best else {
            // Only a finished game has no move, and that was looked at above.
            break GameResult::Draw;
        };
        let cp = attackers_cp(found.score, pos.side_to_move());
        if seen.insert(*pos.board()) {
            samples.push((*pos.board(), cp, mv));
        } else {
            duplicates += 1;
        }
        if let Some(winner) = streak.add(cp, settings) {
            adjudicated = true;
            break winner;
        }
        if pos.try_play(mv).is_err() {
            return Err(DatagenError::IllegalMove {
                game: g,
                mv: mv.to_string(),
            });
        }
    };
    Ok(SelfPlayGame {
        index: g,
        samples: samples
            .into_iter()
            .map(|(board, score, best)| Sample {
                board,
                score: Some(score),
                result,
                game,
                best: Some(best),
            })
            .collect(),
        result,
        start_tries,
        adjudicated,
        duplicates,
    })
}

/// The plies in a row that the score has been past the adjudication bound, and for whom.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Streak {
    /// The side the score favoured by [`DatagenSettings::adjudicate_cp`] or more; none when it was
    /// within the bound.
    side: Option<Side>,
    plies: usize,
}

impl Streak {
    /// Counts the next ply's score (cp from the attackers' view); the game's result once it
    /// has been past the bound for [`DatagenSettings::adjudicate_plies`] plies.
    fn add(&mut self, cp: i32, settings: &DatagenSettings) -> Option<GameResult> {
        let side = if cp >= settings.adjudicate_cp {
            Some(Side::Attackers)
        } else if cp <= -settings.adjudicate_cp {
            Some(Side::Defenders)
        } else {
            None
        };
        self.plies = if side.is_some() && side == self.side {
            self.plies + 1
        } else {
            usize::from(side.is_some())
        };
        self.side = side;
        if settings.adjudicate_plies == 0 || self.plies < settings.adjudicate_plies {
            return None;
        }
        side.map(|s| match s {
            Side::Attackers => GameResult::AttackersWon,
            Side::Defenders => GameResult::DefendersWon,
        })
    }
}

/// Counts over the games of a run.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    pub games: u64,
    pub positions: u64,
    pub attackers: u64,
    pub defenders: u64,
    pub draws: u64,
    pub start_tries: u64,
    /// Games the score decided.
    pub adjudicated: u64,
    /// Positions not kept because their game had met them before.
    pub duplicates: u64,
    pub elapsed: Duration,
}

impl Totals {
    pub fn add<G: Geometry>(&mut self, game: &SelfPlayGame<G>) {
        self.games += 1;
        self.positions += game.samples.len() as u64;
        self.start_tries += game.start_tries as u64;
        self.adjudicated += u64::from(game.adjudicated);
        self.duplicates += game.duplicates;
        match game.result {
            GameResult::AttackersWon => self.attackers += 1,
            GameResult::DefendersWon => self.defenders += 1,
            GameResult::Draw => self.draws += 1,
        }
    }

    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-3)
    }
}

/// Plays the games of the shard except those in `skip` (indices `g`) on `threads` threads
/// (default: all cores), handing each finished game to `each` on the calling thread, in the
/// order they finish. Stops starting games once `stop` is set; an error from a game or from
/// `each` stops the run and is returned.
pub fn run<G: Size>(
    settings: &DatagenSettings,
    book: &[Vec<Move<G>>],
    skip: &HashSet<u64>,
    threads: Option<usize>,
    stop: &AtomicBool,
    mut each: impl FnMut(&SelfPlayGame<G>, &Totals) -> Result<(), DatagenError>,
) -> Result<Totals, DatagenError> {
    settings.check()?;
    start_board::<G>(settings)?;
    if settings.book_plies > 0 && book.is_empty() {
        return Err(DatagenError::NoBook(settings.book_plies));
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(n.max(1));
    }
    let pool = pool.build().map_err(DatagenError::Threads)?;
    let todo: Vec<u64> = settings
        .shard_games()
        .filter(|g| !skip.contains(g))
        .collect();
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let (tx, rx) =
        mpsc::sync_channel::<Result<SelfPlayGame<G>, DatagenError>>(2 * pool.current_num_threads());
    let options = Options {
        threads: 1,
        hash_mb: settings.hash_mb.max(1),
        eval: settings.eval,
        net: settings.net.clone(),
        ..Options::default()
    };
    let mut totals = Totals::default();
    std::thread::scope(|s| {
        let (next, halt, todo) = (&next, &halt, &todo);
        let pool = &pool;
        let options = &options;
        s.spawn(move || {
            // Each worker owns one engine for all its games; games pull numbers in order, so
            // an interrupted run has played roughly the first games.
            pool.broadcast(|_| {
                let tx = tx.clone();
                let mut engine = match Searcher::<G>::try_new(options.clone()) {
                    Ok(engine) => engine,
                    Err(e) => {
                        let _ = tx.send(Err(DatagenError::Engine(e)));
                        return;
                    }
                };
                while !stop.load(Ordering::Relaxed) && !halt.load(Ordering::Relaxed) {
                    let Some(&g) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let game = play_game(settings, book, g, &mut engine);
                    let failed = game.is_err();
                    if tx.send(game).is_err() || failed {
                        break;
                    }
                }
            });
        });
        let outcome: Result<(), DatagenError> = (|| {
            for game in rx.iter() {
                let game = game?;
                totals.add(&game);
                totals.elapsed = start.elapsed();
                each(&game, &totals)?;
            }
            Ok(())
        })();
        // Unblock and stop the workers before the scope waits for them.
        halt.store(true, Ordering::Relaxed);
        drop(rx);
        outcome
    })?;
    totals.elapsed = start.elapsed();
    Ok(totals)
}

/// Opens the output for appending whole games ([`Appender`]: a write that fails leaves the
/// games before it, and a run that wrote nothing leaves no file). Without `resume`, refuses a
/// file that already holds data, so that a run is never silently added twice. With `resume`,
/// returns the games `g` already in the file: the file is cut back first to the end of its
/// last complete line and then to the start of its last game, since only that game can have
/// been cut short (games are written whole, one after another), and the run plays it again.
pub fn open_output<G: Geometry>(
    path: &Path,
    settings: &DatagenSettings,
    header: &crate::cluster::shard::Header,
    resume: bool,
) -> Result<(Appender, HashSet<u64>), DatagenError> {
    let io = |source| DatagenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = Appender::open(path).map_err(io)?;
    if file.is_empty() {
        file.append(header.line().as_bytes()).map_err(io)?;
        return Ok((file, HashSet::new()));
    }
    if !resume {
        return Err(DatagenError::OutputExists(path.to_path_buf()));
    }
    let mut reader = BufReader::new(file.file());
    reader.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut first = String::new();
    reader.read_line(&mut first).map_err(io)?;
    // Files from before headers resume as they always did; a header must be this run's.
    if first.starts_with("# hnefi ") && Header::parse(&first, HEADER_KIND).as_ref() != Some(header)
    {
        return Err(DatagenError::OtherRun {
            path: path.to_path_buf(),
            theirs: first,
            ours: header.line(),
        });
    }
    reader.seek(SeekFrom::Start(0)).map_err(io)?;
    let (keep, done) = resume_point::<G>(reader, path, settings)?;
    if keep < file.len() {
        file.truncate(keep).map_err(io)?;
    }
    Ok((file, done))
}

/// Reads a datagen output: where to cut it (see [`open_output`]) and the games `g` it holds
/// before that point.
pub fn resume_point<G: Geometry>(
    mut reader: impl BufRead,
    path: &Path,
    settings: &DatagenSettings,
) -> Result<(u64, HashSet<u64>), DatagenError> {
    let mut done = HashSet::new();
    // The last game seen, and the offset where its lines begin.
    let mut last: Option<(u64, u64)> = None;
    let mut offset = 0u64;
    // Where the comment lines before the first game end.
    let mut kept = 0u64;
    let mut buf = Vec::new();
    for number in 1.. {
        buf.clear();
        let n = reader
            .read_until(b'\n', &mut buf)
            .map_err(|source| DatagenError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        // A last line without its newline was cut short by the interruption: it is dropped
        // with the rest of its game.
        if n == 0 || buf.last() != Some(&b'\n') {
            break;
        }
        if buf.starts_with(b"#") {
            // The header (or a note) stays, whatever else is cut.
            if last.is_none() {
                kept = offset + n as u64;
            }
            offset += n as u64;
            continue;
        }
        let sample = String::from_utf8_lossy(&buf)
            .parse::<Sample<G>>()
            .map_err(|e| DatagenError::NotSamples {
                path: path.to_path_buf(),
                line: number,
                why: e.to_string(),
            })?;
        if last.map(|(game, _)| game) != Some(sample.game) {
            last = Some((sample.game, offset));
        }
        done.insert(sample.game);
        offset += n as u64;
    }
    let Some((last_game, cut)) = last else {
        return Ok((kept, HashSet::new()));
    };
    let first = settings.game_number(0);
    let mut games = HashSet::with_capacity(done.len());
    for &game in &done {
        if game < first || game - first >= settings.games {
            return Err(DatagenError::ForeignGame {
                path: path.to_path_buf(),
                game,
                seed: settings.seed,
                games: settings.games,
            });
        }
        if game != last_game {
            games.insert(game - first);
        }
    }
    Ok((cut, games))
}

/// A number of a datagen header's settings (`games`, `seed`).
fn setting(header: &Header, key: &str) -> Option<u64> {
    header
        .settings
        .split("; ")
        .find_map(|word| word.strip_prefix(key)?.strip_prefix(' ')?.parse().ok())
}

/// Writes the shards `inputs` of one run to `output` as the unsharded run would: its header,
/// then every shard's samples. Refused unless the files are all the shards of one run, each
/// holding every one of its games. Returns the header written and the samples.
pub fn merge_shards(
    inputs: &[PathBuf],
    output: &mut impl std::io::Write,
    output_path: &Path,
) -> Result<(Header, u64), DatagenError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| DatagenError::Io {
            path: path.clone(),
            source,
        }
    };
    let no_header = |path: &Path| crate::cluster::shard::ShardError::NoHeader {
        path: path.to_path_buf(),
        kind: HEADER_KIND.to_string(),
    };
    let open = |path: &Path| -> Result<BufReader<std::fs::File>, DatagenError> {
        Ok(BufReader::new(std::fs::File::open(path).map_err(io(path))?))
    };
    let mut headers = Vec::with_capacity(inputs.len());
    for path in inputs {
        let mut first = String::new();
        open(path)?.read_line(&mut first).map_err(io(path))?;
        let header = Header::parse(&first, HEADER_KIND).ok_or_else(|| no_header(path))?;
        headers.push((path.clone(), header));
    }
    crate::cluster::shard::check(&headers, true)?;
    // A shard cut short and not resumed would leave its games out without a word.
    for (path, header) in &headers {
        let (Some(games), Some(seed)) = (setting(header, "games"), setting(header, "seed")) else {
            return Err(no_header(path).into());
        };
        let (index, count) = header.shard;
        let expected: HashSet<u64> = (u64::from(index) - 1..games)
            .step_by(count as usize)
            .map(|g| seed * GAME_NUMBER_STRIDE + g)
            .collect();
        let mut held = HashSet::new();
        for line in open(path)?.lines() {
            let line = line.map_err(io(path))?;
            // GAME is the fourth field, with or without a best move after it.
            if let Some(game) = line
                .split(';')
                .nth(3)
                .and_then(|g| g.trim().parse::<u64>().ok())
            {
                held.insert(game);
            }
        }
        if !expected.is_subset(&held) {
            return Err(DatagenError::Unfinished {
                path: path.clone(),
                index,
                count,
                held: held.intersection(&expected).count(),
                expected: expected.len(),
            });
        }
    }
    let first = &headers[0].1;
    let whole = Header::new(HEADER_KIND, &first.settings, (1, 1));
    let write = io(output_path);
    output.write_all(whole.line().as_bytes()).map_err(&write)?;
    let mut samples = 0;
    for path in inputs {
        for line in open(path)?.lines() {
            let line = line.map_err(io(path))?;
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            output
                .write_all(format!("{line}\n").as_bytes())
                .map_err(io(output_path))?;
            samples += 1;
        }
    }
    output.flush().map_err(write)?;
    Ok((whole, samples))
}

/// The start of the run's games, before their openings.
fn start_board<G: Geometry>(settings: &DatagenSettings) -> Result<Board<G>, DatagenError> {
    Board::from_fen(&settings.start).map_err(|e| DatagenError::Start {
        fen: settings.start.clone(),
        why: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines 62, 1036 and 7 of copenhagen.csv: openings to start from.
    const GAMES: &str = "\
        d1-d3 g5-i5 f2-i2 f8-b8 k8-c8xb8 f4-i4 k7-i7 f5-f2 e1-e2,1,0,Black\n\
        h1-h3 f8-c8 b6-b9 d6-d3 a4-c4 e7-e10 d11-d10xe10 e6-e10 b9-e9xe10 f6-b6,2,0,White\n\
        d1-d3 h6-h3 k4-k3 g7-g9 h11-i11 g6-i6 h1-i1 g5-j5,0,0,Ongoing\n";

    fn tiny() -> DatagenSettings {
        DatagenSettings {
            nodes: 150,
            balance_nodes: 300,
            book_plies: 4,
            max_plies: 60,
            games: 3,
            seed: 5,
            hash_mb: 1,
            ..DatagenSettings::default()
        }
    }

    #[test]
    fn the_header_names_the_rules_as_users_write_them() {
        use crate::board::{Preset, Seven};
        let brandubh = Rules::preset(Preset::Brandubh);
        let start = Preset::Brandubh.start_fen();
        assert_eq!(rules_text::<Seven>(&brandubh, start), "brandubh");
        let changed = Rules {
            king_hammer: !brandubh.king_hammer,
            ..brandubh
        };
        let text = rules_text::<Seven>(&changed, start);
        assert!(text.starts_with("dim:7 "), "{text}");
        assert!(text.contains("start:/"), "{text}");
        assert!(!text.contains("Rules {"), "{text}");
    }

    fn engine() -> Searcher<Standard> {
        Searcher::new(Options {
            hash_mb: 1,
            ..Options::default()
        })
    }

    #[test]
    fn games_get_unrelated_streams() {
        let firsts: HashSet<u64> = (0..100).map(|g| game_rng(1, g).next_u64()).collect();
        assert_eq!(firsts.len(), 100);
        assert_ne!(game_rng(1, 2).next_u64(), game_rng(2, 1).next_u64());
    }

    #[test]
    fn scores_turn_to_the_attackers_view() {
        assert_eq!(attackers_cp(Score(120), Side::Attackers), 120);
        assert_eq!(attackers_cp(Score(120), Side::Defenders), -120);
        assert_eq!(attackers_cp(Score::win_in(3), Side::Defenders), -SCORE_CAP);
        assert_eq!(attackers_cp(Score::loss_in(2), Side::Defenders), SCORE_CAP);
        assert_eq!(attackers_cp(Score(25_000), Side::Attackers), SCORE_CAP);
    }

    #[test]
    fn settings_are_checked() {
        assert!(tiny().check().is_ok());
        let bad = [
            DatagenSettings { nodes: 0, ..tiny() },
            DatagenSettings {
                defender_nodes: Some(0),
                ..tiny()
            },
            DatagenSettings {
                balance: -1,
                ..tiny()
            },
            DatagenSettings {
                max_plies: 6,
                ..tiny()
            },
            DatagenSettings {
                shard: (3, 2),
                ..tiny()
            },
            DatagenSettings {
                shard: (0, 2),
                ..tiny()
            },
            DatagenSettings {
                games: GAME_NUMBER_STRIDE + 1,
                ..tiny()
            },
            DatagenSettings {
                seed: u64::MAX / 2,
                ..tiny()
            },
            DatagenSettings {
                adjudicate_cp: 0,
                ..tiny()
            },
            DatagenSettings {
                adjudicate_cp: SCORE_CAP + 1,
                ..tiny()
            },
        ];
        for s in bad {
            assert!(s.check().is_err(), "{s:?}");
        }
    }

    #[test]
    fn a_streak_past_the_bound_decides_the_game() {
        let settings = DatagenSettings {
            adjudicate_cp: 500,
            adjudicate_plies: 3,
            ..tiny()
        };
        let run = |scores: &[i32]| {
            let mut streak = Streak::default();
            scores.iter().find_map(|&cp| streak.add(cp, &settings))
        };
        assert_eq!(run(&[600, 700, 500]), Some(GameResult::AttackersWon));
        assert_eq!(
            run(&[-500, -SCORE_CAP, -900]),
            Some(GameResult::DefendersWon)
        );
        // Broken by a score within the bound, or by one past it for the other side.
        assert_eq!(run(&[600, 700, 499, 600, 600]), None);
        assert_eq!(run(&[600, -700, 600, 600]), None);
        assert_eq!(
            run(&[0, 600, -700, -600, -600]),
            Some(GameResult::DefendersWon)
        );
        let off = DatagenSettings {
            adjudicate_plies: 0,
            ..settings
        };
        let mut streak = Streak::default();
        assert!((0..100).all(|_| streak.add(SCORE_CAP, &off).is_none()));
    }

    #[test]
    fn an_adjudicated_game_is_the_start_of_the_game_played_out_and_keeps_no_position_twice() {
        let book = book_from_games(GAMES, 4, tiny().rules);
        let full = DatagenSettings {
            adjudicate_plies: 0,
            ..tiny()
        };
        // A low bound, so that the few nodes of a test decide some games.
        let early = DatagenSettings {
            adjudicate_cp: 150,
            adjudicate_plies: 2,
            ..tiny()
        };
        let mut decided = 0;
        for g in 0..4 {
            let long = play_game(&full, &book, g, &mut engine()).unwrap();
            let short = play_game(&early, &book, g, &mut engine()).unwrap();
            let boards: HashSet<_> = long.samples.iter().map(|s| s.board).collect();
            assert_eq!(boards.len(), long.samples.len(), "game {g}");
            assert!(!long.adjudicated);
            if short.adjudicated {
                decided += 1;
                assert!(short.samples.len() < long.samples.len(), "game {g}");
                for (a, b) in short.samples.iter().zip(&long.samples) {
                    assert_eq!((a.board, a.score), (b.board, b.score), "game {g}");
                }
                let last: Vec<i32> = short.samples[short.samples.len() - 2..]
                    .iter()
                    .map(|s| s.score.unwrap())
                    .collect();
                let winner = if last[1] > 0 {
                    GameResult::AttackersWon
                } else {
                    GameResult::DefendersWon
                };
                assert!(last.iter().all(|cp| cp.abs() >= 150), "{last:?}");
                assert_eq!(short.result, winner);
            } else {
                assert_eq!(short.samples, long.samples);
            }
        }
        assert!(decided > 0);
    }

    #[test]
    fn shards_split_the_games() {
        let s = DatagenSettings {
            games: 10,
            ..tiny()
        };
        let mut all: Vec<u64> = (1..=3)
            .flat_map(|i| {
                DatagenSettings {
                    shard: (i, 3),
                    ..s.clone()
                }
                .shard_games()
            })
            .collect();
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert_eq!(s.game_number(7), 5_000_000_007);
    }

    #[test]
    fn the_book_keeps_games_long_enough() {
        let rules = Rules::default();
        assert_eq!(book_from_games(GAMES, 4, rules).len(), 3);
        assert_eq!(book_from_games(GAMES, 9, rules).len(), 1);
        assert!(book_from_games(GAMES, 10, rules).is_empty());
    }

    /// A deep defense searches more at the defenders' moves only: the game's start is the
    /// same, its line is not, and the run is another run. A run without one keeps the header
    /// it always had, so that older runs still resume.
    #[test]
    fn a_deep_defense_is_another_run_with_the_same_starts() {
        let s = tiny();
        let deep = DatagenSettings {
            defender_nodes: Some(4 * s.nodes),
            ..tiny()
        };
        let book = book_from_games(GAMES, s.book_plies, s.rules);
        let header = s.header(&book).settings;
        assert!(!header.contains("defender nodes"), "{header}");
        assert!(deep.header(&book).settings.contains("defender nodes 600;"));
        assert_ne!(s.header(&book).hash, deep.header(&book).hash);
        let even = play_game(&s, &book, 1, &mut engine()).unwrap();
        let deeper = play_game(&deep, &book, 1, &mut engine()).unwrap();
        assert_eq!(even.samples[0].board, deeper.samples[0].board);
        assert_ne!(even.text(), deeper.text());
    }

    /// Chosen starts are played on in turn, past their random moves, whatever their score; a
    /// run with them names them, and one without keeps its header.
    #[test]
    fn chosen_starts_are_played_on_in_turn() {
        // A sealed ring, the attackers tens of pawns up, and a balanced board.
        let stuck = "11/1a6aa1/1a7a1/8a1a/1a3aaaaak/4a1dddaa/4a1dda2/4adda3/a3a1a4/5a5/11 a";
        let s = DatagenSettings {
            starts: vec![stuck.to_string(), crate::board::START_FEN.to_string()],
            book_plies: 0,
            random_plies: 0,
            ..tiny()
        };
        let header = s.header::<Standard>(&[]).settings;
        assert!(header.contains("starts 2 ("), "{header}");
        assert!(!tiny().header::<Standard>(&[]).settings.contains("starts"));
        let first = play_game(&s, &[], 0, &mut engine()).unwrap();
        assert_eq!(first.samples[0].board, Board::from_fen(stuck).unwrap());
        let second = play_game(&s, &[], 1, &mut engine()).unwrap();
        assert_eq!(second.samples[0].board, Board::start());
        let third = play_game(&s, &[], 2, &mut engine()).unwrap();
        let boards = |game: &SelfPlayGame<Standard>| -> Vec<Board<Standard>> {
            game.samples.iter().map(|sample| sample.board).collect()
        };
        assert_eq!(boards(&third), boards(&first));
        // With random moves the same start gives other games.
        let random = DatagenSettings {
            random_plies: 2,
            ..s.clone()
        };
        let a = play_game(&random, &[], 0, &mut engine()).unwrap();
        let b = play_game(&random, &[], 2, &mut engine()).unwrap();
        assert_ne!(a.samples[0].board, b.samples[0].board);
        // A start that is over, or of another board, is refused by name.
        let over = DatagenSettings {
            starts: vec!["11/11/11/11/11/5a5/11/11/11/11/k10 a".to_string()],
            ..s.clone()
        };
        let err = play_game(&over, &[], 0, &mut engine()).unwrap_err();
        assert!(matches!(err, DatagenError::StartOver { .. }), "{err}");
        let small = DatagenSettings {
            starts: vec!["7/7/7/3k3/7/7/7 a".to_string()],
            ..s
        };
        let err = play_game(&small, &[], 0, &mut engine()).unwrap_err();
        assert!(matches!(err, DatagenError::Start { .. }), "{err}");
    }

    #[test]
    fn a_game_depends_on_its_number_only() {
        let s = tiny();
        let book = book_from_games(GAMES, s.book_plies, s.rules);
        let mut shared = engine();
        let first = play_game(&s, &book, 1, &mut shared).unwrap();
        // The same engine after another game, or a fresh one: the same game.
        play_game(&s, &book, 2, &mut shared).unwrap();
        let again = play_game(&s, &book, 1, &mut shared).unwrap();
        let fresh = play_game(&s, &book, 1, &mut engine()).unwrap();
        assert_eq!(first.text(), again.text());
        assert_eq!(first.text(), fresh.text());
        assert!(!first.samples.is_empty());
        for sample in &first.samples {
            assert_eq!(sample.game, s.game_number(1));
            assert_eq!(sample.result, first.result);
            assert!(sample.score.is_some_and(|c| c.abs() <= SCORE_CAP));
        }
        let lines = first.text();
        for line in lines.lines() {
            assert_eq!(line.parse::<Sample<Standard>>().unwrap().to_string(), line);
        }
        // Never more than the ply limit, the start's plies included.
        assert!(first.samples.len() <= s.max_plies - s.book_plies - s.random_plies);
    }

    #[test]
    fn starts_are_within_the_balance_band() {
        // With the start judged at the node count of a move, the first move's search (from
        // an empty table too) is the judging search again: its score is within the band.
        // The hand evaluation, whose scores of these starts the band was chosen for: a
        // retrained network would move them.
        let s = DatagenSettings {
            balance_nodes: 150,
            balance: 40,
            eval: EvalKind::Hand,
            ..tiny()
        };
        let book = book_from_games(GAMES, s.book_plies, s.rules);
        let mut e = Searcher::new(Options {
            hash_mb: 1,
            eval: EvalKind::Hand,
            ..Options::default()
        });
        for g in 0..4 {
            let game = play_game(&s, &book, g, &mut e).unwrap();
            let first = game.samples[0].score.unwrap();
            assert!(first.abs() <= 40, "game {g}: {first}");
        }
    }

    #[test]
    fn a_run_plays_each_game_of_the_shard_once() {
        let s = tiny();
        let book = book_from_games(GAMES, s.book_plies, s.rules);
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let totals = run(&s, &book, &HashSet::from([1]), Some(2), &stop, |g, _| {
            seen.push(g.index);
            Ok(())
        })
        .unwrap();
        seen.sort();
        assert_eq!(seen, [0, 2]);
        assert_eq!(totals.games, 2);
        assert_eq!(totals.attackers + totals.defenders + totals.draws, 2);
        // An error from the writer ends the run with that error.
        let failed = run(&s, &book, &HashSet::new(), Some(2), &stop, |_, _| {
            Err(DatagenError::NoNodes)
        });
        assert!(matches!(failed, Err(DatagenError::NoNodes)));
        // A run without a book when one is needed says so.
        let no_book = run::<Standard>(&s, &[], &HashSet::new(), Some(1), &stop, |_, _| Ok(()));
        assert!(matches!(no_book, Err(DatagenError::NoBook(4))));
    }

    fn line(game: u64) -> String {
        let start = crate::board::notation::to_fen(&crate::board::Board::start());
        format!("{start};12;d;{game}\n")
    }

    #[test]
    fn resuming_cuts_back_to_the_last_whole_game() {
        let s = tiny();
        let path = Path::new("out.txt");
        let (a, b, c) = (
            line(5_000_000_002),
            line(5_000_000_000),
            line(5_000_000_001),
        );
        let text = format!("{a}{a}{b}{b}{c}{c}");
        let (cut, done) = resume_point::<Standard>(text.as_bytes(), path, &s).unwrap();
        // The last game may have been cut short: it is played again.
        assert_eq!(cut as usize, 4 * a.len());
        assert_eq!(done, HashSet::from([2, 0]));
        // A line cut short is dropped with its game.
        let partial = format!("{a}{b}{}", &c[..20]);
        let (cut, done) = resume_point::<Standard>(partial.as_bytes(), path, &s).unwrap();
        assert_eq!((cut as usize, done), (a.len(), HashSet::from([2])));
        let (cut, done) = resume_point::<Standard>(&b""[..], path, &s).unwrap();
        assert_eq!((cut, done.len()), (0, 0));
        // Lines of something else, or games of another run, are refused.
        let junk = format!("{a}hello\n{b}");
        assert!(matches!(
            resume_point::<Standard>(junk.as_bytes(), path, &s),
            Err(DatagenError::NotSamples { line: 2, .. })
        ));
        let foreign = format!("{}{a}", line(7));
        assert!(matches!(
            resume_point::<Standard>(foreign.as_bytes(), path, &s),
            Err(DatagenError::ForeignGame { game: 7, .. })
        ));
    }
}
