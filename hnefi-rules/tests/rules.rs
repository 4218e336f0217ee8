//! Each rule of `RULES.md`, and each captioned picture of the seeds that lost its image, as a
//! test on crafted positions.

use crate::common;

use common::{setup, sq, squares};
use hnefi_rules::board::fort::is_exit_fort;
use hnefi_rules::board::notation::{parse_fen, parse_move, to_fen};
use hnefi_rules::board::{
    Bitboard, Board, Eleven, History, Move, MoveList, Outcome, Position, Preset, Reason, Rulebook,
    Rules, START_FEN, Side,
};

fn mv(text: &str) -> Move<Eleven> {
    parse_move(text).unwrap()
}

/// Plays a legal move on a copy and returns the board after it and the captures.
fn play(board: &Board<Eleven>, text: &str, rules: &Rules) -> (Board<Eleven>, Bitboard<Eleven>) {
    let m = mv(text);
    board
        .check_move(m)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut b = *board;
    let captured = b.play(m, &hnefi_rules::board::Rulebook::new(*rules));
    assert_eq!(b.key(), b.compute_key());
    (b, captured)
}

fn win(board: &Board<Eleven>, text: &str, rules: &Rules) -> Option<Outcome> {
    let (b, _) = play(board, text, rules);
    outcome_after(&b, text, rules)
}

/// The rulebook's verdict on `board` just after the move `text`, history aside.
fn outcome_after(board: &Board<Eleven>, text: &str, rules: &Rules) -> Option<Outcome> {
    Rulebook::new(*rules).outcome(board, Some(mv(text).to()), &History::none())
}

fn cph() -> Rules {
    Rules::default()
}

// ---- Board, coordinates, start ----

#[test]
fn a1_is_bottom_left_and_restricted_squares() {
    assert_eq!(sq("a1").index(), 0);
    assert_eq!(sq("k1").file(), 10);
    assert_eq!(sq("a11").rank(), 10);
    assert_eq!(
        Bitboard::RESTRICTED,
        squares("f6 a1 k1 a11 k11"),
        "throne and four corners"
    );
}

#[test]
fn start_position_counts_and_attackers_first() {
    let b = parse_fen(START_FEN).unwrap();
    assert_eq!(b, Board::start());
    assert_eq!((b.attackers().count(), b.defenders().count()), (24, 12));
    assert_eq!(b.king(), sq("f6"));
    assert_eq!(b.side_to_move(), Side::Attackers);
    assert_eq!(to_fen(&b), START_FEN);
}

// ---- Moves ----

#[test]
fn pieces_move_like_rooks_without_jumping() {
    let b = Board::start();
    assert!(b.check_move(mv("d1d3")).is_ok());
    assert!(b.check_move(mv("d1b1")).is_ok());
    assert!(b.check_move(mv("a4a7")).is_err(), "jumps a5");
    assert!(b.check_move(mv("d1e2")).is_err(), "diagonal");
    let mut list = MoveList::new();
    b.generate_moves(&hnefi_rules::board::Rulebook::default(), &mut list);
    assert_eq!(list.len(), 116);
}

#[test]
fn only_the_king_stops_on_restricted_squares() {
    let b = setup("a: b1; d: f4; k: c11", Side::Attackers);
    assert!(b.check_move(mv("b1a1")).is_err());
    let b = b.with_side_to_move(Side::Defenders);
    assert!(
        b.check_move(mv("c11a11")).is_ok(),
        "the king may enter a corner"
    );
    assert!(
        b.check_move(mv("f4f6")).is_err(),
        "a defender may not stop on the throne"
    );
    let b = setup("a: f2; d: f9; k: c3", Side::Attackers);
    assert!(b.check_move(mv("f2f6")).is_err());
}

