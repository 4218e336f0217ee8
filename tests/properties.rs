//! Property tests of the search on boards the rules allow but games rarely reach: any number
//! of pieces anywhere. (The rules' own properties are hnefi-rules/tests/properties.rs.)

use hnefi::board::{Position, Rules};
use proptest::prelude::*;

#[path = "../hnefi-rules/tests/common/crowded.rs"]
mod crowded;
use crowded::crowded;

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
