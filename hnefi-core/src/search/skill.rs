//! Strength levels for people: a weaker engine that loses the way people lose. The lowest
//! levels play like a beginner: they glance two plies ahead (the hand evaluation after each
//! move and the reply that looks best, no search) and draw among all moves with much noise,
//! but take a win in one and never leave the opponent a win in one while another move avoids
//! it. The levels above glance at fewer and fewer of their moves; the rest, and every move
//! from level 6, come from a search cut short (a node budget that grows with the level, never
//! below three plies, so that a reply that wins at once is always seen), drawn among the best
//! few lines, a worse line the less likely the further it falls behind, and never one that
//! loses by force while another does not, nor one more than a level's margin behind.

use super::eval::evaluate;
use super::params::{
    BASE_NODES, CANDIDATES, GLANCE_NOISE, GLANCE_SHARE, LEVELS_A_CANDIDATE,
    MARGIN_TEMPERATURE_DIVISOR, MAX_MARGIN, NODE_GROWTH,
};
use super::score::Score;
use crate::board::Side;
use crate::board::{Move, MoveList, Position};
use crate::search::size::Size;
use crate::splitmix::{SplitMix64, mix, spread};
use std::fmt;
use std::str::FromStr;

/// How strongly the engine plays, from [`Level::MIN`] (a beginner can win) to [`Level::MAX`]
/// (full strength, the search untouched).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A level that is none of `0..=20`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    #[error("level {0} is outside {min}..{max} ({max} is full strength)", min = Level::MIN.0, max = Level::MAX.0)]
    /// A number outside the range.
    Range(u64),
    #[error("a level is a whole number from {min} to {max}", min = Level::MIN.0, max = Level::MAX.0)]
    /// Not a whole number.
    NotANumber,
}

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(0);
    /// Full strength.
    pub const MAX: Level = Level(20);

    /// The level `level`, if it is one.
    pub fn new(level: u64) -> Result<Level, LevelError> {
        u8::try_from(level)
            .ok()
            .filter(|&l| l <= Level::MAX.0)
            .map(Level)
            .ok_or(LevelError::Range(level))
    }

    /// The level as a number.
    pub fn get(self) -> u8 {
        self.0
    }

    /// Whether this is full strength, the search untouched.
    pub fn is_full(self) -> bool {
        self == Level::MAX
    }

    /// The most nodes a search at this level visits once it has
    /// `MIN_DEPTH` plies; none at
    /// full strength.
    pub fn node_budget(self) -> Option<u64> {
        (!self.is_full()).then(|| (BASE_NODES * NODE_GROWTH.powi(self.0.into())) as u64)
    }

    /// Lines the search keeps exact for [`Level::choose`]: at least the candidates of the
    /// level between the glancing ones and full strength, else `multipv`.
    pub fn lines(self, multipv: usize) -> usize {
        if self.is_full() || self.glance_share() == 1.0 {
            multipv
        } else {
            multipv.max(CANDIDATES + usize::from((Level::MAX.0 - self.0) / LEVELS_A_CANDIDATE))
        }
    }

    /// How far behind the best a played line may be.
    fn margin(self) -> i32 {
        let left = i32::from(Level::MAX.0 - self.0);
        let full = i32::from(Level::MAX.0);
        MAX_MARGIN * left * left / (full * full)
    }

    /// The index of the line to play among `scores`, the exact scores of the searched lines,
    /// best first; `seed` draws it. Full strength, a forced result or a single line: the best.
    pub fn choose(self, scores: &[Score], seed: u64) -> usize {
        let Some(&best) = scores.first() else {
            return 0;
        };
        if self.is_full() || best.is_decisive() {
            return 0;
        }
        let margin = self.margin();
        let temperature = f64::from(margin.max(1)) / MARGIN_TEMPERATURE_DIVISOR;
        let weights: Vec<f64> = scores
            .iter()
            .take_while(|s| !s.is_decisive() && best.0 - s.0 <= margin)
            .map(|s| (-f64::from(best.0 - s.0) / temperature).exp())
            .collect();
        let mut draw = SplitMix64::new(seed).next_f64() * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if draw < *w {
                return i;
            }
            draw -= w;
        }
        0
    }
}

impl Level {
    /// The share of its moves this level picks by [`Level::glance`].
    fn glance_share(self) -> f64 {
        GLANCE_SHARE
            .get(usize::from(self.0))
            .copied()
            .unwrap_or(0.0)
    }

    /// At the glancing levels, for their share of moves drawn by `seed`, the move a beginner
    /// plays among `moves` of `pos`: a win at once
    /// if there is one, else one drawn among those that leave no win at once to the opponent,
    /// weighted by how good the board looks after the opponent's best-looking reply (the hand
    /// evaluation two plies on, no search) under the level's noise. None for the other moves
    /// and levels, or when every move loses at once (the search's best line then holds
    /// longest).
    pub fn glance<G: Size>(
        self,
        pos: &Position<G>,
        moves: &[Move<G>],
        seed: u64,
    ) -> Option<Move<G>> {
        let mut draws = SplitMix64::new(seed);
        if draws.next_f64() >= self.glance_share() {
            return None;
        }
        let side = pos.side_to_move();
        let mut after = pos.clone();
        let mut looks: Vec<(Move<G>, i32)> = Vec::with_capacity(moves.len());
        for &mv in moves {
            after.play(mv);
            let looked = match after.outcome() {
                Some(end) if end.winner == Some(side) => return Some(mv),
                Some(end) => end.winner.is_none().then_some(Score::DRAW.0),
                None => worst_reply(&mut after, side),
            };
            after.undo();
            if let Some(score) = looked {
                looks.push((mv, score));
            }
        }
        let best = looks.iter().map(|&(_, s)| s).max()?;
        let heat = GLANCE_NOISE[usize::from(self.0)];
        let weights: Vec<f64> = looks
            .iter()
            .map(|&(_, s)| (f64::from(s - best) / heat).exp())
            .collect();
        let mut draw = draws.next_f64() * weights.iter().sum::<f64>();
        for (&(mv, _), w) in looks.iter().zip(&weights) {
            if draw < *w {
                return Some(mv);
            }
            draw -= w;
        }
        looks.first().map(|&(mv, _)| mv)
    }
}

