//! One test per OpenTafl rules-string key: rules read from a string by `parse_rules_string`,
//! a position set up on the string's board, and the exact outcome of a move (a capture made
//! or not, a move legal or not, a game over or not), as OpenTafl 0.4.8.0b's own code decides
//! it (`GenericRules`, `Taflman`, `GameState`).

use hnefi_rules::board::bitboard::Bitboard;
use hnefi_rules::board::moves::{Move, MoveList};
use hnefi_rules::board::opentafl::parse_rules_string;
use hnefi_rules::board::position::{Board, Position};
use hnefi_rules::board::rulebook::Rulebook;
use hnefi_rules::board::square::Square;
use hnefi_rules::board::{Eleven, Geometry, History, Nine, Outcome, Reason, Seven, Side};

/// A board set up under the rules of an OpenTafl rules string.
struct Game<G: Geometry> {
    book: Rulebook<G>,
    board: Board<G>,
}

/// `keys`: rules-string keys on a board of `G`'s side, OpenTafl's defaults for the rest.
/// `pieces`: `t: a1 b2; T: c3; K: d4` (attackers, defenders, king, as OpenTafl letters them).
fn game<G: Geometry>(keys: &str, pieces: &str, side: Side) -> Game<G> {
    let text = format!("dim:{} {keys} start:/", G::SIDE);
    let rules = parse_rules_string(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .rules;
    let (mut attackers, mut defenders, mut king) = (Bitboard::EMPTY, Bitboard::EMPTY, None);
    for group in pieces.split(';') {
        let (kind, squares) = group.split_once(':').expect("kind: squares");
        for name in squares.split_whitespace() {
            let sq = sq::<G>(name);
            match kind.trim() {
                "t" => attackers = attackers.with(sq),
                "T" => defenders = defenders.with(sq),
                "K" => king = Some(sq),
                other => panic!("piece '{other}'"),
            }
        }
    }
    let board = Board::new(attackers, defenders, king.expect("a king"), side).unwrap();
    let book = Rulebook::new(rules);
    book.check_setup(&board).unwrap();
    Game { book, board }
}

fn sq<G: Geometry>(name: &str) -> Square<G> {
    Square::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn mv<G: Geometry>(text: &str) -> Move<G> {
    Move::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// What a move did: the squares it captured (in square order) and the end of the game.
#[derive(Debug, PartialEq, Eq)]
struct After {
    captured: String,
    outcome: Option<Outcome>,
}

fn quiet() -> After {
    After {
        captured: String::new(),
        outcome: None,
    }
}

fn took(squares: &str) -> After {
    After {
        captured: squares.to_string(),
        outcome: None,
    }
}

fn won(side: Side, reason: Reason) -> After {
    After {
        captured: String::new(),
        outcome: Some(Outcome::win(side, reason)),
    }
}

impl<G: Geometry> Game<G> {
    /// Whether the move generator offers `text`; the rules-aware move check must agree.
    fn legal(&self, text: &str) -> bool {
        let m = mv::<G>(text);
        let mut list = MoveList::new();
        self.board.generate_moves(&self.book, &mut list);
        let generated = list.contains(&m);
        assert_eq!(
            self.board.check_move_under(m, &self.book).is_ok(),
            generated,
            "{text}: the move check and the generator disagree"
        );
        assert_eq!(
            self.board.count_moves(&self.book) as usize,
            list.len(),
            "counted and generated moves"
        );
        generated
    }

    /// Plays the legal move `text` and says what it did.
    fn play(&self, text: &str) -> After {
        assert!(self.legal(text), "{text} is not legal here");
        let m = mv::<G>(text);
        let mut board = self.board;
        let captured = board.play(m, &self.book);
        assert_eq!(board.key(), board.compute_key());
        let captured = captured
            .into_iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let outcome = self
            .book
            .outcome(&board, Some(m.to()), &History::none())
            .filter(|o| o.reason != Reason::NoMoves);
        After { captured, outcome }
    }
}

// ---- Hostile squares: corners (`corh`), the centre (`cenh`, `cenhe`), forts ----

#[test]
fn corh_corners_hostile_to_the_sides_it_names() {
    // An attacker on b1 between the corner a1 and a defender landing on c1, and the reverse.
    let attacker = "t: b1; T: c3; K: f6";
    let defender = "T: b1; t: c3; K: f6";
    for (keys, takes_attacker, takes_defender) in [
        ("", true, true),
        ("corh:t", true, false),
        ("corh:T", false, true),
        ("corh:", false, false),
    ] {
        let g = game::<Seven>(keys, attacker, Side::Defenders);
        let want = if takes_attacker { took("b1") } else { quiet() };
        assert_eq!(g.play("c3c1"), want, "'{keys}': attacker");
        let g = game::<Seven>(keys, defender, Side::Attackers);
        let want = if takes_defender { took("b1") } else { quiet() };
        assert_eq!(g.play("c3c1"), want, "'{keys}': defender");
    }
}

#[test]
fn cenhe_the_empty_centre_hostile_to_the_sides_it_names() {
    // A defender on d3 below the empty throne d4; an attacker lands on d2.
    let pieces = "T: d3; t: d1; K: f6";
    for (keys, takes) in [
        ("", true),
        ("cenhe:t", false),
        ("cenhe:T", true),
        // OpenTafl's Brandub: the throne hostile to nobody.
        ("ks:w surf:n cenh: cenhe:", false),
    ] {
        let g = game::<Seven>(keys, pieces, Side::Attackers);
        assert_eq!(
            g.play("d1d2"),
            if takes { took("d3") } else { quiet() },
            "'{keys}'"
        );
    }
}

#[test]
fn cenh_the_occupied_centre_hostile_to_the_sides_it_names() {
    // The king on his throne d4, an unarmed king (`ka:n`) so that only the square counts.
    let attacker = "t: d3; T: d1; K: d4";
    for (keys, takes) in [
        ("ka:n", true),
        ("ka:n cenh:", false),
        ("ka:n cenh:T", false),
    ] {
        let g = game::<Seven>(keys, attacker, Side::Defenders);
        assert_eq!(
            g.play("d1d2"),
            if takes { took("d3") } else { quiet() },
            "'{keys}'"
        );
    }
    // By default the occupied throne is hostile to the attackers only: a defender beside his
    // king on it stands.
    let g = game::<Seven>("", "T: d3; t: d1; K: d4", Side::Attackers);
    assert_eq!(g.play("d1d2"), quiet());
    // An armed king is an anvil wherever he stands.
    let g = game::<Seven>("cenh:", attacker, Side::Defenders);
    assert_eq!(g.play("d1d2"), took("d3"));
}

#[test]
fn afor_dfor_forts_hostile_by_default_to_the_other_side() {
    // A fort on c3; a man on c4 is taken by an enemy landing on c5.
    let g = game::<Nine>("afor:c3,", "T: c4; t: h5; K: e8", Side::Attackers);
    assert_eq!(g.play("h5c5"), took("c4"), "the attackers' fort");
    let g = game::<Nine>("afor:c3,", "t: c4; T: h5; K: e8", Side::Defenders);
    assert_eq!(g.play("h5c5"), quiet(), "not hostile to its own side");
    let g = game::<Nine>("dfor:c3,", "t: c4; T: h5; K: e8", Side::Defenders);
    assert_eq!(g.play("h5c5"), took("c4"), "the defenders' fort");
    let g = game::<Nine>("dfor:c3, dforh:", "t: c4; T: h5; K: e8", Side::Defenders);
    assert_eq!(g.play("h5c5"), quiet(), "dforh: hostile to nobody");
    // A fort stays hostile with a man on it, even one of the victim's side.
    let g = game::<Nine>("afor:c3,", "T: c4 c3; t: h5; K: e8", Side::Attackers);
    assert_eq!(g.play("h5c5"), took("c4"));
}

#[test]
fn the_edge_is_not_hostile() {
    let g = game::<Nine>("", "T: d1; t: h1 d3; K: e5", Side::Attackers);
    assert_eq!(g.play("h1e1"), quiet(), "along the edge, c1 empty");
    assert_eq!(g.play("d3d2"), quiet(), "against the edge");
}

// ---- Movement over special squares: pass (`p`), stop (`s`), re-enter (`re`) ----

#[test]
fn dforp_dfors_forts_closed_to_the_other_side() {
    let pieces = "t: c1 a3; T: h5; K: e8";
    let g = game::<Nine>("dfor:c3,", pieces, Side::Attackers);
    assert!(
        !g.legal("c1c5"),
        "an attacker may not cross the defenders' fort"
    );
    assert!(!g.legal("a3c3"), "nor stop on it");
    assert!(g.legal("a3b3") && g.legal("c1c2"));
    let g = game::<Nine>("dfor:c3,", "t: b9; T: c1; K: e8", Side::Defenders);
    assert!(g.legal("c1c3") && g.legal("c1c5"), "the defenders use it");
    let g = game::<Nine>("dfor:c3, dforp:tTK dfors:tTK", pieces, Side::Attackers);
    assert!(g.legal("c1c5") && g.legal("a3c3"));
}

#[test]
fn cenp_cens_who_crosses_and_who_stops_on_the_centre() {
    let pieces = "t: d1; T: a3; K: f6";
    let g = game::<Seven>("", pieces, Side::Attackers);
    assert!(g.legal("d1d7"), "everyone crosses the empty throne");
    assert!(!g.legal("d1d4"), "only the king stops on it");
    let g = game::<Seven>("cenp:K", pieces, Side::Attackers);
    assert!(!g.legal("d1d7") && g.legal("d1d3"));
    let g = game::<Seven>("cens:tTK", pieces, Side::Attackers);
    assert!(g.legal("d1d4"));
    // OpenTafl's Tablut: nobody stops on the throne, the king included, once he has left.
    let king = "t: b9; T: a3; K: e4";
    let tablut = game::<Nine>("cens:", king, Side::Defenders);
    assert!(!tablut.legal("e4e5") && tablut.legal("e4e9"));
    assert!(game::<Nine>("", king, Side::Defenders).legal("e4e5"));
}

#[test]
fn cors_corp_who_may_use_the_corners() {
    let g = game::<Seven>("", "t: b1; T: d6; K: f6", Side::Attackers);
    assert!(!g.legal("b1a1"));
    let g = game::<Seven>("cors:tK corp:tK", "t: b1; T: d6; K: f6", Side::Attackers);
    assert!(g.legal("b1a1"));
    // Corners elsewhere: `cor:` names the squares.
    let g = game::<Seven>("cor:b2,", "t: b1; T: d6; K: f6", Side::Attackers);
    assert!(g.legal("b1a1") && !g.legal("b1b2") && !g.legal("b1b5"));
}

#[test]
fn re_entry_lists_once_left_never_back() {
    // Foteviken Tablut: `cenre:` and `aforre:`; the king who left the throne stays out.
    let foteviken = "cor: afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, \
                     cenp:tcnkTCNK aforp:tcnkTCNK cens: cenh: cenhe:K aforh:K cenre: aforre:";
    let g = game::<Nine>(foteviken, "t: a5 b3; T: c2; K: e4", Side::Defenders);
    assert!(!g.legal("e4e5"), "the throne once left");
    assert!(
        !g.legal("c2f2") && g.legal("c2d2"),
        "a camp blocks a defender"
    );
    let g = game::<Nine>(foteviken, "t: a5 b3; T: c2; K: e4", Side::Attackers);
    assert!(
        g.legal("a5a4") && g.legal("a5a3"),
        "within and out of the camp"
    );
    assert!(
        !g.legal("b3b5") && g.legal("b3b4"),
        "not back in from outside"
    );
    // OpenTafl reads the corners' re-entry list only when `cenre` is given, and then an
    // absent one means nobody: no king reaches a corner.
    let pieces = "t: f7; T: d6; K: c1";
    assert!(game::<Seven>("", pieces, Side::Defenders).legal("c1a1"));
    let g = game::<Seven>("cenre:tTK", pieces, Side::Defenders);
    assert!(!g.legal("c1a1") && g.legal("c1b1"));
    assert!(game::<Seven>("cenre:tTK corre:K", pieces, Side::Defenders).legal("c1a1"));
}

// ---- Kings: strength (`ks`) and arms (`ka`) ----

#[test]
fn ks_s_a_strong_king_needs_four_and_never_dies_on_the_edge() {
    let four = "t: b3 c2 d3 c6; T: f7; K: c3";
    let g = game::<Seven>("ks:s", four, Side::Attackers);
    assert_eq!(g.play("c6c4"), won(Side::Attackers, Reason::KingCaptured));
    let three = "t: b3 d3 c6; T: f7; K: c3";
    let g = game::<Seven>("ks:s", three, Side::Attackers);
    assert_eq!(g.play("c6c4"), quiet());
    // The empty throne stands in for an attacker (`cenhe` names the defenders' side).
    let by_throne = "t: c3 e3 d1; T: f7; K: d3";
    let g = game::<Seven>("", by_throne, Side::Attackers);
    assert_eq!(g.play("d1d2"), won(Side::Attackers, Reason::KingCaptured));
    let g = game::<Seven>("cenhe:t", by_throne, Side::Attackers);
    assert_eq!(g.play("d1d2"), quiet());
    let edge = "t: b1 d1 c5; T: f7; K: c1";
    let g = game::<Seven>("", edge, Side::Attackers);
    assert_eq!(g.play("c5c2"), quiet());
}

#[test]
fn ks_w_a_weak_king_dies_like_a_man() {
    let g = game::<Seven>("ks:w", "t: c4 e6; T: f7; K: c5", Side::Attackers);
    assert_eq!(g.play("e6c6"), won(Side::Attackers, Reason::KingCaptured));
    let g = game::<Seven>("ks:s", "t: c4 e6; T: f7; K: c5", Side::Attackers);
    assert_eq!(g.play("e6c6"), quiet());
    // Against a corner, hostile to the king's side by default.
    let g = game::<Seven>("ks:w", "t: c3; T: f7; K: b1", Side::Attackers);
    assert_eq!(g.play("c3c1"), won(Side::Attackers, Reason::KingCaptured));
    // On the edge, two in a line along it.
    let g = game::<Seven>("ks:w", "t: b1 d3; T: f7; K: c1", Side::Attackers);
    assert_eq!(g.play("d3d1"), won(Side::Attackers, Reason::KingCaptured));
}

#[test]
fn ks_c_strong_on_and_beside_the_centre_weak_elsewhere() {
    // OpenTafl's Tablut: the empty throne is hostile to the king (`cenhe:tcnkTCNK`).
    let tablut = "ks:c cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK";
    let beside = |attackers: &str| format!("t: {attackers} e1; T: a9; K: e4");
    let g = game::<Nine>(tablut, &beside("d4 f4"), Side::Attackers);
    assert_eq!(g.play("e1e3"), won(Side::Attackers, Reason::KingCaptured));
    let g = game::<Nine>(tablut, &beside("d4"), Side::Attackers);
    assert_eq!(
        g.play("e1e3"),
        quiet(),
        "beside the throne: three and the throne"
    );
    let on = "t: d5 f5 e6 e1; T: a9; K: e5";
    let g = game::<Nine>(tablut, on, Side::Attackers);
    assert_eq!(g.play("e1e4"), won(Side::Attackers, Reason::KingCaptured));
    let g = game::<Nine>(tablut, "t: d5 f5 e1; T: a9; K: e5", Side::Attackers);
    assert_eq!(g.play("e1e4"), quiet(), "on the throne: four");
    let g = game::<Nine>(tablut, "t: c2 h4; T: a9; K: c3", Side::Attackers);
    assert_eq!(g.play("h4c4"), won(Side::Attackers, Reason::KingCaptured));
}

#[test]
fn ks_m_a_middleweight_king_dies_when_every_neighbour_is_hostile() {
    let magpie = "ks:m surf:n";
    let g = game::<Seven>(magpie, "t: b1 d1 e2; T: f7; K: c1", Side::Attackers);
    assert_eq!(g.play("e2c2"), won(Side::Attackers, Reason::KingCaptured));
    let g = game::<Seven>(magpie, "t: b1 e2; T: f7; K: c1", Side::Attackers);
    assert_eq!(g.play("e2c2"), quiet());
    // Inside the board, four; a corner counts.
    let g = game::<Seven>(magpie, "t: c4 e6; T: f7; K: c5", Side::Attackers);
    assert_eq!(g.play("e6c6"), quiet(), "not captured like a man");
    let g = game::<Seven>(magpie, "t: c2 d3; T: f7; K: b1", Side::Attackers);
    assert_eq!(g.play("c2c1"), quiet(), "b2 is free");
    let g = game::<Seven>(magpie, "t: b2 c3; T: f7; K: b1", Side::Attackers);
    assert_eq!(g.play("c3c1"), won(Side::Attackers, Reason::KingCaptured));
}

#[test]
fn ka_the_king_as_hammer_and_as_anvil() {
    // Hammer: the king lands on c4 with a defender on c6 behind the attacker on c5.
    let hammer = "t: c5 b7; T: c6; K: e4";
    // Anvil: a defender lands on c4 with the king on c6.
    let anvil = "t: c5 b7; T: e4; K: c6";
    for (ka, hammers, anvils) in [
        ("y", true, true),
        ("h", true, false),
        ("a", false, true),
        ("n", false, false),
    ] {
        let keys = format!("ka:{ka}");
        let g = game::<Seven>(&keys, hammer, Side::Defenders);
        assert_eq!(
            g.play("e4c4"),
            if hammers { took("c5") } else { quiet() },
            "{keys} hammer"
        );
        let g = game::<Seven>(&keys, anvil, Side::Defenders);
        assert_eq!(
            g.play("e4c4"),
            if anvils { took("c5") } else { quiet() },
            "{keys} anvil"
        );
    }
}

// ---- Escape (`esc`), exit forts (`efe`), encirclement (`surf`) ----

#[test]
fn esc_edge_or_corner_escape() {
    let pieces = "t: b9; T: g7; K: c3";
    let g = game::<Nine>("esc:e", pieces, Side::Defenders);
    assert_eq!(g.play("c3c1"), won(Side::Defenders, Reason::KingEscaped));
    let g = game::<Nine>("esc:c", pieces, Side::Defenders);
    assert_eq!(g.play("c3c1"), quiet());
    let g = game::<Nine>("esc:c", "t: b9; T: g7; K: c1", Side::Defenders);
    assert_eq!(g.play("c1a1"), won(Side::Defenders, Reason::KingEscaped));
    // Corner escape to the rules' corners, wherever they are.
    let g = game::<Nine>("cor:c2,", pieces, Side::Defenders);
    assert_eq!(g.play("c3c2"), won(Side::Defenders, Reason::KingEscaped));
}

#[test]
fn efe_an_exit_fort_wins_only_when_asked_for() {
    // Seed 003's figure 3 on 11x11: the king steps to the edge inside an unbreakable fort.
    let fort = "t: c2 c3 d4 e4 f4 g4 h3 h2 b5 j7; T: d1 d2 d3 e3 f3 g3 g2 g1; K: e2";
    let g = game::<Eleven>("efe:y", fort, Side::Defenders);
    assert_eq!(g.play("e2e1"), won(Side::Defenders, Reason::ExitFort));
    assert_eq!(g.play("e2f2"), quiet(), "the king must be on the edge");
    let g = game::<Eleven>("", fort, Side::Defenders);
    assert_eq!(g.play("e2e1"), quiet(), "efe:n, OpenTafl's default");
}

#[test]
fn surf_encirclement_wins_for_the_attackers_only_when_fatal() {
    // The attacker from d7 closes the ring round the king and his one defender.
    let ring = "t: c4 e4 d3 c5 e5 d7; T: d5; K: d4";
    let g = game::<Seven>("surf:y", ring, Side::Attackers);
    assert_eq!(g.play("d7d6"), won(Side::Attackers, Reason::Encirclement));
    let g = game::<Seven>("surf:n", ring, Side::Attackers);
    assert_eq!(g.play("d7d6"), quiet());
    // A gap: no encirclement.
    let g = game::<Seven>("surf:y", "t: c4 e4 d3 c5 d7; T: d5; K: d4", Side::Attackers);
    assert_eq!(g.play("d7d6"), quiet());
}

// ---- Captures of several men: Linnaean (`linc`), shieldwall (`sw`) ----

#[test]
fn linc_a_defender_beside_the_enthroned_king_dies_against_the_throne() {
    let tablut = "esc:e ks:c cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK";
    let pieces = "t: d5 f5 e4 e9; T: e6; K: e5";
    let g = game::<Nine>(&format!("{tablut} linc:y"), pieces, Side::Attackers);
    assert_eq!(g.play("e9e7"), took("e6"));
    let g = game::<Nine>(&format!("{tablut} linc:n"), pieces, Side::Attackers);
    assert_eq!(
        g.play("e9e7"),
        quiet(),
        "the occupied throne is hostile to nobody"
    );
    let two = "t: d5 f5 e9; T: e6; K: e5";
    let g = game::<Nine>(&format!("{tablut} linc:y"), two, Side::Attackers);
    assert_eq!(g.play("e9e7"), quiet(), "all three other sides held");
}

#[test]
fn sw_shieldwalls_weak_and_strong() {
    // Defenders i1 j1 with attackers in front; the attacker lands on h1, the corner k1 the
    // other bracket. Or defenders h1 i1, closed by attackers on g1 and j1.
    let by_corner = "t: i2 j2 h3; T: i1 j1; K: f8";
    let by_man = "t: h2 i2 j1 g3; T: h1 i1; K: f8";
    for (keys, corner, man) in [
        ("sw:s", true, true),
        ("sw:w", false, true),
        ("sw:n", false, false),
        // No corners on this board: nothing closes a wall at k1.
        ("sw:s cor:", false, true),
    ] {
        let g = game::<Eleven>(keys, by_corner, Side::Attackers);
        assert_eq!(
            g.play("h3h1"),
            if corner { took("i1 j1") } else { quiet() },
            "'{keys}' corner"
        );
        let g = game::<Eleven>(keys, by_man, Side::Attackers);
        assert_eq!(
            g.play("g3g1"),
            if man { took("h1 i1") } else { quiet() },
            "'{keys}' man"
        );
    }
    let g = game::<Eleven>(
        "sw:s cor:",
        "t: i2 j2 h3 k1; T: i1 j1; K: f8",
        Side::Attackers,
    );
    assert_eq!(g.play("h3h1"), took("i1 j1"), "a man on k1 closes it");
}

#[test]
fn swf_any_move_that_completes_a_shieldwall_captures_it() {
    // Defenders h1 i1 closed by attackers on g1 and j1, h2 guarded: the guard landing on i2
    // completes the wall. With `swf:y` (the default) only a flank's move captures.
    let open_front = "t: g1 j1 h2 i4; T: h1 i1; K: f8";
    let g = game::<Eleven>("sw:w swf:n", open_front, Side::Attackers);
    assert_eq!(g.play("i4i2"), took("h1 i1"));
    let g = game::<Eleven>("sw:w swf:y", open_front, Side::Attackers);
    assert_eq!(g.play("i4i2"), quiet());
    let g = game::<Eleven>("sw:w", open_front, Side::Attackers);
    assert_eq!(g.play("i4i2"), quiet(), "swf:y is the default");
    // A flank's move captures either way.
    let open_flank = "t: g3 j1 h2 i2; T: h1 i1; K: f8";
    for keys in ["sw:w swf:n", "sw:w swf:y"] {
        let g = game::<Eleven>(keys, open_flank, Side::Attackers);
        assert_eq!(g.play("g3g1"), took("h1 i1"), "{keys}");
    }
    // A corner closes the wall under `sw:s`, whichever piece completes it; the king in the
    // row is not taken; a gap in front leaves it whole; no shieldwalls, no capture.
    let by_corner = "t: h1 i2 j4; T: i1; K: j1";
    let g = game::<Eleven>("sw:s swf:n", by_corner, Side::Attackers);
    assert_eq!(g.play("j4j2"), took("i1"));
    let gap = "t: g1 j1 i4; T: h1 i1; K: f8";
    let g = game::<Eleven>("sw:w swf:n", gap, Side::Attackers);
    assert_eq!(g.play("i4i2"), quiet());
    let g = game::<Eleven>("sw:n swf:n", open_front, Side::Attackers);
    assert_eq!(g.play("i4i2"), quiet());
    // As OpenTafl reads `swf:n`: any move of the surrounding side takes every complete wall,
    // even one far from it (here one the defenders walked into).
    let standing = "t: g1 j1 h2 i2 a5; T: h1 i1; K: f8";
    let g = game::<Eleven>("sw:w swf:n", standing, Side::Attackers);
    assert_eq!(g.play("a5a6"), took("h1 i1"));
    let g = game::<Eleven>("sw:w swf:y", standing, Side::Attackers);
    assert_eq!(g.play("a5a6"), quiet());
}

// ---- Speed (`spd`), the first side (`atkf`), repetition (`tfr`) ----

#[test]
fn spd_speed_limits_per_piece() {
    let pieces = "t: b2; T: f2; K: c6";
    let g = game::<Seven>("spd:2", pieces, Side::Attackers);
    assert!(g.legal("b2b4") && !g.legal("b2b5"));
    let g = game::<Seven>("spd:2", pieces, Side::Defenders);
    assert!(g.legal("c6c4") && !g.legal("c6c3") && g.legal("f2f4") && !g.legal("f2f5"));
    // OpenTafl's Magpie: the king alone moves one square (the tenth of twelve numbers).
    let magpie = "ks:m spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1,";
    let g = game::<Seven>(magpie, pieces, Side::Defenders);
    assert!(g.legal("c6c5") && !g.legal("c6c4") && g.legal("f2f6"));
    let g = game::<Seven>(magpie, pieces, Side::Attackers);
    assert!(g.legal("b2b6"));
    // Two numbers: OpenTafl's reader leaves every piece free.
    let g = game::<Seven>("spd:1,1", pieces, Side::Attackers);
    assert!(g.legal("b2b6"));
}

#[test]
fn atkf_who_moves_first_from_the_start() {
    let brandub = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: \
                   start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    for (atkf, first) in [("y", Side::Attackers), ("n", Side::Defenders)] {
        let text = brandub.replace("atkf:y", &format!("atkf:{atkf}"));
        let variant = parse_rules_string(&text).unwrap();
        assert_eq!(variant.rules.first, first);
        let board = Board::<Seven>::from_opentafl(&variant.start, variant.rules.first).unwrap();
        let mut pos = Position::new(board, variant.rules);
        let (attacker, defender) = (mv::<Seven>("a4a3"), mv::<Seven>("c4c3"));
        let (good, bad) = match first {
            Side::Attackers => (attacker, defender),
            Side::Defenders => (defender, attacker),
        };
        assert!(pos.clone().try_play(bad).is_err(), "atkf:{atkf}");
        pos.try_play(good).unwrap();
    }
}

#[test]
fn tfr_the_third_repetition() {
    // A four-ply cycle from OpenTafl's Brandub start, played twice: the start stands for the
    // third time with the attackers to move, after the defenders' move.
    let brandub = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: \
                   start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    for (tfr, outcome) in [
        ("d", Some(Outcome::draw(Reason::Repetition))),
        // `w`: OpenTafl gives the game to the side to move: the repeating side loses.
        ("w", Some(Outcome::win(Side::Attackers, Reason::Repetition))),
        ("l", Some(Outcome::win(Side::Defenders, Reason::Repetition))),
        // OpenTafl's reader takes "ignored" for a draw too (`getThreefoldResultForString`).
        ("i", Some(Outcome::draw(Reason::Repetition))),
        // Hnefi's own word for no repetition rule.
        ("n", None),
    ] {
        let variant = parse_rules_string(&format!("{brandub} tfr:{tfr}")).unwrap();
        let board = Board::<Seven>::from_opentafl(&variant.start, Side::Attackers).unwrap();
        let mut pos = Position::new(board, variant.rules);
        for (i, m) in "a4a3 c4c3 a3a4 c3c4 a4a3 c4c3 a3a4 c3c4"
            .split_whitespace()
            .enumerate()
        {
            assert_eq!(pos.outcome(), None, "tfr:{tfr} before ply {i}");
            assert!(pos.try_play(mv(m)).unwrap().is_empty());
        }
        assert_eq!(pos.occurrences(), 3);
        assert_eq!(pos.outcome(), outcome, "tfr:{tfr}");
    }
}

// ---- Set-ups the board takes by the rules, not by the physical squares ----

#[test]
fn men_may_stand_where_the_rules_have_no_special_square() {
    // OpenTafl's Tawlbwrdd and Sea Battle have neither corners nor throne: a man on the
    // centre or a corner is an ordinary position, and moves there are ordinary moves.
    let tawlbwrdd = "esc:e ks:w cor: cen:";
    let g = game::<Eleven>(tawlbwrdd, "t: a1 f6; T: k11; K: c3", Side::Attackers);
    assert!(g.legal("f6f7") && g.legal("a1b1"));
    let g = game::<Eleven>(tawlbwrdd, "t: a1; T: f4; K: c3", Side::Defenders);
    assert!(g.legal("f4f6"), "a defender stops on the centre");
    let mut pos = Position::new(g.board, *g.book.rules());
    pos.try_play(mv("f4f6")).unwrap();
    let sea_battle = "esc:e ka:n cor: cen:";
    let g = game::<Nine>(sea_battle, "t: e5 i9; T: a1; K: c3", Side::Attackers);
    assert!(g.legal("i9i8") && g.legal("e5e6"));
    // Under Copenhagen's squares the same set-ups are refused, with the square named.
    let board = Board::<Eleven>::new(
        Bitboard::EMPTY.with(sq("f6")),
        Bitboard::EMPTY,
        sq("c3"),
        Side::Attackers,
    )
    .unwrap();
    let copenhagen = Rulebook::<Eleven>::new(parse_rules_string("dim:11 start:/").unwrap().rules);
    let error = copenhagen.check_setup(&board).unwrap_err().to_string();
    assert!(error.contains("f6 is a restricted square"), "{error}");
    let board = Board::<Eleven>::new(
        Bitboard::EMPTY,
        Bitboard::EMPTY.with(sq("k11")),
        sq("c3"),
        Side::Attackers,
    )
    .unwrap();
    assert!(copenhagen.check_setup(&board).is_err());
    // Refused moves name what stops them.
    let g = game::<Eleven>("", "t: f2; T: a5; K: c3", Side::Attackers);
    let error = g.board.check_move_under(mv("f2f6"), &g.book).unwrap_err();
    assert_eq!(
        error.to_string(),
        "f2f6: the rules let no attacker stop on f6"
    );
}
