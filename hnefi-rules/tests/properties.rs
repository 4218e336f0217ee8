//! Property tests of the rules: the incremental key against the key from scratch, undo, boards
//! with any number of pieces, and the parsers fed malformed text.

use hnefi_rules::board::notation::{
    parse_fen, parse_move, parse_opentafl, parse_record_move, to_fen, to_opentafl,
};
use hnefi_rules::board::{Board, Eleven, MoveList, Position, Rulebook, Rules, Side, Square};
use proptest::prelude::*;

#[path = "common/crowded.rs"]
mod crowded;
use crowded::crowded;

fn random_walk(choices: &[usize], rules: Rules) -> Position<Eleven> {
    let mut pos = Position::start(rules).unwrap();
    for &c in choices {
        if pos.outcome().is_some() {
            break;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        pos.try_play(list[c % list.len()])
            .expect("a generated move is legal");
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn boards_with_any_number_of_pieces_read_back_and_count_their_moves(
        cells in prop::collection::vec(prop_oneof![3 => Just(0u8), 2 => Just(1u8), 2 => Just(2u8)], 121),
        king in 0usize..121,
        defenders_move in any::<bool>(),
    ) {
        let b = crowded(&cells, king, defenders_move);
        prop_assert_eq!(parse_fen(&to_fen(&b)).unwrap(), b);
        let mut list = MoveList::new();
        b.generate_moves(&Rulebook::default(), &mut list);
        prop_assert_eq!(list.len() as u64, b.count_moves(&Rulebook::default()) as u64);
        for mv in list.iter() {
            prop_assert!(b.check_move(*mv).is_ok(), "{}", mv);
        }
    }

    #[test]
    fn incremental_key_equals_key_from_scratch(choices in prop::collection::vec(any::<usize>(), 0..160)) {
        let pos = random_walk(&choices, Rules::default());
        let b = pos.board();
        prop_assert_eq!(b.key(), b.compute_key());
        // The FEN and OpenTafl forms give back the same board, key included.
        prop_assert_eq!(parse_fen(&to_fen(b)).unwrap(), *b);
        prop_assert_eq!(parse_opentafl(&to_opentafl(b), b.side_to_move()).unwrap(), *b);
    }

    #[test]
    fn undo_returns_every_earlier_board(choices in prop::collection::vec(any::<usize>(), 0..80)) {
        let mut pos = random_walk(&choices, Rules::default().without_repetition());
        while pos.last_move().is_some() {
            pos.undo();
            prop_assert_eq!(pos.board().key(), pos.board().compute_key());
        }
        prop_assert_eq!(*pos.board(), Board::start());
    }

    #[test]
    fn fen_parser_never_panics(text in "\\PC{0,120}") {
        let _ = parse_fen(&text);
        let _ = parse_opentafl(&text, Side::Attackers);
        let _ = parse_move(&text);
        let _ = parse_record_move(&text);
        let _ = Square::<Eleven>::parse(&text);
    }

    #[test]
    fn mutated_fens_never_panic(pos in 0usize..80, ch in any::<char>(), del in any::<bool>()) {
        let mut fen: Vec<char> = hnefi_rules::board::START_FEN.chars().collect();
        let i = pos % fen.len();
        if del { fen.remove(i); } else { fen.insert(i, ch); }
        let text: String = fen.into_iter().collect();
        if let Ok(b) = parse_fen(&text) {
            prop_assert_eq!(parse_fen(&to_fen(&b)).unwrap(), b);
        }
        let ot: String = text.replace('a', "t").replace('d', "T").replace('k', "K");
        let _ = parse_opentafl(&format!("/{ot}/"), Side::Defenders);
    }

    #[test]
    fn move_text_from_board_alphabet_never_panics(text in "[a-lA-L0-9x\\-]{0,14}") {
        if let Ok(r) = parse_record_move(&text) {
            prop_assert_ne!(r.mv.from(), r.mv.to());
        }
    }
}
