//! The host's side of the UCI-style protocol: one process for every game; the whole game goes
//! with each request, so the engine hears nothing of the opponent's moves. The rules go first,
//! as `setoption name Rules value NAME` (a preset's name or an OpenTafl rules string), and the
//! positions after them on the rules' board: `position startpos` is the rules' start.

use super::process::{Process, STARTUP_TIME};
use super::{Answer, Decision, Fault, HostDialogue, await_decision};
use crate::board::notation::to_fen;
use crate::board::variant::NamedRules;
use crate::board::{Bitboard, Board, Move, Position};
use crate::board::{Geometry, Outcome, START_FEN};
use crate::protocol::uci::message::{EngineOption, OptionKind, Reply, UciCommand};
use crate::search::size::Standard;
use crate::search::{Clock, Go};
use crate::tournament::spec::TimeControl;
use std::time::Instant;

pub struct UciHost<G: Geometry> {
    /// `option.NAME=VALUE` of the engine's spec.
    options: Vec<(String, String)>,
    /// The rules' start, which `position startpos` means.
    rules_start: Board<G>,
    /// Where the game under way began.
    game_start: Board<G>,
}

impl<G: Geometry> UciHost<G> {
    pub fn new(options: Vec<(String, String)>, rules_start: Board<G>) -> UciHost<G> {
        UciHost {
            options,
            rules_start,
            game_start: rules_start,
        }
    }

    fn ready(&self, engine: &mut Process) -> Result<(), Fault> {
        engine.send(UciCommand::<G>::IsReady)?;
        engine.expect(STARTUP_TIME, "readyok", |l| {
            matches!(l.parse::<Reply<G>>(), Ok(Reply::ReadyOk)).then_some(())
        })
    }
}

impl<G: Geometry> HostDialogue<G> for UciHost<G> {
    fn handshake(&mut self, engine: &mut Process, rules: &NamedRules) -> Result<(), Fault> {
        engine.send(UciCommand::<G>::Uci)?;
        let mut offered = Vec::new();
        engine.expect(STARTUP_TIME, "uciok", |l| match l.parse::<Reply<G>>() {
            Ok(Reply::Option(option)) => {
                offered.push(option);
                None
            }
            Ok(Reply::UciOk) => Some(()),
            _ => None,
        })?;
        let mut options: Vec<(String, String, String)> = self
            .options
            .iter()
            .map(|(n, v)| (format!("option.{n}={v}"), n.clone(), v.clone()))
            .collect();
        // An engine that knows rules plays the match's; one that does not can play only
        // games from Copenhagen's start.
        let told = self
            .options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("Rules"));
        if offered.iter().any(|o| o.name.eq_ignore_ascii_case("Rules")) {
            if !told {
                options.push((
                    format!("Rules={rules} (the match's --rules)"),
                    "Rules".into(),
                    rules.name.clone(),
                ));
            }
        } else if to_fen(&self.rules_start) != START_FEN {
            return Err(Fault::protocol(format!(
                "the engine offers no option Rules, so it cannot be told the rules '{rules}' \
                 ({side}x{side})",
                side = G::SIDE
            )));
        }
        for (label, name, value) in options {
            let refused = |why: String| Fault::protocol(format!("{label} refused: {why}"));
            let command = setoption(&offered, &name, &value).map_err(refused)?;
            engine.send(command)?;
            // The engine's answer to a setoption is silence or an error line; the readyok
            // after it shows which.
            engine.send(UciCommand::<G>::IsReady)?;
            let mut error = None;
            engine.expect(STARTUP_TIME, "readyok", |l| match l.parse::<Reply<G>>() {
                Ok(Reply::Error(why)) => {
                    error.get_or_insert(why);
                    None
                }
                Ok(Reply::ReadyOk) => Some(()),
                _ => None,
            })?;
            if let Some(why) = error {
                return Err(refused(format!("the engine says \"{why}\"")));
            }
        }
        self.ready(engine)
    }

    fn new_game(
        &mut self,
        engine: &mut Process,
        start: &Board<G>,
        _: &Position<G>,
        _: &TimeControl,
    ) -> Result<(), Fault> {
        self.game_start = *start;
        engine.send(UciCommand::<G>::UciNewGame)?;
        self.ready(engine)
    }

    fn tell(
        &mut self,
        _: &mut Process,
        _: Move<G>,
        _: Bitboard<G>,
        _: &Position<G>,
    ) -> Result<(), Fault> {
        Ok(())
    }

    fn ask(
        &mut self,
        engine: &mut Process,
        pos: &Position<G>,
        tc: &TimeControl,
        clock: Clock,
        deadline: Instant,
    ) -> Result<Option<Answer<G>>, Fault> {
        engine.send(position(&self.rules_start, &self.game_start, pos))?;
        engine.send(UciCommand::<G>::Go(Go {
            clock: clock.shown_to(pos.side_to_move()).unwrap_or(Clock::NONE),
            movetime: tc.movetime,
            nodes: tc.nodes,
            depth: tc.depth,
            ..Go::default()
        }))?;
        await_decision(engine, deadline, read_reply::<G>)
    }

    fn accepted(&mut self, _: &mut Process, _: &Position<G>) -> Result<(), Fault> {
        Ok(())
    }

    fn finish(&mut self, _: &mut Process, _: Option<Outcome>) -> Result<(), Fault> {
        Ok(())
    }

    fn keeps_process(&self) -> bool {
        true
    }

    fn goodbye(&self) -> Option<String> {
        Some(UciCommand::<G>::Quit.to_string())
    }
}

