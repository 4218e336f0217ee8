//! What the user says about each engine of a match, as `key=value` words the way fastchess
//! takes them: `cmd=./hnefi name=new proto=uci tc=10+0.1 option.Hash=32`.

use crate::protocol::{Protocol, UnknownProtocol};
use crate::search::SideClock;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Why an engine's words do not make an engine.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SpecError {
    #[error("'{0}' is not key=value")]
    NotKeyValue(String),
    #[error(transparent)]
    Protocol(#[from] UnknownProtocol),
    #[error("{what}: '{text}' is not a number of seconds")]
    Seconds { what: &'static str, text: String },
    #[error("{what}: {secs} seconds is out of range")]
    SecondsRange { what: &'static str, secs: f64 },
    #[error("tc: '{0}' is not a number of minutes")]
    Minutes(String),
    #[error("tc: main time must be above zero")]
    NoMainTime,
    #[error("nodes: '{0}' is not a count")]
    Nodes(String),
    #[error("depth: '{0}' is not a depth")]
    Depth(String),
    #[error("listen: '{0}' is not PORT or HOST:PORT")]
    Listen(String),
    #[error(
        "unknown engine key '{0}' (known: cmd, name, args, dir, proto, tc, st, nodes, depth, \
         listen, stderr, option.NAME)"
    )]
    UnknownKey(String),
    #[error("an engine needs cmd=COMMAND")]
    NoCommand,
    #[error("engine '{0}': give tc= or st=, not both")]
    TwoTimes(String),
    #[error("engine '{0}': listen= is for proto=htp only")]
    ListenWithoutHtp(String),
    #[error(
        "engine '{0}': {1} cannot limit an engine by st=, nodes= or depth=; give tc= or nothing (the \
         engine's own pace)"
    )]
    ClockOnly(String, Protocol),
    #[error("engine '{0}': a UCI engine needs a limit: tc=, st=, nodes= or depth=")]
    NoLimit(String),
    #[error("engine '{0}': option.NAME= is sent as UCI setoption; {1} has no options")]
    Options(String, Protocol),
}

/// How long an engine may think. The runner keeps the clocks whatever the protocol can say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// The clock a game starts with: main time and increment per move.
    pub clock: Option<SideClock>,
    /// A fixed time per move.
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

impl TimeControl {
    /// Whether the runner checks a time limit (a clock or a move time).
    pub fn timed(&self) -> bool {
        self.clock.is_some() || self.movetime.is_some()
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = self.clock {
            parts.push(format!(
                "tc={}+{}",
                c.left.as_secs_f64(),
                c.inc.as_secs_f64()
            ));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("st={}", t.as_secs_f64()));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if parts.is_empty() {
            parts.push("untimed".into());
        }
        parts.join(" ")
    }
}

/// One engine of a match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub proto: Protocol,
    pub tc: TimeControl,
    /// Engine options, sent as `setoption` (UCI only).
    pub options: Vec<(String, String)>,
    /// HTP only: the engine is a client that connects to this address, as to
    /// hnefatafl-copenhagen's light server, instead of talking on stdin and stdout.
    pub listen: Option<SocketAddr>,
    /// A file that collects the engine's standard error (else it is discarded).
    pub stderr: Option<PathBuf>,
}

fn seconds(text: &str, what: &'static str) -> Result<Duration, SpecError> {
    let secs: f64 = text.parse().map_err(|_| SpecError::Seconds {
        what,
        text: text.to_string(),
    })?;
    if !(0.0..=1e7).contains(&secs) {
        return Err(SpecError::SecondsRange { what, secs });
    }
    Ok(Duration::from_secs_f64(secs))
}

/// `SECONDS+INCREMENT`, `MINUTES:SECONDS+INCREMENT`, `SECONDS` or `inf`.
fn parse_clock(text: &str) -> Result<Option<SideClock>, SpecError> {
    if text == "inf" || text == "none" {
        return Ok(None);
    }
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    // `M:SS` is minutes and seconds.
    let base = match base.split_once(':') {
        Some((m, s)) => {
            let m: u32 = m.parse().map_err(|_| SpecError::Minutes(m.to_string()))?;
            seconds(s, "tc")? + Duration::from_secs(60 * u64::from(m))
        }
        None => seconds(base, "tc")?,
    };
    if base.is_zero() {
        return Err(SpecError::NoMainTime);
    }
    Ok(Some(SideClock::new(base, seconds(inc, "tc increment")?)))
}