/// How the board looks to `side` (the hand evaluation) after the reply of the side to move in
/// `pos` that looks best to that side; None if a reply wins at once (by the king's escape or
/// capture, or by leaving `side` no move).
fn worst_reply<G: Size>(pos: &mut Position<G>, side: Side) -> Option<i32> {
    let mut replies = MoveList::new();
    pos.legal_moves(&mut replies);
    let mut worst = i32::MAX;
    for &reply in &replies {
        pos.play(reply);
        let looks = match pos.outcome() {
            Some(end) if end.winner.is_some_and(|w| w != side) => None,
            Some(end) => Some(if end.winner.is_none() {
                Score::DRAW.0
            } else {
                Score::WIN.0
            }),
            None => Some(evaluate(pos.board(), pos.rulebook()).0),
        };
        pos.undo();
        worst = worst.min(looks?);
    }
    Some(if replies.is_empty() { 0 } else { worst })
}

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(text: &str) -> Result<Level, LevelError> {
        Level::new(text.trim().parse().map_err(|_| LevelError::NotANumber)?)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::MAX
    }
}

/// The draw of a search of the position with `key` under `seed`: the same game and seed give
/// the same moves.
pub fn draw_seed(seed: u64, key: u64) -> u64 {
    mix(seed ^ spread(key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::SEARCHING;

    #[test]
    fn levels_are_bounded_and_budgets_grow() {
        assert_eq!(Level::new(0), Ok(Level::MIN));
        assert_eq!(Level::new(20), Ok(Level::MAX));
        assert_eq!(
            Level::new(21).unwrap_err().to_string(),
            "level 21 is outside 0..20 (20 is full strength)"
        );
        assert!(Level::new(256).is_err());
        assert_eq!(" 7".parse(), Ok(Level(7)));
        assert_eq!(
            "-1".parse::<Level>().unwrap_err().to_string(),
            "a level is a whole number from 0 to 20"
        );
        assert_eq!(Level::default(), Level::MAX);
        assert_eq!(Level::MAX.node_budget(), None);
        assert_eq!(Level::MAX.lines(1), 1);
        assert_eq!(Level::MIN.lines(1), 1, "a glance needs no lines");
        assert_eq!(Level(2).lines(1), 13);
        assert_eq!(Level::new(19).unwrap().lines(1), CANDIDATES);
        assert_eq!(Level(2).lines(20), 20);
        assert_eq!(
            (Level::MIN.margin(), Level::new(10).unwrap().margin()),
            (400, 100)
        );
        let budgets: Vec<u64> = (0..20)
            .map(|l| Level::new(l).unwrap().node_budget().unwrap())
            .collect();
        assert_eq!(budgets[0], 1000);
        assert!(budgets.windows(2).all(|w| w[1] > w[0]), "{budgets:?}");
    }

    #[test]
    fn the_choice_stays_within_the_margin_and_off_forced_losses() {
        let weakest = Level::MIN;
        let scores = [Score(50), Score(40), Score(-500), Score::loss_in(3)];
        let mut seen = [0; 4];
        for seed in 0..1000 {
            seen[weakest.choose(&scores, seed)] += 1;
        }
        assert!(seen[0] > seen[1] && seen[1] > 0, "{seen:?}");
        assert_eq!((seen[2], seen[3]), (0, 0), "{seen:?}");
        // A close loss is no candidate either, nor a line behind a forced win.
        let close = [Score(-20), Score::loss_in(5)];
        let win = [Score::win_in(3), Score(100)];
        for seed in 0..100 {
            assert_eq!(weakest.choose(&close, seed), 0);
            assert_eq!(weakest.choose(&win, seed), 0);
            assert_eq!(Level::MAX.choose(&scores, seed), 0);
        }
        assert_eq!(weakest.choose(&[], 1), 0);
        // The same seed, the same choice.
        let even = [Score(0), Score(0), Score(0), Score(0)];
        let picks: Vec<usize> = (0..20).map(|s| weakest.choose(&even, s)).collect();
        assert_eq!(
            picks,
            (0..20)
                .map(|s| weakest.choose(&even, s))
                .collect::<Vec<_>>()
        );
        assert!(picks.iter().any(|&p| p != picks[0]));
    }

    #[test]
    fn a_glance_takes_a_win_at_once_and_plays_its_share_of_moves() {
        use crate::board::notation::{parse_fen, parse_move};
        use crate::board::{Eleven, Rules};
        let moves = |pos: &crate::board::Position<Eleven>| {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            list
        };
        // The king next to a corner steps into it, whatever the draw.
        let fen = "1k9/11/11/11/11/11/11/11/11/5a5/11 d";
        let win = Position::new(parse_fen(fen).unwrap(), Rules::default());
        let corner = parse_move("b11a11").unwrap();
        for seed in 0..20 {
            assert_eq!(Level::MIN.glance(&win, &moves(&win), seed), Some(corner));
        }
        let start = Position::start(Rules::default()).unwrap();
        let list = moves(&start);
        let share = |level: u8| {
            (0..60)
                .filter(|&seed| Level(level).glance(&start, &list, seed).is_some())
                .count()
        };
        assert_eq!((share(1), share(SEARCHING)), (60, 0));
        assert!((24..=48).contains(&share(2)), "{}", share(2));
    }
}
