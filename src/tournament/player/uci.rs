//! The host's side of the UCI-style protocol: one process for every game; the whole game goes
//! with each request, so the engine hears nothing of the opponent's moves.

use super::process::{Process, STARTUP_TIME};
use super::{Answer, Decision, Fault, HostDialogue, await_decision};
use crate::board::{Bitboard, Eleven, Move, Outcome, Position, Rules};
use crate::protocol::uci::message::{Command, EngineOption, OptionKind, Reply, Setup};
use crate::search::{Clock, Limits};
use crate::tournament::spec::TimeControl;
use std::time::Instant;

pub struct UciHost {
    /// `option.NAME=VALUE` of the engine's spec.
    options: Vec<(String, String)>,
}

impl UciHost {
    pub fn new(options: Vec<(String, String)>) -> UciHost {
        UciHost { options }
    }

    fn ready(&self, engine: &mut Process) -> Result<(), Fault> {
        engine.send(Command::<Eleven>::IsReady)?;
        engine.expect(STARTUP_TIME, "readyok", |l| {
            matches!(l.parse::<Reply>(), Ok(Reply::ReadyOk)).then_some(())
        })
    }
}

impl HostDialogue for UciHost {
    fn handshake(&mut self, engine: &mut Process, rules: Rules) -> Result<(), Fault> {
        engine.send(Command::<Eleven>::Uci)?;
        let mut offered = Vec::new();
        engine.expect(STARTUP_TIME, "uciok", |l| match l.parse::<Reply>() {
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
        // An engine that knows the rules presets plays the match's.
        if offered.iter().any(|o| o.name == "Rules")
            && !self
                .options
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("Rules"))
        {
            let preset = rules.preset.name().to_string();
            options.push((
                format!("Rules={preset} (the match's --rules)"),
                "Rules".into(),
                preset,
            ));
        }
        for (label, name, value) in options {
            let refused = |why: String| Fault::protocol(format!("{label} refused: {why}"));
            let command = setoption(&offered, &name, &value).map_err(refused)?;
            engine.send(command)?;
            // The engine's answer to a setoption is silence or an error line; the readyok
            // after it shows which.
            engine.send(Command::<Eleven>::IsReady)?;
            let mut error = None;
            engine.expect(STARTUP_TIME, "readyok", |l| match l.parse::<Reply>() {
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
        _: &Position,
        _: &TimeControl,
    ) -> Result<(), Fault> {
        engine.send(Command::<Eleven>::UciNewGame)?;
        self.ready(engine)
    }

    fn tell(&mut self, _: &mut Process, _: Move, _: Bitboard, _: &Position) -> Result<(), Fault> {
        Ok(())
    }

    fn ask(
        &mut self,
        engine: &mut Process,
        pos: &Position,
        tc: &TimeControl,
        clock: Clock,
        deadline: Instant,
    ) -> Result<Option<Answer>, Fault> {
        engine.send(Command::Position {
            setup: Setup::StartPos,
            moves: pos.moves().collect(),
        })?;
        engine.send(Command::<Eleven>::Go(Limits {
            clock: clock.shown_to(pos.side_to_move()).unwrap_or(Clock::NONE),
            movetime: tc.movetime,
            nodes: tc.nodes,
            depth: tc.depth,
            ..Limits::default()
        }))?;
        await_decision(engine, deadline, |l| match l.parse::<Reply>() {
            Ok(Reply::BestMove { best: Some(mv), .. }) => Some(Decision::Move(mv)),
            Ok(Reply::BestMove { best: None, .. }) => Some(Decision::Unreadable {
                text: "(none)".into(),
                why: "no move, though the game goes on".into(),
            }),
            Ok(_) => None,
            Err(e) => Some(Decision::Unreadable {
                text: l.to_string(),
                why: e.to_string(),
            }),
        })
    }

    fn accepted(&mut self, _: &mut Process, _: &Position) -> Result<(), Fault> {
        Ok(())
    }

    fn finish(&mut self, _: &mut Process, _: Option<Outcome>) -> Result<(), Fault> {
        Ok(())
    }

    fn keeps_process(&self) -> bool {
        true
    }

    fn goodbye(&self) -> Option<String> {
        Some(Command::<Eleven>::Quit.to_string())
    }
}

/// The `setoption` for `name=value`, checked against the options the engine offered: the
/// name (in the engine's spelling, as UCI names ignore case) and a value its type allows.
fn setoption(offered: &[EngineOption], name: &str, value: &str) -> Result<Command, String> {
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
    ok.map(|()| Command::SetOption {
        name: option.name.clone(),
        // A button is pressed with its name alone.
        value: (!matches!(option.kind, OptionKind::Button)).then(|| value.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked_against_the_offer() {
        let offered = [
            "option name Hash type spin default 16 min 1 max 65536",
            "option name Ponder type check default false",
            "option name Eval type combo default nnue var hand var nnue",
            "option name Clear Hash type button",
            "option name EvalFile type string default <empty>",
        ]
        .map(|l| match l.parse::<Reply>() {
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
