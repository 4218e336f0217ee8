//! Every move of the 1,752 real games replays legally with exactly the recorded captures.

use crate::common;

use hnefi_rules::board::notation::{parse_record_move, record_move};
use hnefi_rules::board::{Outcome, Position, Reason, Rules, Side};

enum Replay {
    /// All moves played; the outcome after the last one.
    Done(Option<Outcome>),
    /// The game had already ended by the rules before move `index`.
    EndedEarly { index: usize, outcome: Outcome },
}

fn replay(rec: &common::Record, rules: Rules) -> Replay {
    let mut pos = Position::start(rules).unwrap();
    for (i, text) in rec.moves.iter().enumerate() {
        let claimed = parse_record_move(text)
            .unwrap_or_else(|e| panic!("line {} move {}: {e}", rec.line, i + 1));
        if let Some(outcome) = pos.outcome() {
            return Replay::EndedEarly { index: i, outcome };
        }
        let captured = pos
            .try_play(claimed.mv)
            .unwrap_or_else(|e| panic!("line {} move {} {text}: illegal: {e}", rec.line, i + 1));
        assert_eq!(
            captured,
            claimed.captures,
            "line {} move {}: recorded {text}, rules give {}",
            rec.line,
            i + 1,
            record_move(claimed.mv, captured)
        );
    }
    Replay::Done(pos.outcome())
}

fn result_side(result: &str) -> Option<Side> {
    match result {
        "Black" => Some(Side::Attackers),
        "White" => Some(Side::Defenders),
        _ => None,
    }
}

#[test]
fn every_real_game_replays() {
    let games = common::games();
    assert_eq!(games.len(), 1752);
    let mut repeating = Vec::new();
    let mut decided = 0;
    let mut reasons = std::collections::BTreeMap::new();
    for rec in &games {
        let outcome = match replay(rec, Rules::default()) {
            Replay::Done(outcome) => outcome,
            Replay::EndedEarly { index, outcome } => {
                // Only a third repetition may end a real game early: the site did not enforce it.
                assert_eq!(
                    outcome.reason,
                    Reason::Repetition,
                    "line {}: game over before move {} ({outcome})",
                    rec.line,
                    index + 1
                );
                repeating.push(rec.line);
                match replay(rec, Rules::default().without_repetition()) {
                    Replay::Done(o) => o,
                    Replay::EndedEarly { index, outcome } => panic!(
                        "line {}: over before move {} without repetition: {outcome}",
                        rec.line,
                        index + 1
                    ),
                }
            }
        };
        // The record's capture columns count its `x` marks, duplicates included.
        let marks = |parity: usize| -> u32 {
            rec.moves
                .iter()
                .skip(parity)
                .step_by(2)
                .map(|m| m.matches('x').count() as u32)
                .sum()
        };
        assert_eq!(
            (marks(0), marks(1)),
            (rec.attacker_captures, rec.defender_captures),
            "line {}: capture columns",
            rec.line
        );
        if let Some(o) = outcome {
            *reasons.entry(format!("{:?}", o.reason)).or_insert(0) += 1;
            decided += 1;
            if !rec.timeout {
                assert_eq!(
                    o.winner,
                    result_side(&rec.result),
                    "line {}: rules say {o}, record says {}",
                    rec.line,
                    rec.result
                );
            }
        }
    }
    eprintln!("games ended by the rules: {decided} {reasons:?}; repeating: {repeating:?}");
    assert_eq!(
        repeating.len(),
        11,
        "games that repeat three times: {repeating:?}"
    );
}

/// Copenhagen, named so, with repetition ignored: the real games' records are written as
/// they stand.
fn copenhagen_without_repetition() -> hnefi_rules::board::variant::NamedRules {
    let named = hnefi_rules::board::variant::NamedRules::default();
    hnefi_rules::board::variant::NamedRules {
        rules: named.rules.without_repetition(),
        ..named
    }
}