#[test]
fn any_piece_passes_the_empty_throne_and_the_king_may_return() {
    let b = setup("a: f2; d: f9; k: c3", Side::Attackers);
    assert!(
        b.check_move(mv("f2f8")).is_ok(),
        "attacker passes the empty throne"
    );
    let b = b.with_side_to_move(Side::Defenders);
    assert!(
        b.check_move(mv("f9f3")).is_ok(),
        "defender passes the empty throne"
    );
    let b = setup("a: a5; d: f9; k: f3", Side::Defenders);
    assert!(
        b.check_move(mv("f3f6")).is_ok(),
        "seed 000 §3: the king may re-enter the throne"
    );
    // An occupied throne blocks.
    let b = setup("a: f2; d: f9; k: f6", Side::Attackers);
    assert!(b.check_move(mv("f2f8")).is_err());
}

#[test]
fn move_notation_forms() {
    assert_eq!(mv("d1-d3"), mv("d1d3"));
    let r = hnefi_rules::board::notation::parse_record_move("e7-k7xk6xj7").unwrap();
    assert_eq!(r.captures, squares("k6 j7"));
}

// ---- Captures ----

#[test]
fn custodial_capture_against_own_piece() {
    let b = setup("a: c4 e2; d: d4; k: h8", Side::Attackers);
    let (_, c) = play(&b, "e2e4", &cph());
    assert_eq!(c, squares("d4"));
}

#[test]
fn king_captures_as_mover_and_as_partner() {
    let b = setup("a: d4; d: ; k: e2", Side::Defenders);
    let b = Board::new(b.attackers(), squares("c6"), b.king(), Side::Defenders).unwrap();
    let (_, c) = play(&b, "e2e4", &cph());
    assert_eq!(c, Bitboard::EMPTY, "d4 needs c4 as partner");
    let b = setup("a: d4; d: c3; k: e2", Side::Defenders);
    let (_, c) = play(&b, "e2e4", &cph());
    assert!(c.is_empty());
    let b = setup("a: d4; d: c2; k: e2", Side::Defenders);
    let (_, c) = play(&b, "c2c4", &cph());
    assert!(c.is_empty(), "king on e2 is not beyond d4");
    let b = setup("a: d4; d: c2; k: e4", Side::Defenders);
    let (_, c) = play(&b, "c2c4", &cph());
    assert_eq!(c, squares("d4"), "the king as far partner");
    let b = setup("a: d4; d: c4; k: e2", Side::Defenders);
    let (_, c) = play(&b, "e2e4", &cph());
    assert_eq!(c, squares("d4"), "the king as the moving piece");
}

#[test]
fn several_captures_and_safe_entry_between_enemies() {
    let b = setup("a: g3 k3 i1 i11; d: h3 j3 i2; k: f6", Side::Attackers);
    let (_, c) = play(&b, "i11i3", &cph());
    assert_eq!(c, squares("h3 j3 i2"));
    // Seed 000 §5a "The piece is not captured": moving between two enemies is safe.
    let b = setup("a: c3 e3; d: d7; k: h8", Side::Defenders);
    let (after, c) = play(&b, "d7d3", &cph());
    assert!(c.is_empty());
    assert!(after.defenders().contains(sq("d3")));
}

#[test]
fn corners_are_hostile_to_everyone() {
    let b = setup("a: b4; d: b1; k: h8", Side::Attackers);
    let (_, c) = play(&b, "b4b2", &cph());
    assert!(c.is_empty());
    let b = setup("a: e1; d: b1; k: h8", Side::Attackers);
    let (_, c) = play(&b, "e1c1", &cph());
    assert_eq!(c, squares("b1"), "defender against the corner");
    let b = setup("a: j11; d: j5; k: c3", Side::Defenders);
    let (_, c) = play(&b, "j5j10", &cph());
    assert!(c.is_empty());
    let b = setup("a: j11; d: h11; k: c3", Side::Defenders);
    let (_, c) = play(&b, "h11i11", &cph());
    assert_eq!(c, squares("j11"), "attacker between i11 and the corner k11");
    let b = setup("a: j11; d: i5; k: c3", Side::Defenders);
    let (_, c) = play(&b, "i5i11", &cph());
    assert_eq!(c, squares("j11"), "attacker against the corner");
}

