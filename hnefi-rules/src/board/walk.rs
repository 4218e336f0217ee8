//! Random games, for tests that check a fast path against the plain one on every board a
//! game passes through.

use super::geometry::Geometry;
use super::moves::MoveList;
use super::position::Board;
use super::rulebook::Rulebook;
use super::rules::{Preset, Rules};
use crate::splitmix::SplitMix64;

/// Calls `each` on every board of `games` random games of `preset` on the board `G` (which
/// must be the preset's), from its start, for at most `plies` plies each: a game ends earlier
/// once won or once the side to move has no move. The same `seed` walks the same games.
pub fn random_boards<G: Geometry>(
    preset: Preset,
    seed: u64,
    games: usize,
    plies: usize,
    mut each: impl FnMut(&Board<G>, &Rulebook<G>),
) {
    let rulebook = Rulebook::<G>::new(Rules::preset(preset));
    let mut rng = SplitMix64::new(seed);
    let mut list = MoveList::new();
    for _ in 0..games {
        let mut board = Board::<G>::from_fen(preset.start_fen()).expect("a preset's start");
        for _ in 0..plies {
            each(&board, &rulebook);
            list.clear();
            board.generate_moves(&rulebook, &mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            board.play(mv, &rulebook);
            if rulebook.mover_win(&board, mv).is_some() {
                break;
            }
        }
    }
}
