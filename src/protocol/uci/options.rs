//! The engine's UCI options: what `uci` offers, and what a `setoption` asks for.

use super::message::{EngineOption, OptionKind};
use crate::board::Board;
use crate::board::opentafl::{Variant, parse_rules_string};
use crate::board::{Geometry, Preset, Rules};
use crate::protocol::number::{NumberError, parse_amount, truncate};
use crate::search::nnue::QuantisedNetwork;
use crate::search::params::{SearchParams, TUNABLES};
use crate::search::policy::Policy;
use crate::search::skill::LevelError;
use crate::search::{EvalKind, Level, MAX_MULTIPV, MAX_THREADS, Options};
use std::fmt;
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
        spin("Threads", options.threads as i64, 1, MAX_THREADS as i64),
        spin("MultiPV", 1, 1, MAX_MULTIPV as i64),
        spin(
            "Skill Level",
            options.level.get().into(),
            Level::MIN.get().into(),
            Level::MAX.get().into(),
        ),
        // A string, so that a host that checks a combo's values lets rules strings through.
        EngineOption {
            name: "Rules".into(),
            kind: OptionKind::String {
                default: Preset::Copenhagen.to_string(),
            },
        },
        EngineOption {
            name: "UCI_Variant".into(),
            kind: OptionKind::Combo {
                default: Preset::Copenhagen.to_string(),
                vars: Preset::ALL.iter().map(|p| p.to_string()).collect(),
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
        EngineOption {
            name: "PolicyFile".into(),
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

/// The rules a host chose: a preset by name, or an OpenTafl rules string, which carries its
/// own start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChosenRules {
    Preset(Preset),
    /// The string as the host wrote it, and what it says.
    String {
        text: String,
        variant: Box<Variant>,
    },
}

impl ChosenRules {
    /// A preset's name, or a rules string (any text with a `key:value` in it).
    pub fn read(value: &str) -> Result<ChosenRules, OptionError> {
        let value = value.trim();
        if value.contains(':') {
            let variant = parse_rules_string(value)
                .map_err(|e| OptionError::Rules(format!("option 'Rules': {e}")))?;
            return Ok(ChosenRules::String {
                text: value.split_whitespace().collect::<Vec<_>>().join(" "),
                variant: Box::new(variant),
            });
        }
        value.parse().map(ChosenRules::Preset).map_err(|e| {
            OptionError::Rules(format!(
                "option 'Rules': {e}, nor an OpenTafl rules string (dim:9 esc:e ... start:/.../)"
            ))
        })
    }

    pub fn rules(&self) -> Rules {
        match self {
            ChosenRules::Preset(preset) => Rules::preset(*preset),
            ChosenRules::String { variant, .. } => variant.rules,
        }
    }

    /// The side of the rules' board.
    pub fn side(&self) -> u8 {
        self.rules().width
    }

    /// The start position, on boards of `G`, which must be the rules' size.
    pub fn start<G: Geometry>(&self) -> Result<Board<G>, OptionError> {
        let start = match self {
            ChosenRules::Preset(preset) => Board::from_fen(preset.start_fen()),
            ChosenRules::String { variant, .. } => {
                Board::from_opentafl(&variant.start, variant.rules.first)
            }
        };
        start.map_err(|e| OptionError::Rules(format!("option 'Rules': start: {e}")))
    }
}

impl fmt::Display for ChosenRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChosenRules::Preset(preset) => preset.fmt(f),
            ChosenRules::String { text, .. } => f.write_str(text),
        }
    }
}

/// What a `setoption` changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The search's options (which may be the same as before).
    Search(Options),
    Rules(ChosenRules),
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
    /// The policy file's error, as text.
    #[error("option 'PolicyFile': {0}")]
    PolicyFile(String),
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
        "threads" => options.threads = number(1, MAX_THREADS as u64)? as usize,
        "multipv" => options.multipv = number(1, MAX_MULTIPV as u64)? as usize,
        "skill level" => options.level = Level::new(number(0, u64::MAX)?)?,
        "move overhead" => options.move_overhead = Duration::from_millis(number(0, 5000)?),
        "rules" => return ChosenRules::read(value.unwrap_or("")).map(Change::Rules),
        "uci_variant" => {
            return value
                .unwrap_or("")
                .parse()
                .map(|p| Change::Rules(ChosenRules::Preset(p)))
                .map_err(|e| OptionError::Rules(format!("option 'UCI_Variant': {e}")));
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
        "policyfile" => {
            options.policy = match value
                .map(str::trim)
                .filter(|v| !v.is_empty() && *v != NO_FILE)
            {
                None => None,
                Some(path) => Some(Arc::new(
                    Policy::load(Path::new(path))
                        .map_err(|e| OptionError::PolicyFile(e.to_string()))?,
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
            Ok(Change::Rules(ChosenRules::Preset(Preset::Fetlar)))
        );
        assert_eq!(
            set("UCI_Variant", Some("Magpie")),
            Ok(Change::Rules(ChosenRules::Preset(Preset::Magpie)))
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
        assert!(e("Rules", Some("chess")).contains("unknown rules preset 'chess'"));
        assert!(e("Rules", Some("chess")).contains("nor an OpenTafl rules string"));
        assert!(e("UCI_Variant", Some("dim:9")).contains("unknown rules preset 'dim:9'"));
        assert_eq!(e("Colour", Some("red")), "unknown option 'Colour'");
        assert_eq!(e("Eval", Some("magic")), "option 'Eval' takes hand or nnue");
        assert!(e("EvalFile", Some("/nonexistent.nnue")).contains("cannot read net file"));
        assert!(e("PolicyFile", Some("/nonexistent.policy")).contains("cannot read policy file"));
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
                OptionKind::String { default } => Some(default),
                OptionKind::Button => None,
            };
            assert!(
                set(&option.name, value.as_deref()).is_ok(),
                "{}",
                option.name
            );
        }
    }

    #[test]
    fn rules_are_presets_or_rules_strings_of_any_size() {
        use crate::board::{Nine, Seven, Side, Thirteen};
        let read = |v: &str| ChosenRules::read(v).unwrap();
        let tablut = read(" Tablut ");
        assert_eq!(
            (tablut.side(), tablut.to_string()),
            (9, "tablut".to_string())
        );
        assert_eq!(
            tablut.start::<Nine>().unwrap(),
            Board::from_fen(Preset::Tablut.start_fen()).unwrap()
        );
        assert_eq!(
            read("copenhagen-13")
                .start::<Thirteen>()
                .unwrap()
                .king()
                .to_string(),
            "g7"
        );
        let text = "dim:7  name:Brandub esc:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let brandub = read(text);
        assert_eq!(brandub.side(), 7);
        assert_eq!(
            brandub.to_string(),
            text.replace("  ", " "),
            "spaces as one"
        );
        let start = brandub.start::<Seven>().unwrap();
        assert_eq!(
            (start.king().to_string(), start.side_to_move()),
            ("d4".into(), Side::Attackers)
        );
        let e = |v: &str| ChosenRules::read(v).unwrap_err().to_string();
        assert!(
            e("dim:8 start:/8/").contains("board size '8'"),
            "{}",
            e("dim:8 start:/8/")
        );
        assert!(
            e("dim:7 kj:y start:/7/").contains("'kj:y'"),
            "{}",
            e("dim:7 kj:y start:/7/")
        );
        assert!(e("dim:7").contains("no start position"));
        // A start that does not fit the board is refused when the rules are taken.
        assert!(
            read("dim:7 start:/7/")
                .start::<Seven>()
                .unwrap_err()
                .to_string()
                .contains("start: ")
        );
    }
}
