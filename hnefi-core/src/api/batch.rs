//! [`Batch`]: many games of one size and rules stepped together, one call a ply for all of
//! them. A learner's vector of environments then costs one call into the library a step, not
//! one a game, and the games are spread over the cores.

use super::game::{Game, GameError, PLANES, Positions, write_planes};
use crate::board::generic::{MoveList, Position};
use crate::board::{Geometry, Outcome};
use crate::each_size;
use crate::search::size::{AnySize, PerSize, Size};
use rayon::prelude::*;

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
/// use hnefi_core::{Batch, Game};
///
/// let mut batch = Batch::new(&Game::new("brandubh", None)?, 4, None)?;
/// let (width, counts) = (batch.widest(), batch.legal_counts());
/// let mut legal = vec![0; 4 * width];
/// batch.legal_actions(&mut legal, width);
/// // The first legal action of each game.
/// let actions: Vec<i64> = (0..4).map(|g| legal[g * width]).collect();
/// batch.step(&actions)?;
/// assert_eq!(batch.game(0).moves().len(), 1);
/// assert_eq!(counts.len(), 4);
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
    type Of<G: Size> = LanesOf<G>;
}

/// The games of a batch of `G`, and the one they start from, its moves listed already.
struct LanesOf<G: Geometry> {
    start: Lane<G>,
    lanes: Vec<Lane<G>>,
}

/// One game of a batch, with its legal moves kept from the last step: a step checks its
/// action against them and the arrays read them, without generating them again.
#[derive(Clone)]
struct Lane<G: Geometry> {
    position: Position<G>,
    legal: MoveList<G>,
    outcome: Option<Outcome>,
    plies: u32,
}

impl<G: Geometry> Lane<G> {
    fn new(position: Position<G>) -> Lane<G> {
        let mut lane = Lane {
            position,
            legal: MoveList::new(),
            outcome: None,
            plies: 0,
        };
        lane.settle();
        lane
    }

    /// Judges the position and lists its moves.
    fn settle(&mut self) {
        self.outcome = self.position.outcome();
        self.position.legal_moves(&mut self.legal);
    }

    fn action(mv: crate::board::generic::Move<G>) -> i64 {
        (mv.from().index() * G::SQUARES + mv.to().index()) as i64
    }
}

