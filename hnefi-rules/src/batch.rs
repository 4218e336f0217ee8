//! [`Batch`]: many games of one size and rules stepped together, one call a ply for all of
//! them. A learner's vector of environments then costs one call into the library a step, not
//! one a game, and the games are spread over the cores.

use crate::board::sizes::{AnySize, PerSize};
use crate::board::{Geometry, Outcome};
use crate::board::{Move, MoveList, Position, Square};
use crate::each_size;
use crate::game::{Game, GameError, PLANES, Positions, write_planes};
use crate::parallel::*;
use crate::splitmix::SplitMix64;

/// Below this many games a step stays on the calling thread: rayon's hand-off costs more
/// than the plies.
const SERIAL_BELOW: usize = 32;

/// Why a batch could not be made or stepped; a refused step changes no game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// A batch of no games.
    #[error("a batch holds at least one game")]
    Empty,
    /// The actions are not one a game.
    #[error("{given} actions for {games} games: give one action a game")]
    Actions {
        /// How many actions were given.
        given: usize,
        /// How many games the batch holds.
        games: usize,
    },
    /// A game index past the batch's end.
    #[error("game {index} is not in this batch of {games} games (0..{games})")]
    NoSuchGame {
        /// The index given.
        index: usize,
        /// How many games the batch holds.
        games: usize,
    },
    /// An action that is no move on this board: outside `0..side⁴`.
    #[error(
        "game {game}: action {action} is not in 0..{actions} on a {side}x{side} board",
        actions = usize::from(*side).pow(4)
    )]
    ActionRange {
        /// The game's index.
        game: usize,
        /// The action given.
        action: i64,
        /// The board's side.
        side: u8,
    },
    /// A game ended by its ply limit: reset it before stepping it again.
    #[error("game {game} reached its limit of {plies} plies: reset it before stepping it")]
    Truncated {
        /// The game's index.
        game: usize,
        /// The limit.
        plies: u32,
    },
    /// A move the game refuses (not legal there, or the game is over), as a [`Game`] says it.
    #[error("game {game}: {error}")]
    Game {
        /// The game's index.
        game: usize,
        /// Why its game refused the move.
        error: GameError,
    },
}

/// Games of one size and rules played side by side, each from the same start: actions in
/// and arrays out, as a learner's vector of environments wants them.
///
/// An action is `from * side² + to`, squares indexed `rank * side + file` (`a1` is 0), as in
/// [`Game::legal_move_indices`]. After each [`Batch::step`], [`Batch::rewards`] holds +1 for
/// a game its mover just won, -1 for one it lost, else 0; [`Batch::terminated`] marks the games
/// over by the rules and [`Batch::truncated`] those at the ply limit. A finished game stays
/// finished until [`Batch::reset`].
///
/// ```
/// use hnefi_rules::{Batch, Game};
///
/// let mut batch = Batch::new(&Game::new("brandubh", None)?, 4, None, 1)?;
/// let counts = batch.legal_counts();
/// let width = counts.iter().copied().max().unwrap_or(0);
/// let mut legal = vec![0; 4 * width];
/// batch.legal_actions(&mut legal, width);
/// // The first legal action of each game.
/// let actions: Vec<i64> = (0..4).map(|g| legal[g * width]).collect();
/// batch.step(&actions)?;
/// assert_eq!(batch.game(0).moves().len(), 1);
/// // Or a random one each, from the batch's seeded streams.
/// let mut random = vec![0; 4];
/// batch.sample(&mut random);
/// batch.step(&random)?;
/// assert_eq!(batch.game(3).moves().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Batch {
    lanes: AnySize<Lanes>,
    /// The game every lane starts from: the rules, their name, and the history before it.
    start: Game,
    max_plies: Option<u32>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
}

struct Lanes;

impl PerSize for Lanes {
    type Of<G: Geometry> = LanesOf<G>;
}

/// The games of a batch of `G`, and the one they start from, its moves listed already.
struct LanesOf<G: Geometry> {
    start: Lane<G>,
    lanes: Vec<Lane<G>>,
}