#[test]
fn throne_hostile_to_attackers_always_to_defenders_only_when_empty() {
    // Attacker on f5 between a defender landing on f4 and the empty throne.
    let b = setup("a: f5; d: c4; k: b9", Side::Defenders);
    assert_eq!(play(&b, "c4f4", &cph()).1, squares("f5"));
    // Also with the king on the throne (he is a defender anyway).
    let b = setup("a: f5; d: c4; k: f6", Side::Defenders);
    assert_eq!(play(&b, "c4f4", &cph()).1, squares("f5"));
    // Defender on f5 against the empty throne.
    let b = setup("a: b4; d: f5; k: b9", Side::Attackers);
    assert_eq!(play(&b, "b4f4", &cph()).1, squares("f5"));
    // Not while the king sits there.
    let b = setup("a: b4; d: f5; k: f6", Side::Attackers);
    assert!(play(&b, "b4f4", &cph()).1.is_empty());
}

#[test]
fn the_edge_is_not_hostile() {
    let b = setup("a: c3; d: b1; k: h8", Side::Attackers);
    let (_, c) = play(&b, "c3b3", &cph());
    assert!(c.is_empty());
    let b = setup("a: c3; d: b2; k: h8", Side::Attackers);
    let (_, c) = play(&b, "c3b3", &cph());
    assert!(c.is_empty(), "b2 between b3 and b1 (empty)");
}

// ---- Shieldwall ----

#[test]
fn shieldwall_basic_and_corner_bracket() {
    // Seed 001: D lands on c1; attackers d1 e1 f1 with defenders in front; g1 brackets.
    let b = setup("a: d1 e1 f1; d: c3 d2 e2 f2 g1; k: h8", Side::Defenders);
    assert_eq!(play(&b, "c3c1", &cph()).1, squares("d1 e1 f1"));
    // A corner stands in for one bracket.
    let b = setup("a: h2 i2 g3; d: i1 j1; k: h8", Side::Attackers);
    assert_eq!(
        play(&b, "g3g1", &cph()).1,
        Bitboard::EMPTY,
        "j1 front j2 empty"
    );
    let b = setup("a: h2 i2 j2 g3; d: i1 j1; k: h8", Side::Attackers);
    assert_eq!(
        play(&b, "g3h3", &cph()).1,
        Bitboard::EMPTY,
        "not on the edge"
    );
    let b = setup("a: i2 j2 g3; d: i1 j1; k: h8", Side::Attackers);
    assert_eq!(
        play(&b, "g3g1", &cph()).1,
        Bitboard::EMPTY,
        "h1 gap: not a bracket"
    );
    let b = setup("a: i2 j2 h3; d: i1 j1; k: h8", Side::Attackers);
    assert_eq!(play(&b, "h3h1", &cph()).1, squares("i1 j1"));
}

#[test]
fn shieldwall_needs_two_and_every_front_and_a_bracket_landing() {
    // A single piece is a custodial matter only.
    let b = setup("a: i2 h3; d: i1; k: e8", Side::Attackers);
    assert!(play(&b, "h3h1", &cph()).1.is_empty());
    // A missing front saves the whole row.
    let b = setup("a: c2 d2 b3 g1; d: c1 d1 e1 f1; k: e8", Side::Attackers);
    let b = Board::new(
        b.attackers() | squares("f2"),
        b.defenders(),
        b.king(),
        Side::Attackers,
    )
    .unwrap();
    assert!(play(&b, "b3b1", &cph()).1.is_empty(), "e1 has no front");
    let b = Board::new(
        b.attackers() | squares("e2"),
        b.defenders(),
        b.king(),
        Side::Attackers,
    )
    .unwrap();
    assert_eq!(play(&b, "b3b1", &cph()).1, squares("c1 d1 e1 f1"));
    // Landing a front piece instead of a bracket captures nothing.
    let b = setup(
        "a: b1 g1 c2 d2 e2 f9; d: c1 d1 e1 f1; k: e8",
        Side::Attackers,
    );
    assert!(play(&b, "f9f2", &cph()).1.is_empty());
}

