//! Hnefi's `brandubh` (7x7) and `copenhagen-13` (13x13) presets against the program behind
//! hnefatafl.org, as `server_rules.rs` does for 11x11.
//!
//! The search plays only 11x11, so these games are random, leaning towards captures, king
//! moves and wins so that they reach every kind of end. After every move both judges must
//! agree on the captures and on whether the game is over and how. Both must also refuse the
//! same moves: the defenders try moves that recreate an earlier board, and either side tries
//! moves that Hnefi's move generator does not list.

use crate::reference;

use hnefi::board::bitboard::Bitboard;
use hnefi::board::geometry::Geometry;
use hnefi::board::moves::{Move, MoveList};
use hnefi::board::position::{Board, Position};
use hnefi::board::square::Square;
use hnefi::board::{Preset, Reason, Rules, Seven, Side, Thirteen};
use reference::text_protocol::{Rng, TextProtocol};
use std::collections::BTreeMap;
use std::path::Path;

/// What a set of games came to.
#[derive(Default)]
struct Tally {
    games: u64,
    plies: u64,
    ends: BTreeMap<String, u64>,
}

/// Plays game `seed` of `preset` into both judges; returns how it ended and its length.
fn play_game<G: Geometry>(program: &Path, preset: Preset, seed: u64) -> (String, usize) {
    let mut reference = TextProtocol::start(program, G::SIDE);
    let board = Board::<G>::from_fen(preset.start_fen()).expect("the preset's start");
    let mut pos = Position::new(board, Rules::preset(preset));
    let mut rng = Rng::for_game(seed);
    let style = Style::of(seed);
    loop {
        let what = format!(
            "{preset} game {seed} after {:?}",
            pos.moves().collect::<Vec<_>>()
        );
        if let Some(end) = reference.same_status(&pos, &what) {
            let winner = pos.outcome().and_then(|o| o.winner);
            let who = winner.map_or("draw".to_string(), |s| s.to_string());
            return (format!("{end} ({who})"), pos.plies());
        }
        let side = pos.side_to_move();
        if side == Side::Defenders && rng.below(4) == 0 {
            reference.try_forbidden_repeat(&pos, &mut rng, &what);
        }
        if rng.below(3) == 0 {
            try_refused(&mut reference, &pos, &mut rng, &what);
        }
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        let mv = choose(&pos, &legal, &mut rng, style);
        if !reference.play_both_or_around_its_ban(&mut pos, mv, &legal, &what) {
            return ("stuck on the program's repetition".into(), pos.plies());
        }
    }
}

/// How a game's moves are chosen, by its seed, so that the games reach every kind of end.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    /// Random, leaning towards wins, captures and king moves.
    Random,
    /// The defenders wander and never take a win; the attackers mostly shrink the king's
    /// room: encirclements, shieldwalls and the program's king-cannot-escape test.
    Siege,
    /// The defenders mostly take the king to the edge and gather round him: exit forts.
    Fort,
}

impl Style {
    fn of(seed: u64) -> Style {
        match seed % 4 {
            1 => Style::Siege,
            3 => Style::Fort,
            _ => Style::Random,
        }
    }
}

/// A legal move in `style`.
fn choose<G: Geometry>(
    pos: &Position<G>,
    legal: &MoveList<G>,
    rng: &mut Rng,
    style: Style,
) -> Move<G> {
    let side = pos.side_to_move();
    let mut wins = Vec::new();
    let mut captures = Vec::new();
    let mut quiet = Vec::new();
    let mut king = Vec::new();
    let mut best = (i64::MIN, Vec::new());
    for &mv in legal.iter() {
        let mut after = *pos.board();
        let taken = after.play(mv, pos.rulebook());
        if pos.rulebook().mover_win(&after, mv).is_some() {
            wins.push(mv);
            continue;
        }
        quiet.push(mv);
        if taken.any() {
            captures.push(mv);
        }
        if mv.from() == pos.board().king() {
            king.push(mv);
        }
        let score = match (style, side) {
            // Less room for the king first, then more of a diamond round the throne, which
            // closes once it is full, then the others nearer it.
            (Style::Siege, Side::Attackers) => {
                let room = Bitboard::from_square(after.king()).flood(!after.attackers());
                let off: Vec<i64> = after
                    .attackers()
                    .map(|a| (distance(a) - ring::<G>()).abs())
                    .collect();
                let on = off.iter().filter(|&&d| d == 0).count() as i64;
                -1000 * i64::from(room.count()) + 100 * on - off.iter().sum::<i64>()
            }
            // The defenders keep inside the diamond.
            (Style::Siege, Side::Defenders) => -distance(mv.to()),
            // The king on the edge first, then less room for him among his men.
            (Style::Fort, Side::Defenders) => {
                let at = Bitboard::from_square(after.king());
                let empty = !after.occupied();
                let room = (at.neighbours() & empty).flood(empty);
                1000 * i64::from((at & Bitboard::EDGE).any()) - i64::from(room.count())
            }
            _ => 0,
        };
        if score > best.0 {
            best = (score, Vec::new());
        }
        if score == best.0 {
            best.1.push(mv);
        }
    }
    let pick = |from: &[Move<G>], rng: &mut Rng| from[rng.below(from.len())];
    let greedy = match (style, side) {
        (Style::Siege, _) => rng.below(3) > 0,
        (Style::Fort, Side::Defenders) => rng.below(2) > 0,
        _ => false,
    };
    if greedy && !best.1.is_empty() && (wins.is_empty() || style == Style::Siege) {
        return pick(&best.1, rng);
    }
    if style == Style::Siege && side == Side::Defenders && !quiet.is_empty() {
        return pick(
            if !king.is_empty() && rng.below(3) == 0 {
                &king
            } else {
                &quiet
            },
            rng,
        );
    }
    match rng.below(6) {
        0 | 1 => pick(legal, rng),
        _ if !wins.is_empty() && rng.below(2) == 0 => pick(&wins, rng),
        2 | 3 if !captures.is_empty() => pick(&captures, rng),
        4 if !king.is_empty() => pick(&king, rng),
        _ => pick(legal, rng),
    }
}