/// One game of a batch. Its legal moves are listed only when asked for, and kept until it
/// moves: random play through [`Batch::sample`] never lists them.
#[derive(Clone)]
struct Lane<G: Geometry> {
    position: Position<G>,
    outcome: Option<Outcome>,
    plies: u32,
    legal: MoveList<G>,
    listed: bool,
    rng: SplitMix64,
}

impl<G: Geometry> Lane<G> {
    fn new(position: Position<G>) -> Lane<G> {
        Lane {
            outcome: position.outcome(),
            position,
            plies: 0,
            legal: MoveList::new(),
            listed: false,
            rng: SplitMix64::new(0),
        }
    }

    /// Whether the rules or the ply limit have ended the game.
    fn finished(&self, max_plies: Option<u32>) -> bool {
        self.outcome.is_some() || max_plies.is_some_and(|m| self.plies >= m)
    }

    fn list(&mut self) {
        if !self.listed {
            self.position.legal_moves(&mut self.legal);
            self.listed = true;
        }
    }

    /// The legal moves as listed, none in a finished game.
    fn moves(&self, max_plies: Option<u32>) -> &[Move<G>] {
        debug_assert!(self.listed);
        if self.finished(max_plies) {
            &[]
        } else {
            &self.legal
        }
    }

    fn action(mv: Move<G>) -> i64 {
        (mv.from().index() * G::SQUARES + mv.to().index()) as i64
    }

    /// The squares of an action, if both are on the board.
    fn squares_of(action: i64) -> Option<(Square<G>, Square<G>)> {
        let squares = i64::try_from(G::SQUARES).ok()?;
        if !(0..squares * squares).contains(&action) {
            return None;
        }
        let square = |i: i64| Square::<G>::new(u8::try_from(i).ok()?);
        Some((square(action / squares)?, square(action % squares)?))
    }
}

impl Batch {
    /// `count` games, each from `start`'s position (its history too: a repetition counts
    /// across it), ended by truncation after `max_plies` plies if given; `seed` seeds
    /// [`Batch::sample`], a stream a game.
    pub fn new(
        start: &Game,
        count: usize,
        max_plies: Option<u32>,
        seed: u64,
    ) -> Result<Batch, BatchError> {
        if count == 0 {
            return Err(BatchError::Empty);
        }
        Ok(Batch {
            lanes: each_size!(start.held(), p => lanes(p, count, seed)),
            start: start.clone(),
            max_plies,
            rewards: vec![0.0; count],
            terminated: vec![false; count],
            truncated: vec![false; count],
        })
    }

    /// How many games the batch holds.
    pub fn len(&self) -> usize {
        self.rewards.len()
    }

    /// Never: a batch holds at least one game.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The board's width: 7, 9, 11 or 13.
    pub fn width(&self) -> u8 {
        self.start.width()
    }

    /// Plays one action in every game, or refuses them all with no game changed: actions not
    /// one a game, out of range, not legal where they are played, or for a finished game.
    pub fn step(&mut self, actions: &[i64]) -> Result<(), BatchError> {
        if actions.len() != self.len() {
            return Err(BatchError::Actions {
                given: actions.len(),
                games: self.len(),
            });
        }
        let max_plies = self.max_plies;
        each_size!(&mut self.lanes, lanes => {
            check(&lanes.lanes, actions, max_plies)?;
            step(
                &mut lanes.lanes,
                actions,
                max_plies,
                &mut self.rewards,
                &mut self.terminated,
                &mut self.truncated,
            );
        });
        Ok(())
    }

    /// Starts the games `which` again from the start (every game if `None`).
    pub fn reset(&mut self, which: Option<&[usize]>) -> Result<(), BatchError> {
        let games = self.len();
        if let Some(&index) = which.into_iter().flatten().find(|&&i| i >= games) {
            return Err(BatchError::NoSuchGame { index, games });
        }
        let all: Vec<usize>;
        let which = match which {
            Some(which) => which,
            None => {
                all = (0..games).collect();
                &all
            }
        };
        each_size!(&mut self.lanes, lanes => reset(lanes, which));
        for &i in which {
            self.rewards[i] = 0.0;
            self.terminated[i] = false;
            self.truncated[i] = false;
        }
        Ok(())
    }