impl EngineSpec {
    /// Builds a spec from the words given for `--each` and then those of the engine itself
    /// (later words win).
    pub fn parse(each: &[String], words: &[String]) -> Result<EngineSpec, SpecError> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            dir: None,
            proto: Protocol::Uci,
            tc: TimeControl::default(),
            options: Vec::new(),
            listen: None,
            stderr: None,
        };
        for word in each.iter().chain(words) {
            let Some((key, value)) = word.split_once('=') else {
                return Err(SpecError::NotKeyValue(word.to_string()));
            };
            match key {
                "cmd" => spec.cmd = value.to_string(),
                "name" => spec.name = value.to_string(),
                "args" => spec.args = value.split_whitespace().map(String::from).collect(),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "stderr" => spec.stderr = Some(PathBuf::from(value)),
                "proto" | "protocol" => spec.proto = value.parse()?,
                "tc" => spec.tc.clock = parse_clock(value)?,
                "st" => spec.tc.movetime = Some(seconds(value, "st")?),
                "nodes" => {
                    spec.tc.nodes = Some(
                        value
                            .parse()
                            .map_err(|_| SpecError::Nodes(value.to_string()))?,
                    )
                }
                "depth" => {
                    spec.tc.depth = Some(
                        value
                            .parse()
                            .map_err(|_| SpecError::Depth(value.to_string()))?,
                    )
                }
                "listen" => {
                    let addr = if value.contains(':') {
                        value.to_string()
                    } else {
                        format!("127.0.0.1:{value}")
                    };
                    spec.listen = Some(
                        addr.parse()
                            .map_err(|_| SpecError::Listen(value.to_string()))?,
                    );
                }
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.retain(|(n, _)| n != name);
                        spec.options.push((name.to_string(), value.to_string()));
                    }
                    _ => {
                        return Err(SpecError::UnknownKey(key.to_string()));
                    }
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err(SpecError::NoCommand);
        }
        if spec.name.is_empty() {
            spec.name = std::path::Path::new(&spec.cmd)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.cmd.clone());
        }
        spec.check()?;
        Ok(spec)
    }

    fn check(&self) -> Result<(), SpecError> {
        let tc = &self.tc;
        if tc.clock.is_some() && tc.movetime.is_some() {
            return Err(SpecError::TwoTimes(self.name.clone()));
        }
        if self.listen.is_some() && self.proto != Protocol::Htp {
            return Err(SpecError::ListenWithoutHtp(self.name.clone()));
        }
        // OpenTafl and the hnefatafl text protocol can only tell an engine about a clock.
        if self.proto != Protocol::Uci
            && (tc.movetime.is_some() || tc.nodes.is_some() || tc.depth.is_some())
        {
            return Err(SpecError::ClockOnly(self.name.clone(), self.proto));
        }
        // `go` with no limit is an infinite search to a UCI engine.
        if self.proto == Protocol::Uci
            && tc.clock.is_none()
            && tc.movetime.is_none()
            && tc.nodes.is_none()
            && tc.depth.is_none()
        {
            return Err(SpecError::NoLimit(self.name.clone()));
        }
        if !self.options.is_empty() && self.proto != Protocol::Uci {
            return Err(SpecError::Options(self.name.clone(), self.proto));
        }
        Ok(())
    }

    /// One line for reports: the name, protocol and limits.
    pub fn describe(&self) -> String {
        format!("{} ({}, {})", self.name, self.proto, self.tc.describe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn specs_parse_with_each_and_overrides() {
        let s = EngineSpec::parse(
            &words("tc=10+0.1 option.Hash=8"),
            &words("cmd=/usr/bin/hnefi option.Hash=32 option.Threads=1"),
        )
        .unwrap();
        assert_eq!(s.name, "hnefi");
        assert_eq!(s.proto, Protocol::Uci);
        assert_eq!(
            s.tc.clock,
            Some(SideClock::new(
                Duration::from_secs(10),
                Duration::from_millis(100)
            ))
        );
        assert_eq!(
            s.options,
            vec![("Hash".into(), "32".into()), ("Threads".into(), "1".into())]
        );
        let m = EngineSpec::parse(&[], &words("cmd=x tc=1:30+2")).unwrap();
        assert_eq!(
            m.tc.clock,
            Some(SideClock::new(
                Duration::from_secs(90),
                Duration::from_secs(2)
            ))
        );
        let h = EngineSpec::parse(
            &[],
            &words("cmd=hnefatafl-text-protocol proto=htp listen=49152 name=ref"),
        )
        .unwrap();
        assert_eq!(h.listen, Some("127.0.0.1:49152".parse().unwrap()));
        assert_eq!(h.describe(), "ref (htp, untimed)");
    }

    #[test]
    fn bad_specs_say_why() {
        let err = |w: &str| EngineSpec::parse(&[], &words(w)).unwrap_err().to_string();
        assert!(err("name=x").contains("cmd="));
        assert!(err("cmd=x nodes=1 proto=xboard").contains("unknown protocol"));
        assert!(err("cmd=x tc=abc").contains("not a number"));
        assert!(err("cmd=x tc=0+1").contains("above zero"));
        assert!(err("cmd=x nodes=-4").contains("not a count"));
        assert!(err("cmd=x proto=otep nodes=100").contains("cannot limit"));
        assert!(err("cmd=x nodes=1 listen=1234").contains("proto=htp"));
        assert!(err("cmd=x").contains("needs a limit"));
        assert!(err("cmd=x nodes=1 colour=red").contains("unknown engine key"));
        assert!(err("cmd=x tc=1 st=1").contains("not both"));
        assert!(err("cmd").contains("key=value"));
    }
}
