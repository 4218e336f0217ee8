//! The engine's UCI options: what `uci` offers, and what a `setoption` asks for.

use super::message::{EngineOption, OptionKind};
use crate::board::Preset;
use crate::protocol::number::{NumberError, parse_amount, truncate};
use crate::search::nnue::QuantisedNetwork;
use crate::search::params::{SearchParams, TUNABLES};
use crate::search::skill::LevelError;
use crate::search::{EvalKind, Level, Options};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// `EvalFile` unset, as UCI hosts write an empty string.
const NO_FILE: &str = "<empty>";

/// The `Eval` value of an evaluation.
fn eval_name(eval: EvalKind) -> &'static str {
    match eval {
        EvalKind::Hand => "hand",
        EvalKind::Nnue | EvalKind::NnueRefresh => "nnue",
    }
}

/// The options `uci` lists, with the defaults of `options`.
pub fn offered(options: &Options) -> Vec<EngineOption> {
    let spin = |name: &str, default: i64, min: i64, max: i64| EngineOption {
        name: name.to_string(),
        kind: OptionKind::Spin { default, min, max },
    };
    let mut list = vec![
        spin("Hash", options.hash_mb as i64, 1, 65536),
        spin("Threads", options.threads as i64, 1, 256),
        spin("MultiPV", 1, 1, 256),
        spin(
            "Skill Level",
            options.level.get().into(),
            Level::MIN.get().into(),
            Level::MAX.get().into(),
        ),
        EngineOption {
            name: "Rules".into(),
            kind: OptionKind::Combo {
                default: Preset::Copenhagen.to_string(),
                vars: Preset::ALL
                    .iter()
                    .filter(|p| p.engine_plays())
                    .map(|p| p.to_string())
                    .collect(),
            },
        },
        spin(
            "Move Overhead",
            options.move_overhead.as_millis() as i64,
            0,
            5000,
        ),
        EngineOption {
            name: "Ponder".into(),
            kind: OptionKind::Check { default: false },
        },
        EngineOption {
            name: "Clear Hash".into(),
            kind: OptionKind::Button,
        },
        EngineOption {
            name: "Eval".into(),
            kind: OptionKind::Combo {
                default: eval_name(options.eval).into(),
                vars: vec!["hand".into(), "nnue".into()],
            },
        },
        EngineOption {
            name: "EvalFile".into(),
            kind: OptionKind::String {
                default: NO_FILE.into(),
            },
        },
    ];
    // The search's tunable numbers, for tuners (SPSA) more than for people.
    list.extend(TUNABLES.iter().map(|t| {
        spin(
            t.name,
            options.params.get(t).into(),
            t.min.into(),
            t.max.into(),
        )
    }));
    list
}

/// What a `setoption` changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The search's options (which may be the same as before).
    Search(Options),
    Rules(Preset),
    Ponder(bool),
    ClearHash,
}