    /// Each game's reward for the side that made the last step's move: +1 won, -1 lost, 0.
    pub fn rewards(&self) -> &[f32] {
        &self.rewards
    }

    /// Which games the rules have ended.
    pub fn terminated(&self) -> &[bool] {
        &self.terminated
    }

    /// Which games the ply limit has ended.
    pub fn truncated(&self) -> &[bool] {
        &self.truncated
    }

    /// How many legal moves each game has (none in a finished one).
    pub fn legal_counts(&mut self) -> Vec<usize> {
        let max_plies = self.max_plies;
        each_size!(&mut self.lanes, l => {
            list(&mut l.lanes);
            l.lanes.iter().map(|lane| lane.moves(max_plies).len()).collect()
        })
    }

    /// Writes each game's legal actions into its row of `width` in `out` (`len() * width`
    /// values), in the order of [`Game::legal_move_indices`], the rest of the row -1; `width`
    /// at least the longest of [`Batch::legal_counts`].
    ///
    /// # Panics
    /// If `out` is not `len() * width` long or a game has more than `width` moves.
    pub fn legal_actions(&mut self, out: &mut [i64], width: usize) {
        assert_eq!(out.len(), self.len() * width, "one row of {width} a game");
        let max_plies = self.max_plies;
        each_size!(&mut self.lanes, l => {
            list(&mut l.lanes);
            rows(&l.lanes, out, width, |lane, row| {
                let moves = lane.moves(max_plies);
                assert!(moves.len() <= width, "a row of {width} for {} moves", moves.len());
                let (listed, rest) = row.split_at_mut(moves.len());
                for (slot, &mv) in listed.iter_mut().zip(moves) {
                    *slot = Lane::action(mv);
                }
                rest.fill(-1);
            })
        });
    }

    /// Writes each game's legal actions as a mask: `len()` rows of `side⁴` bytes, 1 at each
    /// legal action.
    ///
    /// # Panics
    /// If `out` is not `len() * side⁴` long.
    pub fn action_masks(&mut self, out: &mut [u8]) {
        let width = usize::from(self.width()).pow(4);
        assert_eq!(out.len(), self.len() * width, "one row of {width} a game");
        let max_plies = self.max_plies;
        each_size!(&mut self.lanes, l => {
            list(&mut l.lanes);
            rows(&l.lanes, out, width, |lane, row| {
                row.fill(0);
                for &mv in lane.moves(max_plies) {
                    row[Lane::action(mv) as usize] = 1;
                }
            })
        });
    }

    /// Writes a legal action of each game, drawn uniformly from its own seeded stream, -1 for
    /// a finished game: random play without listing the moves where the rules allow it.
    ///
    /// # Panics
    /// If `out` is not `len()` long.
    pub fn sample(&mut self, out: &mut [i64]) {
        assert_eq!(out.len(), self.len(), "one action a game");
        let max_plies = self.max_plies;
        each_size!(&mut self.lanes, l => sample(&mut l.lanes, out, max_plies));
    }

    /// Writes each game's position as [`Game::planes`] does: `len()` blocks of
    /// `PLANES * side²` bytes.
    ///
    /// # Panics
    /// If `out` is not that long.
    pub fn observations(&self, out: &mut [u8]) {
        let width = PLANES * usize::from(self.width()).pow(2);
        assert_eq!(out.len(), self.len() * width, "one block of {width} a game");
        each_size!(&self.lanes, l => rows(&l.lanes, out, width, |lane, block| {
            write_planes(&lane.position, block)
        }));
    }

    /// Game `index` as a [`Game`]: its moves since the start, its rules, its outcome.
    ///
    /// # Panics
    /// If `index` is not under [`Batch::len`].
    pub fn game(&self, index: usize) -> Game {
        each_size!(&self.lanes, l => self.start.with_position(hold(l.lanes[index].position.clone())))
    }
}

fn hold<G: Geometry>(position: Position<G>) -> AnySize<Positions> {
    G::hold::<Positions>(position)
}