/// The distance of `sq` from the throne, in steps along ranks and files.
fn distance<G: Geometry>(sq: Square<G>) -> i64 {
    let centre = i64::from(G::SIDE / 2);
    (i64::from(sq.file()) - centre).abs() + (i64::from(sq.rank()) - centre).abs()
}

/// The distance of the diamond the besiegers build: 8 squares on 7x7, 20 on 13x13, each
/// touching the next corner to corner, so that it shuts in what it surrounds.
fn ring<G: Geometry>() -> i64 {
    i64::from(G::SIDE / 2) - 1
}

/// The side to move tries a move along a line of one of its pieces that Hnefi's move
/// generator does not list (blocked, a man onto a corner or the throne, or across the
/// throne where the rules forbid it): the program must refuse it too.
fn try_refused<G: Geometry>(
    reference: &mut TextProtocol,
    pos: &Position<G>,
    rng: &mut Rng,
    what: &str,
) {
    let side = pos.side_to_move();
    let mut listed = MoveList::new();
    pos.board().generate_moves(pos.rulebook(), &mut listed);
    let pieces: Vec<Square<G>> = pos.board().pieces(side).collect();
    let from = pieces[rng.below(pieces.len())];
    let refused: Vec<Move<G>> = Square::<G>::all()
        .filter(|to| *to != from && (to.file() == from.file() || to.rank() == from.rank()))
        .map(|to| Move::new(from, to))
        .filter(|mv| !listed.iter().any(|m| m == mv))
        .collect();
    if refused.is_empty() {
        return;
    }
    let mv = refused[rng.below(refused.len())];
    let reply = reference.play(side, mv);
    assert!(
        reply.starts_with('?'),
        "{what}: {mv} is refused here: {reply}"
    );
}

fn play_games<G: Geometry>(program: &Path, preset: Preset) -> Tally {
    // HNEFI_RULES_GAMES plays more games; HNEFI_RULES_SEED starts at a failing game.
    let number = |name: &str| std::env::var(name).ok().and_then(|n| n.parse::<u64>().ok());
    let games =
        number("HNEFI_RULES_GAMES").unwrap_or(if cfg!(debug_assertions) { 20 } else { 300 });
    let first = number("HNEFI_RULES_SEED").unwrap_or(0);
    let mut tally = Tally::default();
    for seed in first..first + games {
        let (end, plies) = play_game::<G>(program, preset, seed);
        tally.games += 1;
        tally.plies += plies as u64;
        *tally.ends.entry(end).or_insert(0) += 1;
    }
    eprintln!(
        "{preset}: {} games, {} plies: {:?}",
        tally.games, tally.plies, tally.ends
    );
    tally
}

/// The ends that the games of the full run must each have reached at least once.
fn assert_reached(tally: &Tally, reasons: &[Reason]) {
    if tally.games < 300 {
        return;
    }
    for reason in reasons {
        assert!(
            tally.ends.keys().any(|k| k.starts_with(reason.label())),
            "no game ended by {}: {:?}",
            reason.label(),
            tally.ends
        );
    }
}

#[test]
fn brandubh_judges_games_as_the_sites_program_does() {
    let Some(program) = reference::require("hnefatafl-text-protocol", "HNEFATAFL_TEXT_PROTOCOL")
    else {
        return;
    };
    let tally = play_games::<Seven>(&program, Preset::Brandubh);
    let ends = [
        Reason::KingEscaped,
        Reason::KingCaptured,
        Reason::NoEscape,
        Reason::NoMoves,
        Reason::MoveLimit,
    ];
    assert_reached(&tally, &ends);
}

#[test]
fn copenhagen_13_judges_games_as_the_sites_program_does() {
    let Some(program) = reference::require("hnefatafl-text-protocol", "HNEFATAFL_TEXT_PROTOCOL")
    else {
        return;
    };
    let tally = play_games::<Thirteen>(&program, Preset::Copenhagen13);
    let ends = [Reason::KingEscaped, Reason::KingCaptured, Reason::MoveLimit];
    assert_reached(&tally, &ends);
}