/// Why a `setoption` is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("option '{0}' needs a value")]
    NoValue(String),
    #[error("option '{0}': {1}")]
    Number(String, NumberError),
    #[error("option '{name}': {value} is outside {min}..{max}")]
    Range {
        name: String,
        value: u64,
        min: u64,
        max: u64,
    },
    #[error("{0}")]
    Rules(String),
    #[error("option 'Skill Level': {0}")]
    Level(#[from] LevelError),
    #[error("option 'Ponder' takes true or false")]
    Ponder,
    #[error("option '{0}' needs a whole number")]
    Tunable(&'static str),
    #[error("{0}")]
    TunableRange(String),
    #[error("option 'Eval' takes hand or nnue")]
    Eval,
    /// The net file's error, as text: the option errors are plain values.
    #[error("option 'EvalFile': {0}")]
    EvalFile(String),
    #[error("unknown option '{0}'")]
    Unknown(String),
}

/// What setting option `name` to `value` changes, from `current`.
pub fn change(name: &str, value: Option<&str>, current: &Options) -> Result<Change, OptionError> {
    let mut options = current.clone();
    let number = |min: u64, max: u64| -> Result<u64, OptionError> {
        let v = value.ok_or_else(|| OptionError::NoValue(name.to_string()))?;
        let n = parse_amount(v.trim()).map_err(|e| OptionError::Number(name.to_string(), e))?;
        if (min..=max).contains(&n) {
            Ok(n)
        } else {
            Err(OptionError::Range {
                name: name.to_string(),
                value: n,
                min,
                max,
            })
        }
    };
    match name.to_ascii_lowercase().as_str() {
        "hash" => options.hash_mb = number(1, 65536)? as usize,
        "threads" => options.threads = number(1, 256)? as usize,
        "multipv" => options.multipv = number(1, 256)? as usize,
        "skill level" => options.level = Level::new(number(0, u64::MAX)?)?,
        "move overhead" => options.move_overhead = Duration::from_millis(number(0, 5000)?),
        "rules" => {
            let preset: Preset = value
                .unwrap_or("")
                .parse()
                .map_err(|e: crate::board::UnknownPreset| OptionError::Rules(e.to_string()))?;
            if !preset.engine_plays() {
                return Err(OptionError::Rules(format!(
                    "'{preset}' is played on {n}x{n}: this engine plays the 11x11 Copenhagen \
                     family so far",
                    n = preset.side()
                )));
            }
            return Ok(Change::Rules(preset));
        }
        "ponder" => {
            return match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => Ok(Change::Ponder(true)),
                Some("false") => Ok(Change::Ponder(false)),
                _ => Err(OptionError::Ponder),
            };
        }
        "clear hash" => return Ok(Change::ClearHash),
        "eval" => {
            options.eval = match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                Some("hand") => EvalKind::Hand,
                Some("nnue") => EvalKind::Nnue,
                _ => return Err(OptionError::Eval),
            }
        }
        "evalfile" => {
            options.net = match value
                .map(str::trim)
                .filter(|v| !v.is_empty() && *v != NO_FILE)
            {
                None => None,
                Some(path) => Some(Arc::new(
                    QuantisedNetwork::load(Path::new(path))
                        .map_err(|e| OptionError::EvalFile(e.to_string()))?,
                )),
            }
        }
        _ => {
            let t =
                SearchParams::tunable(name).ok_or_else(|| OptionError::Unknown(truncate(name)))?;
            let v = value
                .and_then(|v| v.trim().parse::<i32>().ok())
                .ok_or(OptionError::Tunable(t.name))?;
            options
                .params
                .set(t, v)
                .map_err(|e| OptionError::TunableRange(e.to_string()))?;
        }
    }
    Ok(Change::Search(options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_read_and_checked() {
        let o = Options::default();
        let set = |name: &str, value: Option<&str>| change(name, value, &o);
        assert_eq!(
            set("hash", Some("64")),
            Ok(Change::Search(Options {
                hash_mb: 64,
                ..o.clone()
            }))
        );
        assert_eq!(
            set("Rules", Some("fetlar")),
            Ok(Change::Rules(Preset::Fetlar))
        );
        assert_eq!(set("Ponder", Some("TRUE")), Ok(Change::Ponder(true)));
        assert_eq!(set("Clear Hash", None), Ok(Change::ClearHash));
        let e = |name: &str, value: Option<&str>| set(name, value).unwrap_err().to_string();
        assert_eq!(e("Hash", Some("0")), "option 'Hash': 0 is outside 1..65536");
        assert_eq!(e("Threads", None), "option 'Threads' needs a value");
        assert_eq!(
            e("Skill Level", Some("21")),
            "option 'Skill Level': level 21 is outside 0..20 (20 is full strength)"
        );
        assert!(matches!(
            set("skill level", Some(" 0")),
            Ok(Change::Search(Options { level, .. })) if level == Level::MIN
        ));
        assert!(e("Rules", Some("chess")).contains("unknown rules preset"));
        assert_eq!(e("Colour", Some("red")), "unknown option 'Colour'");
        assert_eq!(e("Eval", Some("magic")), "option 'Eval' takes hand or nnue");
        assert!(e("EvalFile", Some("/nonexistent.nnue")).contains("cannot read net file"));
        assert_eq!(o.eval, EvalKind::Nnue);
        assert!(matches!(
            set("Eval", Some(" HAND")),
            Ok(Change::Search(Options {
                eval: EvalKind::Hand,
                ..
            }))
        ));
        assert_eq!(
            e("LmrBase", Some("x")),
            "option 'LmrBase' needs a whole number"
        );
        // Every option offered can be set to its default.
        for option in offered(&o) {
            let value = match option.kind {
                OptionKind::Spin { default, .. } => Some(default.to_string()),
                OptionKind::Combo { default, .. } => Some(default),
                OptionKind::Check { default } => Some(default.to_string()),
                _ => None,
            };
            assert!(
                set(&option.name, value.as_deref()).is_ok(),
                "{}",
                option.name
            );
        }
    }
}