fn lanes<G: Geometry>(start: &Position<G>, count: usize, seed: u64) -> AnySize<Lanes> {
    let start = Lane::new(start.clone());
    let mut streams = SplitMix64::new(seed);
    let lanes = (0..count)
        .map(|_| Lane {
            rng: SplitMix64::new(streams.next_u64()),
            ..start.clone()
        })
        .collect();
    G::hold::<Lanes>(LanesOf { lanes, start })
}

/// `write` on each lane and its row of `width` in `out`, across the cores for a large batch.
fn rows<G: Geometry, T: Send>(
    lanes: &[Lane<G>],
    out: &mut [T],
    width: usize,
    write: impl Fn(&Lane<G>, &mut [T]) + Sync,
) {
    if width == 0 {
        // Every game finished: rows of nothing to write.
        return;
    }
    if lanes.len() < SERIAL_BELOW {
        lanes
            .iter()
            .zip(out.chunks_mut(width))
            .for_each(|(lane, row)| write(lane, row));
    } else {
        lanes
            .par_iter()
            .zip(out.par_chunks_mut(width))
            .for_each(|(lane, row)| write(lane, row));
    }
}

/// `each` on every lane with its value in `out`, across the cores for a large batch.
fn lanes_mut<G: Geometry, T: Send>(
    lanes: &mut [Lane<G>],
    out: &mut [T],
    each: impl Fn(&mut Lane<G>, &mut T) + Sync,
) {
    if lanes.len() < SERIAL_BELOW {
        lanes
            .iter_mut()
            .zip(out)
            .for_each(|(lane, o)| each(lane, o));
    } else {
        lanes
            .par_iter_mut()
            .zip(out.par_iter_mut())
            .for_each(|(lane, o)| each(lane, o));
    }
}

fn list<G: Geometry>(lanes: &mut [Lane<G>]) {
    let mut unit = vec![(); lanes.len()];
    lanes_mut(lanes, &mut unit, |lane, _| lane.list());
}

fn sample<G: Geometry>(lanes: &mut [Lane<G>], out: &mut [i64], max_plies: Option<u32>) {
    lanes_mut(lanes, out, |lane, action| {
        if lane.finished(max_plies) {
            *action = -1;
            return;
        }
        let mv = if lane.listed {
            lane.legal[lane.rng.below(lane.legal.len())]
        } else {
            let n = lane.rng.below(lane.position.legal_move_count());
            lane.position
                .nth_legal_move(n)
                .expect("n is under the count")
        };
        *action = Lane::action(mv);
    });
}

/// Refuses the step, naming the first game whose action cannot be played.
fn check<G: Geometry>(
    lanes: &[Lane<G>],
    actions: &[i64],
    max_plies: Option<u32>,
) -> Result<(), BatchError> {
    for (game, (lane, &action)) in lanes.iter().zip(actions).enumerate() {
        let Some((from, to)) = Lane::<G>::squares_of(action) else {
            return Err(BatchError::ActionRange {
                game,
                action,
                side: G::SIDE,
            });
        };
        if lane.outcome.is_none()
            && let Some(plies) = max_plies.filter(|&m| lane.plies >= m)
        {
            return Err(BatchError::Truncated { game, plies });
        }
        let allowed = from != to && {
            let mv = Move::new(from, to);
            if lane.listed {
                lane.legal.contains(&mv)
            } else {
                lane.outcome.is_none() && lane.position.check(mv).is_ok()
            }
        };
        if !allowed {
            // The game's own refusal, with its reason: the one place the words are made.
            let mut position = lane.position.clone();
            let error = super::game::play_indices(&mut position, from.index(), to.index())
                .expect_err("a move the rules refuse is refused");
            return Err(BatchError::Game { game, error });
        }
    }
    Ok(())
}

/// Where a step writes a game's reward and whether it was terminated or truncated.
type Outputs<'a> = (&'a mut f32, (&'a mut bool, &'a mut bool));

