//! The evaluation as a chance of winning: the graph and the judgement of moves work on this
//! bounded scale so that a forced win (a score in the tens of thousands) does not squash every
//! other point of a game to a flat line, and so that a pawn's worth matters more in an even
//! position than in a lost one.

use crate::board::Side;
use crate::search::Score;
use crate::search::eval::weights::SCALE;

/// The attackers' chance of winning for a score from the attackers' view: the same logistic
/// curve the evaluation's weights were fitted with (`hnefi tune`), so that 0.7 means what the
/// real games say it means. Decided games are 1 and 0 however far off the end is.
pub fn attackers_win(score: Score) -> f64 {
    match score.plies_to_end() {
        Some(_) if score > Score::DRAW => 1.0,
        Some(_) => 0.0,
        None => 1.0 / (1.0 + (-SCALE * f64::from(score.0)).exp()),
    }
}

/// The chance of `side` from the attackers' chance.
pub fn for_side(attackers: f64, side: Side) -> f64 {
    match side {
        Side::Attackers => attackers,
        Side::Defenders => 1.0 - attackers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monotonic_and_bounded() {
        let mut scores: Vec<Score> = (-29_000..=29_000).step_by(7).map(Score).collect();
        scores.extend((0..50).map(Score::win_in));
        scores.extend((0..50).map(Score::loss_in));
        scores.extend([Score::WIN, -Score::WIN, Score::DRAW]);
        scores.sort();
        let chances: Vec<f64> = scores.iter().map(|&s| attackers_win(s)).collect();
        assert!(chances.iter().all(|p| (0.0..=1.0).contains(p)));
        assert!(chances.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(attackers_win(Score::DRAW), 0.5);
        assert_eq!(attackers_win(Score::win_in(3)), 1.0);
        assert_eq!(attackers_win(Score::loss_in(3)), 0.0);
        // Where games are decided by play, a pawn still moves the needle.
        assert!(attackers_win(Score(100)) > attackers_win(Score(0)));
        assert!(attackers_win(Score(-300)) < attackers_win(Score(-200)));
        assert_eq!(for_side(0.8, Side::Defenders), 1.0 - 0.8);
    }
}
