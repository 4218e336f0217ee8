//! Property tests of the search on boards the rules allow but games rarely reach: any number
//! of pieces anywhere. (The rules' own properties are hnefi-rules/tests/properties.rs.)

use hnefi::board::{Bitboard, Board, Position, Rules, Side, Square};
use hnefi::search::size::Standard;
use proptest::prelude::*;

/// A board with any number of pieces: `cells` says per square 0 empty, 1 attacker, 2 defender
/// (restricted squares stay empty), and the king stands on `king`.
fn crowded(cells: &[u8], king: usize, defenders_move: bool) -> Board<Standard> {
    let mut attackers = Bitboard::EMPTY;
    let mut defenders = Bitboard::EMPTY;
    let king = Square::new(king as u8).expect("on the board");
    for (i, &c) in cells.iter().enumerate() {
        let sq = Square::new(i as u8).expect("on the board");
        if sq == king || sq.is_restricted() {
            continue;
        }
        match c {
            1 => attackers = attackers.with(sq),
            2 => defenders = defenders.with(sq),
            _ => {}
        }
    }
    let side = if defenders_move {
        Side::Defenders
    } else {
        Side::Attackers
    };
    Board::new(attackers, defenders, king, side).expect("a playable board")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn boards_with_any_number_of_pieces_evaluate_and_search(
        cells in prop::collection::vec(prop_oneof![3 => Just(0u8), 2 => Just(1u8), 2 => Just(2u8)], 121),
        king in 0usize..121,
        defenders_move in any::<bool>(),
    ) {
        use hnefi::search::{Searcher, Go, Options, eval::evaluate};
        let b = crowded(&cells, king, defenders_move);
        for rules in [Rules::default(), Rules::preset(hnefi::board::Preset::Fetlar)] {
            prop_assert!(!evaluate(&b, &hnefi::board::Rulebook::new(rules)).is_decisive(), "{:?}", b);
            let pos = Position::new(b, rules);
            let mut engine = Searcher::new(Options { hash_mb: 1, ..Options::default() });
            let r = engine.search(&pos, Go { nodes: Some(300), ..Go::default() });
            if let Some(mv) = r.best {
                prop_assert!(b.check_move(mv).is_ok());
            }
        }
    }
}