fn step<G: Geometry>(
    lanes: &mut [Lane<G>],
    actions: &[i64],
    max_plies: Option<u32>,
    rewards: &mut [f32],
    terminated: &mut [bool],
    truncated: &mut [bool],
) {
    let play = |((lane, &action), (reward, (terminated, truncated))): (
        (&mut Lane<G>, &i64),
        Outputs<'_>,
    )| {
        let mover = lane.position.side_to_move();
        let (from, to) = Lane::<G>::squares_of(action).expect("checked");
        lane.position.play(Move::new(from, to));
        lane.plies += 1;
        lane.listed = false;
        lane.outcome = lane.position.outcome();
        *reward = match lane.outcome.and_then(|o| o.winner) {
            Some(winner) if winner == mover => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        *terminated = lane.outcome.is_some();
        *truncated = !*terminated && max_plies.is_some_and(|m| lane.plies >= m);
    };
    if lanes.len() < SERIAL_BELOW {
        lanes
            .iter_mut()
            .zip(actions)
            .zip(
                rewards
                    .iter_mut()
                    .zip(terminated.iter_mut().zip(truncated.iter_mut())),
            )
            .for_each(play);
    } else {
        lanes
            .par_iter_mut()
            .zip(actions)
            .zip(
                rewards
                    .par_iter_mut()
                    .zip(terminated.par_iter_mut().zip(truncated.par_iter_mut())),
            )
            .for_each(play);
    }
}

/// Puts the games `which` back at the start, each keeping its own random stream.
fn reset<G: Geometry>(lanes: &mut LanesOf<G>, which: &[usize]) {
    for &i in which {
        let rng = lanes.lanes[i].rng.clone();
        lanes.lanes[i].clone_from(&lanes.start);
        lanes.lanes[i].rng = rng;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Preset;

    /// A batch against one [`Game`] a lane, move for move, on every board: the same legal
    /// actions, the same positions, the same ends, and the same refusals of any action.
    #[test]
    fn a_batch_plays_as_its_games_do() {
        for preset in Preset::ALL {
            let start = Game::new(preset.name(), None).unwrap();
            let count = 40;
            let mut batch = Batch::new(&start, count, Some(60), 3).unwrap();
            let mut games = vec![start.clone(); count];
            let n = usize::from(start.width());
            let squares = n * n;
            let mut rng = SplitMix64::new(7);
            for ply in 0..80 {
                // Every other ply the legal lists are asked for first: a step checks its
                // actions with them or without.
                let listing = ply % 2 == 0;
                let mut actions = vec![0; count];
                batch.sample(&mut actions);
                if listing {
                    let counts = batch.legal_counts();
                    let width = counts.iter().copied().max().unwrap_or(0) + 3;
                    let mut legal = vec![0; count * width];
                    batch.legal_actions(&mut legal, width);
                    for (g, game) in games.iter().enumerate() {
                        let finished = batch.truncated()[g] || game.outcome().is_some();
                        let expected: Vec<i64> = match finished {
                            true => vec![],
                            false => game
                                .legal_move_indices()
                                .iter()
                                .map(|&(f, t)| (f * squares + t) as i64)
                                .collect(),
                        };
                        let row = &legal[g * width..(g + 1) * width];
                        assert_eq!(row[..counts[g]], expected, "{preset}");
                        assert!(row[counts[g]..].iter().all(|&a| a == -1));
                    }
                }
                let mut planes = vec![0; count * PLANES * squares];
                batch.observations(&mut planes);
                for (g, game) in games.iter().enumerate() {
                    let block = PLANES * squares;
                    assert_eq!(
                        planes[g * block..(g + 1) * block],
                        game.planes(),
                        "{preset}"
                    );
                    // Any action is refused by the batch exactly when the game refuses it.
                    let any = rng.below(squares * squares);
                    let mut alone = Batch::new(&start, 1, Some(60), 0).unwrap();
                    alone.lanes = each_size!(&batch.lanes, l => one_lane(l, g));
                    let refused = alone.step(&[any as i64]).is_err();
                    let finished = batch.truncated()[g] || game.outcome().is_some();
                    let by_game = game
                        .clone()
                        .play_indices(any / squares, any % squares)
                        .is_err();
                    assert_eq!(refused, by_game || finished, "{preset} {any}");
                }
                let finished: Vec<usize> = (0..count).filter(|&g| actions[g] < 0).collect();
                batch.reset(Some(&finished)).unwrap();
                let mut redrawn = vec![0; count];
                batch.sample(&mut redrawn);
                for &g in &finished {
                    games[g] = start.clone();
                    actions[g] = redrawn[g];
                }
                batch.step(&actions).unwrap();
                for (g, game) in games.iter_mut().enumerate() {
                    let a = actions[g] as usize;
                    let mover = game.side_to_move();
                    game.play_indices(a / squares, a % squares).unwrap();
                    assert_eq!(batch.game(g).fen(), game.fen(), "{preset}");
                    assert_eq!(batch.game(g).moves(), game.moves());
                    assert_eq!(batch.terminated()[g], game.outcome().is_some());
                    let reward = match game.outcome().and_then(|o| o.winner) {
                        Some(w) if w == mover => 1.0,
                        Some(_) => -1.0,
                        None => 0.0,
                    };
                    assert_eq!(batch.rewards()[g], reward);
                }
            }
        }
    }

    /// Lane `g` of `lanes` as a batch's only one.
    fn one_lane<G: Geometry>(lanes: &LanesOf<G>, g: usize) -> AnySize<Lanes> {
        G::hold::<Lanes>(LanesOf {
            start: lanes.start.clone(),
            lanes: vec![lanes.lanes[g].clone()],
        })
    }

    #[test]
    fn the_same_seed_draws_the_same_games() {
        let start = Game::new("tablut", None).unwrap();
        let play = |seed: u64| {
            let mut batch = Batch::new(&start, 50, None, seed).unwrap();
            let mut actions = vec![0; 50];
            for _ in 0..10 {
                batch.sample(&mut actions);
                batch.step(&actions).unwrap();
            }
            (0..50).map(|g| batch.game(g).fen()).collect::<Vec<_>>()
        };
        assert_eq!(play(5), play(5));
        assert_ne!(play(5), play(6));
    }

    #[test]
    fn a_refused_step_changes_no_game_and_says_which() {
        let start = Game::new("copenhagen", None).unwrap();
        let mut batch = Batch::new(&start, 3, Some(1), 0).unwrap();
        let d1d3 = 3 * 121 + 2 * 11 + 3;
        let error =
            |batch: &mut Batch, actions: &[i64]| batch.step(actions).unwrap_err().to_string();
        assert_eq!(
            error(&mut batch, &[d1d3, d1d3]),
            "2 actions for 3 games: give one action a game"
        );
        assert_eq!(
            error(&mut batch, &[d1d3, d1d3, 14641]),
            "game 2: action 14641 is not in 0..14641 on a 11x11 board"
        );
        assert_eq!(
            error(&mut batch, &[d1d3, 1, d1d3]),
            "game 1: move 'a1-b1': not legal for the attackers here: there is no piece of the \
             attackers on a1; `legal_moves()` lists the legal ones"
        );
        assert!(batch.game(0).moves().is_empty(), "nothing played");
        batch.step(&[d1d3; 3]).unwrap();
        assert_eq!(batch.truncated(), [true; 3]);
        assert_eq!(batch.legal_counts(), [0; 3]);
        batch.legal_actions(&mut [], 0);
        let e7e9 = (6 * 11 + 4) * 121 + 8 * 11 + 4;
        assert_eq!(
            error(&mut batch, &[e7e9; 3]),
            "game 0 reached its limit of 1 plies: reset it before stepping it"
        );
        assert_eq!(
            batch.reset(Some(&[0, 3])).unwrap_err().to_string(),
            "game 3 is not in this batch of 3 games (0..3)"
        );
        batch.reset(Some(&[1])).unwrap();
        assert_eq!(batch.truncated(), [true, false, true]);
        assert_eq!(batch.game(1).moves().len(), 0);
        assert_eq!(batch.legal_counts()[1], 116);
        assert!(matches!(
            Batch::new(&start, 0, None, 0),
            Err(BatchError::Empty)
        ));
    }
}
