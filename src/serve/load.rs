//! New tables: a new game under a preset, or a game loaded from text the page sends (a FEN or
//! OpenTafl position, a record line with or without move numbers, an `.otg` game). The text
//! is only ever read as a game, never as the name of a file on the server.

use super::api::EngineSide;
use super::api::NewGame;
use super::error::ApiError;
use super::session::{Wire, seat_of};
use super::table::{Desk, Recorded, Seat, Table};
use crate::board::{Board, Move, Rulebook};
use crate::board::{Preset, SizeError, side_of};

use crate::board::variant::NamedRules;
use crate::report::game;
use crate::search::size::{Size, SizedTask, run_sized};

/// A table for the game `new` describes.
pub fn new_game(new: &NewGame, analysis: (bool, usize), wire: Wire) -> Result<Desk, ApiError> {
    let seat = seat_of(new)?;
    let rules: NamedRules = new
        .rules
        .parse()
        .map_err(|e| ApiError::Rules(format!("{e}")))?;
    let width = rules.rules.width;
    let open = Open {
        rules,
        start: Start::New,
        seat,
        analysis,
        wire,
    };
    run_sized(width, open)
        .map_err(|e| ApiError::Rules(e.to_string()))?
        .map(|(desk, _)| desk)
}

/// A table for `text`, with what was loaded in words. Rules the text does not name are
/// `current`, or the usual ones of the text's board when that is another size. A game loaded
/// is one to study: the person plays both sides, and the engine moves only when asked, never
/// at once for the side to move.
pub fn load(
    text: &str,
    current: &NamedRules,
    seat: Seat,
    analysis: (bool, usize),
    wire: Wire,
) -> Result<(Desk, String), ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::Load(
            "nothing to load: paste a FEN, a record ('d1-d3 e5-e2 ...') or an OpenTafl .otg game"
                .into(),
        ));
    }
    let told = if seat.engine == EngineSide::None {
        ""
    } else {
        ": you play both sides until \"Engine, move\""
    };
    let seat = Seat {
        engine: EngineSide::None,
        ..seat
    };
    let rules_for = |side: u8| -> Result<NamedRules, SizeError> {
        Ok(if current.rules.width == side {
            current.clone()
        } else {
            NamedRules::preset(Preset::default_for_width(side)?)
        })
    };
    if is_position(text) {
        let load = |e: SizeError| ApiError::Load(e.to_string());
        let side = side_of(text).map_err(load)?;
        let rules = rules_for(side).map_err(load)?;
        let open = Open {
            rules,
            start: Start::Position(text),
            seat,
            analysis,
            wire,
        };
        let desk = run_sized(side, open).map_err(load)?.map(|(desk, _)| desk)?;
        return Ok((desk, format!("position loaded{told}")));
    }
    let found = game::from_text(text).map_err(|e| ApiError::Load(e.to_string()))?;
    let rules = match found.rules().map_err(|e| ApiError::Load(e.to_string()))? {
        Some(rules) => rules,
        None => current.clone(),
    };
    let width = rules.rules.width;
    let open = Open {
        rules,
        start: Start::Game(&found),
        seat,
        analysis,
        wire,
    };
    let (desk, moves) = run_sized(width, open).map_err(|e| ApiError::Load(e.to_string()))??;
    Ok((desk, format!("game of {moves} moves loaded{told}")))
}

/// What a new table starts from.
enum Start<'a> {
    /// The rules' start.
    New,
    /// A position's text.
    Position(&'a str),
    /// A game read.
    Game(&'a game::Found),
}

/// A table opened on a board of the size of its rules.
struct Open<'a> {
    rules: NamedRules,
    start: Start<'a>,
    seat: Seat,
    analysis: (bool, usize),
    wire: Wire,
}