impl Batch {
    /// `count` games, each from `start`'s position (its history too: a repetition counts
    /// across it), ended by truncation after `max_plies` plies if given.
    pub fn new(start: &Game, count: usize, max_plies: Option<u32>) -> Result<Batch, BatchError> {
        if count == 0 {
            return Err(BatchError::Empty);
        }
        Ok(Batch {
            lanes: each_size!(start.position(), p => lanes(p, count)),
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

    /// The board's side.
    pub fn side(&self) -> u8 {
        self.start.side()
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

    /// Starts the games `which` again from the start (every game if `which` is `None`).
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

    /// The most legal moves any game has now: the width [`Batch::legal_actions`] needs.
    pub fn widest(&self) -> usize {
        each_size!(&self.lanes, l => l.lanes.iter().map(|l| l.legal.len()).max().unwrap_or(0))
    }

    /// How many legal moves each game has (none in a finished one).
    pub fn legal_counts(&self) -> Vec<usize> {
        each_size!(&self.lanes, l => l.lanes.iter().map(|l| live(l, self.max_plies).len()).collect())
    }

    /// Writes each game's legal actions into its row of `width` in `out` (`len() * width`
    /// values), in the order of [`Game::legal_move_indices`], the rest of the row -1.
    ///
    /// # Panics
    /// If `out` is not `len() * width` long or `width` is under [`Batch::widest`].
    pub fn legal_actions(&self, out: &mut [i64], width: usize) {
        assert_eq!(out.len(), self.len() * width, "one row of {width} a game");
        assert!(width >= self.widest(), "rows of {width} hold fewer than the widest list");
        let max_plies = self.max_plies;
        each_size!(&self.lanes, l => rows(&l.lanes, out, width, |lane, row| {
            let legal = live(lane, max_plies);
            row.fill(-1);
            for (slot, &mv) in row.iter_mut().zip(legal) {
                *slot = Lane::action(mv);
            }
        }));
    }

    /// Writes each game's legal actions as a mask: `len()` rows of `side⁴` bytes, 1 at each
    /// legal action.
    ///
    /// # Panics
    /// If `out` is not `len() * side⁴` long.
    pub fn action_masks(&self, out: &mut [u8]) {
        let width = usize::from(self.side()).pow(4);
        assert_eq!(out.len(), self.len() * width, "one row of {width} a game");
        let max_plies = self.max_plies;
        each_size!(&self.lanes, l => rows(&l.lanes, out, width, |lane, row| {
            row.fill(0);
            for &mv in live(lane, max_plies) {
                row[usize::try_from(Lane::action(mv)).expect("an index")] = 1;
            }
        }));
    }

    /// Writes each game's position as [`Game::planes`] does: `len()` blocks of
    /// `PLANES * side²` bytes.
    ///
    /// # Panics
    /// If `out` is not that long.
    pub fn observations(&self, out: &mut [u8]) {
        let width = PLANES * usize::from(self.side()).pow(2);
        assert_eq!(out.len(), self.len() * width, "one block of {width} a game");
        each_size!(&self.lanes, l => rows(&l.lanes, out, width, |lane, block| {
            write_planes(&lane.position, block)
        }));
    }

    /// Game `index` as a [`Game`]: its moves since the start, its rules, its outcome.
    pub fn game(&self, index: usize) -> Game {
        each_size!(&self.lanes, l => self.start.with_position(hold(l.lanes[index].position.clone())))
    }
}

fn hold<G: Size>(position: Position<G>) -> AnySize<Positions> {
    G::hold::<Positions>(position)
}

fn lanes<G: Size>(start: &Position<G>, count: usize) -> AnySize<Lanes> {
    let start = Lane::new(start.clone());
    G::hold::<Lanes>(LanesOf {
        lanes: vec![start.clone(); count],
        start,
    })
}

/// A lane's moves, none when the ply limit has ended it.
fn live<G: Geometry>(lane: &Lane<G>, max_plies: Option<u32>) -> &[crate::board::generic::Move<G>] {
    if max_plies.is_some_and(|m| lane.plies >= m) {
        &[]
    } else {
        &lane.legal
    }
}

/// `write` on each lane and its row of `width` in `out`, across the cores for a large batch.
fn rows<G: Geometry, T: Send>(
    lanes: &[Lane<G>],
    out: &mut [T],
    width: usize,
    write: impl Fn(&Lane<G>, &mut [T]) + Sync,
) {
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

/// Refuses the step, naming the first game whose action cannot be played.
fn check<G: Size>(
    lanes: &[Lane<G>],
    actions: &[i64],
    max_plies: Option<u32>,
) -> Result<(), BatchError> {
    for (game, (lane, &action)) in lanes.iter().zip(actions).enumerate() {
        if action < 0 || action >= (G::SQUARES * G::SQUARES) as i64 {
            return Err(BatchError::ActionRange {
                game,
                action,
                side: G::SIDE,
            });
        }
        if lane.outcome.is_none()
            && let Some(plies) = max_plies.filter(|&m| lane.plies >= m)
        {
            return Err(BatchError::Truncated { game, plies });
        }
        if !lane.legal.iter().any(|&mv| Lane::action(mv) == action) {
            // The game's own refusal, with its reason: the one place the words are made.
            let squares = G::SQUARES as i64;
            let mut position = lane.position.clone();
            let error = super::game::play_indices(
                &mut position,
                (action / squares) as usize,
                (action % squares) as usize,
            )
            .expect_err("a move the legal list lacks is refused");
            return Err(BatchError::Game { game, error });
        }
    }
    Ok(())
}

fn step<G: Size>(
    lanes: &mut [Lane<G>],
    actions: &[i64],
    max_plies: Option<u32>,
    rewards: &mut [f32],
    terminated: &mut [bool],
    truncated: &mut [bool],
) {
    let play = |(((lane, &action), reward), (terminated, truncated)): (
        ((&mut Lane<G>, &i64), &mut f32),
        (&mut bool, &mut bool),
    )| {
        let mover = lane.position.side_to_move();
        let mv = *lane
            .legal
            .iter()
            .find(|&&mv| Lane::action(mv) == action)
            .expect("checked");
        lane.position.play(mv);
        lane.plies += 1;
        lane.settle();
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
            .zip(rewards.iter_mut())
            .zip(terminated.iter_mut().zip(truncated.iter_mut()))
            .for_each(play);
    } else {
        lanes
            .par_iter_mut()
            .zip(actions)
            .zip(rewards.par_iter_mut())
            .zip(terminated.par_iter_mut().zip(truncated.par_iter_mut()))
            .for_each(play);
    }
}

fn reset<G: Geometry>(lanes: &mut LanesOf<G>, which: &[usize]) {
    for &i in which {
        lanes.lanes[i].clone_from(&lanes.start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Preset;

    /// A batch against one [`Game`] a lane, move for move, on every board: the same legal
    /// actions, the same positions, the same ends.
    #[test]
    fn a_batch_plays_as_its_games_do() {
        for preset in Preset::ALL {
            let start = Game::new(preset.name(), None).unwrap();
            let count = 40;
            let mut batch = Batch::new(&start, count, Some(60)).unwrap();
            let mut games = vec![start.clone(); count];
            let n = usize::from(start.side());
            let squares = n * n;
            let mut rng = crate::splitmix::SplitMix64::new(7);
            for _ply in 0..80 {
                let width = batch.widest();
                let mut legal = vec![0; count * width];
                batch.legal_actions(&mut legal, width);
                let counts = batch.legal_counts();
                let mut planes = vec![0; count * PLANES * squares];
                batch.observations(&mut planes);
                let mut actions = Vec::with_capacity(count);
                for (g, game) in games.iter().enumerate() {
                    let indices: Vec<i64> = game
                        .legal_move_indices()
                        .iter()
                        .map(|&(f, t)| (f * squares + t) as i64)
                        .collect();
                    let finished = batch.truncated()[g] || game.outcome().is_some();
                    let expected: &[i64] = if finished { &[] } else { &indices };
                    assert_eq!(&legal[g * width..g * width + counts[g]], expected, "{preset}");
                    assert!(legal[g * width + counts[g]..(g + 1) * width].iter().all(|&a| a == -1));
                    let block = PLANES * squares;
                    assert_eq!(planes[g * block..(g + 1) * block], game.planes(), "{preset}");
                    actions.push(if expected.is_empty() {
                        -1
                    } else {
                        expected[rng.below(expected.len())]
                    });
                }
                let finished: Vec<usize> = (0..count).filter(|&g| actions[g] < 0).collect();
                batch.reset(Some(&finished)).unwrap();
                for &g in &finished {
                    games[g] = start.clone();
                    let first = games[g].legal_move_indices()[0];
                    actions[g] = (first.0 * squares + first.1) as i64;
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

    #[test]
    fn a_refused_step_changes_no_game_and_says_which() {
        let start = Game::new("copenhagen", None).unwrap();
        let mut batch = Batch::new(&start, 3, Some(1)).unwrap();
        let d1d3 = 3 * 121 + 2 * 11 + 3;
        let error = |batch: &mut Batch, actions: &[i64]| batch.step(actions).unwrap_err().to_string();
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
        assert!(matches!(Batch::new(&start, 0, None), Err(BatchError::Empty)));
    }
}