#[test]
fn shieldwall_with_the_king() {
    // Seed 001: the king in the row is spared, the defender beside him is taken.
    let b = setup("a: f1 i2 j2; d: j1; k: i1", Side::Attackers);
    assert_eq!(play(&b, "f1h1", &cph()).1, squares("j1"));
    // The king as a bracket.
    let b = setup("a: c1 d1; d: c2 d2 e3; k: b3", Side::Defenders);
    assert!(
        play(&b, "e3e1", &cph()).1.is_empty(),
        "b1 empty: no bracket"
    );
    let b = setup("a: c1 d1; d: c2 d2 e3; k: b1", Side::Defenders);
    assert_eq!(
        play(&b, "e3e1", &cph()).1,
        squares("c1 d1"),
        "king brackets on b1"
    );
    // The king as a piece in front.
    let b = setup("a: c1 d1; d: c2 b1 e3; k: d2", Side::Defenders);
    assert_eq!(
        play(&b, "e3e1", &cph()).1,
        squares("c1 d1"),
        "king in front of d1"
    );
    // The king counts toward two (seed 001: king and one defender against a corner).
    let b = setup("a: h3 i2 j2; d: j1; k: i1", Side::Attackers);
    assert_eq!(play(&b, "h3h1", &cph()).1, squares("j1"));
}

#[test]
fn shieldwall_and_custodial_read_one_board() {
    // Landing on g1 closes the shieldwall c1-f1 and the custodial capture of h1 at once.
    let b = setup(
        "a: b1 c2 d2 e2 f2 i1 g5; d: c1 d1 e1 f1 h1; k: h8",
        Side::Attackers,
    );
    let (_, c) = play(&b, "g5g1", &cph());
    assert_eq!(c, squares("c1 d1 e1 f1 h1"));
}

#[test]
fn fetlar_has_no_shieldwall() {
    let b = setup("a: d1 e1 f1; d: c3 d2 e2 f2 g1; k: h8", Side::Defenders);
    let fetlar = Rules::preset(Preset::Fetlar);
    assert!(play(&b, "c3c1", &fetlar).1.is_empty());
}

// ---- The king ----

#[test]
fn escape_to_any_corner_wins() {
    for (from, to) in [("a5", "a1"), ("f1", "k1"), ("a6", "a11"), ("k3", "k11")] {
        let b = Board::new(squares("e5"), squares("e7"), sq(from), Side::Defenders).unwrap();
        let o = win(&b, &format!("{from}{to}"), &cph()).unwrap();
        assert_eq!(o, Outcome::win(Side::Defenders, Reason::KingEscaped));
    }
}

#[test]
fn king_capture_four_sides_three_beside_throne_never_on_edge() {
    let captured = Some(Outcome::win(Side::Attackers, Reason::KingCaptured));
    let b = setup("a: d5 f5 e6 e2; d: j9; k: e5", Side::Attackers);
    assert_eq!(win(&b, "e2e4", &cph()), captured);
    let b = setup("a: e5 g5 f2; d: j9; k: f5", Side::Attackers);
    assert_eq!(
        win(&b, "f2f4", &cph()),
        captured,
        "beside the throne: three"
    );
    let b = setup("a: e6 g6 f7 f2; d: j9; k: f6", Side::Attackers);
    assert_eq!(win(&b, "f2f5", &cph()), captured, "on the throne: four");
    let b = setup("a: e6 g6 f2; d: j9; k: f6", Side::Attackers);
    assert_eq!(win(&b, "f2f5", &cph()), None);
    let b = setup("a: d1 f1 e4; d: j9; k: e1", Side::Attackers);
    assert_eq!(win(&b, "e4e2", &cph()), None, "never on the edge");
    // Fetlar (seed 002): only four sides; beside the throne he cannot be taken.
    let fetlar = Rules::preset(Preset::Fetlar);
    let b = setup("a: e5 g5 f2; d: j9; k: f5", Side::Attackers);
    assert_eq!(win(&b, "f2f4", &fetlar), None);
    let b = setup("a: d5 f5 e6 e2; d: j9; k: e5", Side::Attackers);
    assert_eq!(win(&b, "e2e4", &fetlar), captured);
}