#[test]
fn games_written_by_hnefi_read_back_the_same() {
    // Every real game, written by Hnefi and read back: the same moves, captures and ending.
    let text = common::games_text();
    let games = real_games(&text);
    assert_eq!(games.len(), 1752);
    for (line, game) in games {
        let moves: Vec<_> = game.moves.iter().map(|m| m.mv).collect();
        let written = hnefi_rules::games::record::write_game(
            &hnefi_rules::board::Board::start(),
            &moves,
            &copenhagen_without_repetition(),
            hnefi_rules::games::record::Verdict::Ongoing,
            game.timeout,
        );
        let back = hnefi_rules::games::record::GameRecord::parse(&written).expect("parses");
        assert_eq!(back.moves, game.moves, "line {line}");
        assert_eq!(back.timeout, game.timeout, "line {line}");
    }
}

/// The record format as Hnefi writes it (the match runner's `--records`): written, read and
/// written again, every real game comes out byte for byte the same, its result included.
#[test]
fn records_hnefi_writes_read_back_byte_for_byte() {
    let text = common::games_text();
    let rules = copenhagen_without_repetition();
    let write = |game: &hnefi_rules::games::record::GameRecord<hnefi_rules::board::Eleven>| {
        let moves: Vec<_> = game.moves.iter().map(|m| m.mv).collect();
        hnefi_rules::games::record::write_game(
            &hnefi_rules::board::Board::start(),
            &moves,
            &rules,
            game.result,
            game.timeout,
        )
    };
    for (line, game) in real_games(&text) {
        let written = write(&game);
        let back = hnefi_rules::games::record::GameRecord::parse(&written).expect("parses");
        assert_eq!(back.result, game.result, "line {line}");
        assert_eq!(write(&back), written, "line {line}");
        assert!(
            written.ends_with(&format!(",{}", game.result)),
            "line {line}"
        );
    }
}

/// The embedders' `hnefi_rules::Game` (and so the Python package's) reads every real game that
/// Copenhagen's rules allow to the end, all but the 11 that repeat a position a third time,
/// and writes each back as it was recorded: byte for byte, but for the records that name the
/// captures of a move in another order than the board's (`xk3xk2`) or one twice (`xk6xk6`,
/// counted twice in the capture column), which it writes in order, once each.
#[test]
fn the_embedders_game_reads_every_real_game_and_writes_it_back() {
    use hnefi_rules::games::record::GameRecord;
    let text = common::games_text();
    let (mut refused, mut same, mut reordered) = (Vec::new(), 0, 0);
    for (i, line) in text.lines().enumerate() {
        match hnefi_rules::Game::from_record(line, None) {
            Ok(game) => {
                let written = game.to_record();
                let back = hnefi_rules::Game::from_record(&written, None).expect("reads back");
                assert_eq!(back.to_record(), written, "line {}", i + 1);
                if written == line.trim() {
                    same += 1;
                    continue;
                }
                let record = GameRecord::<hnefi_rules::board::Eleven>::parse(line).unwrap();
                let ours = GameRecord::<hnefi_rules::board::Eleven>::parse(&written).unwrap();
                assert_eq!(ours.moves, record.moves, "line {}: {written}", i + 1);
                assert_eq!(ours.result, record.result, "line {}", i + 1);
                reordered += 1;
            }
            Err(e) => {
                let e = e.to_string();
                assert!(
                    e.contains("the game was over before it"),
                    "line {}: {e}",
                    i + 1
                );
                refused.push(i + 1);
            }
        }
    }
    assert_eq!(
        (same, reordered, refused.len()),
        (1434, 307, 11),
        "refused: {refused:?}"
    );
}

/// The games of a record file of 11x11 games, each of which must read.
fn real_games(
    text: &str,
) -> Vec<(
    usize,
    hnefi_rules::games::record::GameRecord<hnefi_rules::board::Eleven>,
)> {
    hnefi_rules::games::record::records(text)
        .map(|(line, game)| (line, game.unwrap_or_else(|e| panic!("line {line}: {e}"))))
        .collect()
}