impl SizedTask for Open<'_> {
    /// The desk, and the moves of the game it starts with.
    type Output = Result<(Desk, usize), ApiError>;
    fn run<G: Size>(self) -> Self::Output {
        let Open {
            rules,
            start,
            seat,
            analysis,
            wire,
        } = self;
        match start {
            Start::New => Ok((
                open_at::<G>(rules, None, &[], None, seat, analysis, wire)?,
                0,
            )),
            Start::Position(text) => Ok((position_at::<G>(text, rules, seat, analysis, wire)?, 0)),
            Start::Game(found) => game_at::<G>(found, rules, seat, analysis, wire),
        }
    }
}

/// Whether `text` is a FEN (`3a3/.../3a3 d`) or an OpenTafl position (`/3t3/.../`) rather
/// than a game.
fn is_position(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|first| first.contains('/') && !first.contains('-') && !first.starts_with('['))
}

fn position_at<G: Size>(
    text: &str,
    rules: NamedRules,
    seat: Seat,
    analysis: (bool, usize),
    wire: Wire,
) -> Result<Desk, ApiError> {
    let board = Board::<G>::from_position(text).map_err(|e| ApiError::Load(e.to_string()))?;
    Rulebook::<G>::new(rules.rules)
        .check_setup(&board)
        .map_err(|e| ApiError::Load(e.to_string()))?;
    open_at(rules, Some(board), &[], None, seat, analysis, wire)
}

fn game_at<G: Size>(
    found: &game::Found,
    rules: NamedRules,
    seat: Seat,
    analysis: (bool, usize),
    wire: Wire,
) -> Result<(Desk, usize), ApiError> {
    let game = found
        .game::<G>(&rules)
        .map_err(|e| ApiError::Load(e.to_string()))?;
    let moves: Vec<Move<G>> = game.moves.iter().map(|m| m.mv).collect();
    let recorded = Recorded {
        verdict: game.verdict,
        termination: game.termination,
    };
    let desk = open_at(
        rules,
        Some(game.start),
        &moves,
        Some(recorded),
        seat,
        analysis,
        wire,
    )?;
    Ok((desk, moves.len()))
}

fn open_at<G: Size>(
    rules: NamedRules,
    start: Option<Board<G>>,
    moves: &[Move<G>],
    recorded: Option<Recorded>,
    seat: Seat,
    analysis: (bool, usize),
    wire: Wire,
) -> Result<Desk, ApiError> {
    let start = match start {
        Some(start) => start,
        None => rules
            .start_board::<G>()
            .map_err(|e| ApiError::Rules(e.to_string()))?,
    };
    Ok(Desk::of(Table::open(
        rules, start, moves, recorded, seat, analysis, wire,
    )?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Level;
    use std::time::Duration;

    #[test]
    fn a_game_loaded_is_studied_and_ends_as_its_record_says() {
        let rules: NamedRules = "copenhagen".parse().unwrap();
        let seat = Seat {
            engine: EngineSide::Defenders,
            level: Level::MIN,
            movetime: Duration::from_millis(20),
        };
        let (wire, _inbox, _events) = Wire::for_tests();
        // Black, the attackers, won: by resignation or time, as the moves end nowhere.
        let text = "d1-d3 h6-h9 f10-h10,0,0,Black";
        let (desk, note) = load(text, &rules, seat, (false, 1), wire).unwrap();
        assert_eq!(
            note,
            "game of 3 moves loaded: you play both sides until \"Engine, move\""
        );
        let view = desk.view(None);
        // The defenders are to move, and nobody moves for them.
        assert_eq!((view.engine, view.thinking), (EngineSide::None, false));
        assert_eq!(view.to_move, "defenders");
        let ending = view.ending.unwrap();
        assert_eq!(
            (ending.winner, ending.text.as_str()),
            (Some("attackers"), "Attackers won, by the record.")
        );
    }

    #[test]
    fn positions_are_told_from_games() {
        assert!(is_position("3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d"));
        assert!(is_position("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"));
        assert!(!is_position("1. d1-d3 e5-e2"));
        assert!(!is_position("d1-d3 e5-e2xe2/f2"));
        assert!(!is_position("[rules:dim:7]\n1. d4-d6"));
    }
}