#[test]
fn only_an_attackers_closing_move_captures_the_king() {
    // The king steps into the ring himself: not captured, then an attacker moves elsewhere.
    // Real game, line 1737: f10-f5 puts the king between e5, g5, f4 and the throne.
    let pre = setup("a: e5 g5 f4 a7; d: j9; k: f10", Side::Defenders);
    let (b, _) = play(&pre, "f10f5", &cph());
    assert_eq!(outcome_after(&b, "f10f5", &cph()), None);
    let (b2, _) = play(&b, "a7c7", &cph());
    assert_eq!(outcome_after(&b2, "a7c7", &cph()), None);
    // Moving one of the ring away and back does capture.
    let (b3, _) = play(&b2.with_side_to_move(Side::Attackers), "e5e4", &cph());
    let (b4, _) = play(&b3.with_side_to_move(Side::Attackers), "e4e5", &cph());
    assert_eq!(
        outcome_after(&b4, "e4e5", &cph()),
        Some(Outcome::win(Side::Attackers, Reason::KingCaptured))
    );
}

#[test]
fn game_line_1737_goes_on_after_the_king_steps_in() {
    let games = common::games();
    let rec = &games[1736];
    let mut pos = Position::start(cph()).unwrap();
    for (i, text) in rec.moves.iter().enumerate() {
        let m = hnefi_rules::board::notation::parse_record_move(text)
            .unwrap()
            .mv;
        pos.try_play(m).unwrap();
        if text == "f10-f5" {
            assert_eq!(pos.outcome(), None, "move {}", i + 1);
            assert_eq!(rec.moves[i + 1], "a7-c7");
        }
    }
    // The record's last move e10-e6 leaves f5 open beside the king on the throne, so it is no
    // capture; it closes the attackers' ring instead.
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Side::Attackers, Reason::Encirclement))
    );
}

// ---- Exit forts ----

#[test]
fn seed_003_figure_3_edge_fort_wins_after_the_defenders_move() {
    let b = setup(
        "a: c2 c3 d4 e4 f4 g4 h3 h2 b5 j7; d: d1 d2 d3 e3 f3 g3 g2 g1; k: e2",
        Side::Defenders,
    );
    assert_eq!(
        win(&b, "e2f2", &cph()),
        None,
        "the king must touch the edge"
    );
    let o = win(&b, "e2e1", &cph());
    assert_eq!(o, Some(Outcome::win(Side::Defenders, Reason::ExitFort)));
    let b2 = setup(
        "a: c2 c3 d4 e4 f4 g4 h3 h2 b5 j7; d: d1 d2 d3 e3 f3 g3 g2 g1; k: e1",
        Side::Defenders,
    );
    assert_eq!(
        win(&b2, "e1f1", &cph()),
        Some(Outcome::win(Side::Defenders, Reason::ExitFort))
    );
    // Fetlar has no forts.
    assert_eq!(win(&b2, "e1f1", &Rules::preset(Preset::Fetlar)), None);
}

#[test]
fn fort_requires_edge_and_a_king_move() {
    // The same ring one rank up: the king is not on the edge.
    let b = setup(
        "a: a9; d: d2 d3 d4 e5 f5 g4 g3 g2 e1 f1; k: e3",
        Side::Attackers,
    );
    assert!(!is_exit_fort(&b));
    // A king on the edge walled in with no room to move.
    let b = setup("a: a9; d: d1 f1 e2; k: e1", Side::Attackers);
    assert!(!is_exit_fort(&b));
}

#[test]
fn forts_that_look_solid_but_break() {
    // f3 closes the ring but can be sandwiched from e3 and g3.
    let b = setup("a: a5 k5; d: d1 g1 e2 g2 f3; k: e1", Side::Attackers);
    assert!(!is_exit_fort(&b));
    let (b1, _) = play(&b, "a5a3", &cph());
    let (b2, _) = play(&b1.with_side_to_move(Side::Attackers), "a3e3", &cph());
    let (b3, _) = play(&b2.with_side_to_move(Side::Attackers), "k5k3", &cph());
    let (_, c) = play(&b3.with_side_to_move(Side::Attackers), "k3g3", &cph());
    assert_eq!(c, squares("f3"));
    // An attacker inside the room.
    let b = setup("a: f1 k8; d: d1 e2 f2 g2 h1; k: e1", Side::Attackers);
    assert!(!is_exit_fort(&b));
    // A gap in the wall.
    let b = setup("a: k8; d: d1 e2 g2 h1; k: e1", Side::Attackers);
    assert!(!is_exit_fort(&b));
    // A wall piece next to a corner is safe while its other side is the room.
    let b = setup(
        "a: a6 e1 e2 f3 g3 h3 i3 j2; d: f1 f2 g2 h2 i2 j1; k: g1",
        Side::Attackers,
    );
    assert!(is_exit_fort(&b));
    // ...but not when an attacker can land on that other side: j1 between i1 and the corner.
    let b = setup(
        "a: a6 e1 e2 f3 g3 h3 j3; d: f1 f2 g2 h2 j1 j2; k: g1",
        Side::Attackers,
    );
    assert!(!is_exit_fort(&b));
}

