//! Strength levels for people: a weaker engine that loses the way people lose. Below full
//! strength the search is cut short (a node budget that grows with the level, never below
//! three plies, so that a reply that wins at once is always seen), and the move is drawn among
//! the best few lines, a worse line the less likely the further it falls behind, and never
//! one that loses by force while another does not, nor one more than a level's margin behind.

use super::score::Score;
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
    Range(u64),
    #[error("a level is a whole number from {min} to {max}", min = Level::MIN.0, max = Level::MAX.0)]
    NotANumber,
}

/// Lines searched just below full strength, the candidates the move is drawn from; each two
/// levels down add one.
const CANDIDATES: usize = 4;

/// Plies every weakened search completes whatever its budget: three see every reply that
/// wins at once, also by leaving the mover no move (which two plies missed in a real game).
pub const MIN_DEPTH: u32 = 3;

/// The node budget of level 0; each level up allows 40% more.
const BASE_NODES: f64 = 1000.0;
const NODE_GROWTH: f64 = 1.4;

/// At level 0, how far (centipawns, about four attackers) behind the best line a move may be
/// and still be played; the margin shrinks with the square of the levels left to full
/// strength, so that the upper levels differ mostly in depth and the lower ones in care.
const MAX_MARGIN: i32 = 400;

impl Level {
    pub const MIN: Level = Level(0);
    pub const MAX: Level = Level(20);

    pub fn new(level: u64) -> Result<Level, LevelError> {
        u8::try_from(level)
            .ok()
            .filter(|&l| l <= Level::MAX.0)
            .map(Level)
            .ok_or(LevelError::Range(level))
    }

    pub fn get(self) -> u8 {
        self.0
    }

    pub fn is_full(self) -> bool {
        self == Level::MAX
    }

    /// The most nodes a search at this level visits once it has [`MIN_DEPTH`] plies; none at
    /// full strength.
    pub fn node_budget(self) -> Option<u64> {
        (!self.is_full()).then(|| (BASE_NODES * NODE_GROWTH.powi(self.0.into())) as u64)
    }

    /// Lines the search keeps exact for [`Level::choose`]: at least the candidates of the
    /// level below full strength, else `multipv`.
    pub fn lines(self, multipv: usize) -> usize {
        if self.is_full() {
            multipv
        } else {
            multipv.max(CANDIDATES + usize::from(Level::MAX.0 - self.0) / 2)
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
        // Half the margin behind weighs 1/e of the best: a bell whose width is the margin.
        let temperature = f64::from(margin.max(1)) / 2.0;
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
        assert_eq!(Level::MIN.lines(1), 14);
        assert_eq!(Level::new(19).unwrap().lines(1), CANDIDATES);
        assert_eq!(Level::MIN.lines(20), 20);
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
}