/// The `position` command of the game `pos` that began on `game_start`: from `startpos` when
/// that is the rules' start, else from its FEN, with every move since.
fn position<G: Geometry>(
    rules_start: &Board<G>,
    game_start: &Board<G>,
    pos: &Position<G>,
) -> String {
    let mut line = if game_start == rules_start {
        "position startpos".to_string()
    } else {
        format!("position fen {}", to_fen(game_start))
    };
    let moves: Vec<String> = pos.moves().map(|m| m.to_string()).collect();
    if !moves.is_empty() {
        line = format!("{line} moves {}", moves.join(" "));
    }
    line
}

/// What a line of the engine says while it thinks: its move read on the board of `G`, or
/// nothing (progress and anything else is passed over).
fn read_reply<G: Geometry>(line: &str) -> Option<Decision<G>> {
    let mut words = line.split_whitespace();
    let unreadable = |why: String| {
        Some(Decision::Unreadable {
            text: line.to_string(),
            why,
        })
    };
    match words.next() {
        Some("bestmove") => match words.next() {
            None => unreadable("bestmove without a move".into()),
            Some("(none)") => Some(Decision::Unreadable {
                text: "(none)".into(),
                why: "no move, though the game goes on".into(),
            }),
            Some(text) => match Move::<G>::parse(text) {
                Ok(mv) => Some(Decision::Move(mv)),
                Err(e) => unreadable(format!("move '{text}': {e}")),
            },
        },
        _ => None,
    }
}