#[test]
fn fort_with_sealed_pocket() {
    // Room e1 e2. The wall piece e3 sits between f3 (open) and d3, an empty pocket sealed by
    // c3 d4 e3 d2: only the pocket keeps e3 safe.
    let fort = "d: d1 f1 d2 f2 e3 c3 d4 c2 e4; k: e1";
    let b = setup(
        &format!("a: f3 g2 g1 b3 b1 c4 d5 e5 f4; {fort}"),
        Side::Attackers,
    );
    assert!(is_exit_fort(&b));
    // Open the pocket by taking c3 away: d3 becomes reachable and e3 falls between d3 and f3.
    let open = Board::new(
        b.attackers(),
        b.defenders().without(sq("c3")),
        b.king(),
        Side::Attackers,
    )
    .unwrap();
    assert!(!is_exit_fort(&open));
    // A big fort with a wide room, attackers all around.
    let b = setup(
        "a: b1 b2 b3 c4 d4 e4 f4 g4 h4 i3 i2 i1; d: c1 c2 c3 d3 e3 f3 g3 h3 h2 h1; k: e1",
        Side::Attackers,
    );
    assert!(is_exit_fort(&b));
}

#[test]
fn a_lone_attacker_cannot_break_a_wall_that_two_could() {
    // The king steps j6-k6 into the room j6 k6, walled by i6 j7 k7 j5 k5. A single attacker
    // can reach i7 and i5 but cannot be on both at once, and no corner or throne touches the
    // wall: the fort holds forever.
    let lone = parse_fen("11/11/11/11/8add/8dk1/9dd/11/11/11/11 d").unwrap();
    assert_eq!(
        win(&lone, "j6k6", &cph()),
        Some(Outcome::win(Side::Defenders, Reason::ExitFort))
    );
    assert!(is_exit_fort(&play(&lone, "j6k6", &cph()).0));
    // The near miss: a second attacker, on a2, and i6 falls between i7 and i5.
    let two = parse_fen("11/11/11/11/8add/8dk1/9dd/11/11/a10/11 d").unwrap();
    assert_eq!(win(&two, "j6k6", &cph()), None);
    let (b, _) = play(&two, "j6k6", &cph());
    let (b, _) = play(&b, "a2a5", &cph());
    let (b, _) = play(&b, "k6j6", &cph());
    let (b, c) = play(&b, "a5i5", &cph());
    assert_eq!(c, squares("i6"));
    // The room is open: the attacker on i5 can now step to i6, beside the king.
    assert!(
        b.with_side_to_move(Side::Attackers)
            .check_move(mv("i5i6"))
            .is_ok()
    );
    // A lone attacker still captures against a corner: the room j2 j3 k3 opens when j1 is
    // taken between i1 and the corner k1.
    let corner = setup("a: a6; d: k2 k4 j4 i3 i2 j1; k: k3", Side::Attackers);
    assert!(!is_exit_fort(&corner));
    let attackers_again = |b: Board<Eleven>| b.with_side_to_move(Side::Attackers);
    let (b, _) = play(&corner, "a6b6", &cph());
    let (b, _) = play(&attackers_again(b), "b6b1", &cph());
    let (_, c) = play(&attackers_again(b), "b1i1", &cph());
    assert_eq!(c, squares("j1"));
}

// ---- Encirclement ----

#[test]
fn encirclement_after_an_attackers_move() {
    // King c4 and defender c3 in a ring b3 b4 c2 d3 c5, closed by d9-d4.
    let b = setup("a: b3 b4 c2 d3 c5 d9; d: c3; k: c4", Side::Attackers);
    assert!(!b.encircled());
    let o = win(&b, "d9d4", &cph());
    assert_eq!(o, Some(Outcome::win(Side::Attackers, Reason::Encirclement)));
    // Not in Fetlar (seed 002: victory cannot be given while a warrior is with the king); there
    // the boxed-in defenders, left without a move, draw.
    assert_eq!(
        win(&b, "d9d4", &Rules::preset(Preset::Fetlar)),
        Some(Outcome::draw(Reason::NoMoves))
    );
    // A defender outside the ring spoils it.
    let b2 = Board::new(
        b.attackers(),
        b.defenders().with(sq("j5")),
        b.king(),
        Side::Attackers,
    )
    .unwrap();
    assert_eq!(win(&b2, "d9d4", &cph()), None);
    // Paths count through empty squares only up to attackers: a wider ring with room inside.
    let b3 = setup(
        "a: b3 b4 b5 c2 d2 e3 e4 c6 d6 e5 k9; d: c3; k: d4",
        Side::Attackers,
    );
    assert!(b3.encircled());
    // And only after the attackers' move: a defenders' move never ends in encirclement.
    let b4 = setup(
        "a: b3 b4 b5 c2 d2 e3 e4 c6 d6 e5; d: c3 k9; k: d4",
        Side::Defenders,
    );
    assert_eq!(win(&b4, "k9k10", &cph()), None);
}

// ---- End of game ----

#[test]
fn no_legal_move_loses_or_draws_in_fetlar() {
    // Seed 000 §9: the defenders cannot move and lose. The lone king on the edge cannot be
    // captured, but boxed in by d1 f1 e2 he cannot move either.
    let b = setup("a: d1 f1 e3 a9; d: ; k: e1", Side::Attackers);
    let o = win(&b, "e3e2", &cph());
    assert_eq!(o, Some(Outcome::win(Side::Attackers, Reason::NoMoves)));
    let o = win(&b, "e3e2", &Rules::preset(Preset::Fetlar));
    assert_eq!(o, Some(Outcome::draw(Reason::NoMoves)));
}

#[test]
fn mover_wins_come_before_the_opponents_lack_of_moves() {
    // An attacker move captures the king while the defenders also have no move left: the
    // reason is the capture.
    let b = setup("a: d5 f5 e6 e2; d: ; k: e5", Side::Attackers);
    assert_eq!(
        win(&b, "e2e4", &cph()).map(|o| o.reason),
        Some(Reason::KingCaptured)
    );
}