/// The `setoption` for `name=value`, checked against the options the engine offered: the
/// name (in the engine's spelling, as UCI names ignore case) and a value its type allows.
fn setoption(
    offered: &[EngineOption],
    name: &str,
    value: &str,
) -> Result<UciCommand<Standard>, String> {
    let Some(option) = offered
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
    else {
        let names: Vec<&str> = offered.iter().map(|o| o.name.as_str()).collect();
        return Err(format!(
            "the engine offers no option '{name}' (it offers: {})",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ));
    };
    let value = value.trim();
    let ok = match &option.kind {
        OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
            Ok(n) if (*min..=*max).contains(&n) => Ok(()),
            Ok(n) => Err(format!("{n} is outside {min}..{max}")),
            Err(_) => Err(format!("'{value}' is not a whole number ({min}..{max})")),
        },
        OptionKind::Check { .. } => match value {
            "true" | "false" => Ok(()),
            _ => Err(format!("'{value}' is not true or false")),
        },
        OptionKind::Combo { vars, .. } => match vars.iter().find(|v| v.eq_ignore_ascii_case(value))
        {
            Some(_) => Ok(()),
            None => Err(format!("'{value}' is not one of {}", vars.join(", "))),
        },
        OptionKind::Button | OptionKind::String { .. } => Ok(()),
    };
    ok.map(|()| UciCommand::SetOption {
        name: option.name.clone(),
        // A button is pressed with its name alone.
        value: (!matches!(option.kind, OptionKind::Button)).then(|| value.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Preset, Seven, Thirteen};
    use crate::search::size::Standard;

    #[test]
    fn positions_and_moves_on_every_board() {
        let eleven = Board::<Standard>::start();
        let mut pos = Position::new(eleven, NamedRules::default().rules);
        assert_eq!(position(&eleven, &eleven, &pos), "position startpos");
        pos.play(Move::parse("d1d3").unwrap());
        assert_eq!(
            position(&eleven, &eleven, &pos),
            "position startpos moves d1d3"
        );
        let thirteen = NamedRules::preset(Preset::Copenhagen13);
        let start = thirteen.start_board::<Thirteen>().unwrap();
        let mut pos = Position::new(start, thirteen.rules);
        pos.play(Move::parse("m4l4").unwrap());
        let after = *pos.board();
        assert_eq!(
            position(&start, &start, &pos),
            "position startpos moves m4l4"
        );
        let pos = Position::new(after, thirteen.rules);
        assert_eq!(
            position(&start, &after, &pos),
            format!("position fen {}", to_fen(&after))
        );
        assert_eq!(
            read_reply::<Thirteen>("bestmove m13m12 ponder a1a2"),
            Some(Decision::Move(Move::parse("m13m12").unwrap()))
        );
        assert_eq!(read_reply::<Thirteen>("info depth 3 pv m13m12"), None);
        assert_eq!(read_reply::<Seven>("readyok"), None);
        let bad = |l: &str| match read_reply::<Seven>(l) {
            Some(Decision::Unreadable { why, .. }) => why,
            other => panic!("{other:?}"),
        };
        assert!(bad("bestmove k11k10").contains("move 'k11k10'"));
        assert_eq!(bad("bestmove"), "bestmove without a move");
        assert!(bad("bestmove !!junk!!").contains("'!!junk!!'"));
        assert_eq!(read_reply::<Seven>("hello there"), None);
    }

    #[test]
    fn options_are_checked_against_the_offer() {
        let offered = [
            "option name Hash type spin default 16 min 1 max 65536",
            "option name Ponder type check default false",
            "option name Eval type combo default nnue var hand var nnue",
            "option name Clear Hash type button",
            "option name EvalFile type string default <empty>",
        ]
        .map(|l| match l.parse::<Reply<Standard>>() {
            Ok(Reply::Option(o)) => o,
            other => panic!("{other:?}"),
        });
        let set = |name: &str, value: &str| setoption(&offered, name, value).map(|c| c.to_string());
        assert_eq!(set("hash", "64"), Ok("setoption name Hash value 64".into()));
        assert_eq!(
            set("Eval", "HAND"),
            Ok("setoption name Eval value HAND".into())
        );
        assert_eq!(
            set("Clear Hash", "x"),
            Ok("setoption name Clear Hash".into())
        );
        assert_eq!(
            set("EvalFile", "/nonexistent.nnue"),
            Ok("setoption name EvalFile value /nonexistent.nnue".into())
        );
        let e = |name: &str, value: &str| setoption(&offered, name, value).unwrap_err();
        assert_eq!(
            e("Foo", "1"),
            "the engine offers no option 'Foo' (it offers: Hash, Ponder, Eval, Clear Hash, \
             EvalFile)"
        );
        assert_eq!(e("Hash", "abc"), "'abc' is not a whole number (1..65536)");
        assert_eq!(e("Hash", "0"), "0 is outside 1..65536");
        assert_eq!(e("Ponder", "yes"), "'yes' is not true or false");
        assert_eq!(e("Eval", "magic"), "'magic' is not one of hand, nnue");
        assert!(
            setoption(&[], "Hash", "1")
                .unwrap_err()
                .contains("it offers: none")
        );
    }
}