fn shuffle(pos: &mut Position<Eleven>, moves: &[&str]) -> Option<Outcome> {
    for m in moves {
        if let Some(o) = pos.outcome() {
            return Some(o);
        }
        pos.try_play(mv(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    pos.outcome()
}

#[test]
fn third_repetition_loses_for_the_defenders_and_start_counts() {
    let mut pos = Position::start(cph()).unwrap();
    let cycle = ["d1d2", "f4f3", "d2d1", "f3f4"];
    assert_eq!(
        shuffle(&mut pos, &cycle),
        None,
        "start and now: two occurrences"
    );
    assert_eq!(pos.occurrences(), 2);
    assert_eq!(
        shuffle(&mut pos, &cycle),
        Some(Outcome::win(Side::Attackers, Reason::Repetition))
    );
}

#[test]
fn copenhagen_2017_repetition_loses_for_the_repeating_player() {
    let mut pos = Position::start(Rules::preset(Preset::Copenhagen2017)).unwrap();
    let cycle = ["d1d2", "f4f3", "d2d1", "f3f4"];
    shuffle(&mut pos, &cycle);
    // The defenders' e3e4 made the third occurrence: they lose.
    assert_eq!(
        shuffle(&mut pos, &cycle).map(|o| o.winner),
        Some(Some(Side::Attackers))
    );
    // Now let the attackers complete it: start after one attacker move. (The draw-fort rule
    // would end this shuffle first, so it is set aside here.)
    let mut rules = Rules::preset(Preset::Copenhagen2017);
    rules.draw_fort_loses = false;
    let mut pos = Position::start(rules).unwrap();
    pos.try_play(mv("h1h2")).unwrap();
    let cycle = ["f4f3", "d1d2", "f3f4", "d2d1"];
    shuffle(&mut pos, &cycle);
    assert_eq!(
        shuffle(&mut pos, &cycle),
        Some(Outcome::win(Side::Defenders, Reason::Repetition))
    );
}

#[test]
fn fetlar_third_repetition_is_a_draw() {
    let mut pos = Position::start(Rules::preset(Preset::Fetlar)).unwrap();
    let cycle = ["d1d2", "f4f3", "d2d1", "f3f4"];
    shuffle(&mut pos, &cycle);
    assert_eq!(
        shuffle(&mut pos, &cycle),
        Some(Outcome::draw(Reason::Repetition))
    );
}

#[test]
fn hnefatafl_org_forbids_defenders_recreating_a_board() {
    let mut pos = Position::start(Rules::preset(Preset::HnefataflOrg)).unwrap();
    shuffle(&mut pos, &["d1d2", "f4f3", "d2d1"]);
    let back = mv("f3f4");
    assert!(matches!(
        pos.try_play(back),
        Err(hnefi_rules::board::MoveError::Repeats(_))
    ));
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    assert!(!list.contains(&back));
    assert_eq!(list.len() + 1, {
        let mut all = MoveList::new();
        pos.board()
            .generate_moves(&hnefi_rules::board::Rulebook::default(), &mut all);
        all.len()
    });
    // The attackers may repeat freely.
    let mut pos = Position::start(Rules::preset(Preset::HnefataflOrg)).unwrap();
    shuffle(&mut pos, &["d1d2", "f4f3"]);
    assert!(pos.try_play(mv("d2d1")).is_ok());
}

#[test]
fn copenhagen_2017_draw_fort_and_fifty_moves() {
    // The defenders shuffle one piece back and forth while the attackers wander: the defenders'
    // arrangement recurs a third time with no capture.
    let mut pos = Position::start(Rules::preset(Preset::Copenhagen2017)).unwrap();
    let o = shuffle(
        &mut pos,
        &[
            "d1d2", "f4f3", "a4a3", "f3f4", "h1h2", "f4f3", "k4k3", "f3f4",
        ],
    );
    assert_eq!(o, Some(Outcome::win(Side::Attackers, Reason::DrawFort)));
    // Without repeating arrangements, 100 plies without capture draw.
    let mut rules = Rules::preset(Preset::Copenhagen2017);
    rules.draw_fort_loses = false;
    rules.repetition = hnefi_rules::board::rules::Repetition::Off;
    let mut pos = Position::start(rules).unwrap();
    let cycle = ["d1d2", "f4f3", "d2d1", "f3f4"];
    for _ in 0..24 {
        assert_eq!(shuffle(&mut pos, &cycle), None);
    }
    assert_eq!(pos.quiet_plies(), 96);
    assert_eq!(
        shuffle(&mut pos, &cycle),
        Some(Outcome::draw(Reason::NoCaptures))
    );
}

#[test]
fn perft_stops_at_game_over() {
    // The king one step from a corner: the escaping move is a leaf, not expanded.
    let b = setup("a: c5; d: ; k: b1", Side::Defenders);
    let rules = cph();
    let d1 = hnefi_rules::perft::perft(&b, 1, &rules);
    let d2 = hnefi_rules::perft::perft(&b, 2, &rules);
    let mut list = MoveList::new();
    b.generate_moves(&hnefi_rules::board::Rulebook::default(), &mut list);
    let expanded: u64 = list
        .iter()
        .filter(|m| !m.to().is_corner())
        .map(|&m| {
            let mut c = b;
            c.play(m, &hnefi_rules::board::Rulebook::new(rules));
            c.count_moves(&hnefi_rules::board::Rulebook::default()) as u64
        })
        .sum();
    assert_eq!(d1, list.len() as u64);
    assert_eq!(d2, expanded);
}
