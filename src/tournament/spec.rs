//! What the user says about each engine of a match, as `key=value` words the way fastchess
//! takes them: `cmd=./hnefi name=new proto=uci tc=10+0.1 option.Hash=32`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The text protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Otep,
    Htp,
}

impl Proto {
    fn parse(text: &str) -> Result<Proto, String> {
        match text.to_ascii_lowercase().as_str() {
            "uci" => Ok(Proto::Uci),
            "otep" | "opentafl" => Ok(Proto::Otep),
            "htp" | "hnefatafl" => Ok(Proto::Htp),
            other => Err(format!(
                "unknown protocol '{other}' (known: uci, otep, htp)"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Proto::Uci => "uci",
            Proto::Otep => "otep",
            Proto::Htp => "htp",
        }
    }
}

/// How long an engine may think. The runner keeps the clocks whatever the protocol can say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time and increment per move.
    pub clock: Option<(Duration, Duration)>,
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
        if let Some((base, inc)) = self.clock {
            parts.push(format!("tc={}+{}", base.as_secs_f64(), inc.as_secs_f64()));
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
    pub proto: Proto,
    pub tc: TimeControl,
    /// Engine options, sent as `setoption` (UCI only).
    pub options: Vec<(String, String)>,
    /// HTP only: the engine is a client that connects to this address, as to
    /// hnefatafl-copenhagen's light server, instead of talking on stdin and stdout.
    pub listen: Option<SocketAddr>,
    /// A file that collects the engine's standard error (else it is discarded).
    pub stderr: Option<PathBuf>,
}

fn seconds(text: &str, what: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("{what}: '{text}' is not a number of seconds"))?;
    if !(0.0..=1e7).contains(&secs) {
        return Err(format!("{what}: {secs} seconds is out of range"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// `SECONDS+INCREMENT`, `MINUTES:SECONDS+INCREMENT`, `SECONDS` or `inf`.
fn parse_clock(text: &str) -> Result<Option<(Duration, Duration)>, String> {
    if text == "inf" || text == "none" {
        return Ok(None);
    }
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    // `M:SS` is minutes and seconds.
    let base = match base.split_once(':') {
        Some((m, s)) => {
            let m: u32 = m
                .parse()
                .map_err(|_| format!("tc: '{m}' is not a number of minutes"))?;
            seconds(s, "tc")? + Duration::from_secs(60 * u64::from(m))
        }
        None => seconds(base, "tc")?,
    };
    if base.is_zero() {
        return Err("tc: main time must be above zero".into());
    }
    Ok(Some((base, seconds(inc, "tc increment")?)))
}

impl EngineSpec {
    /// Builds a spec from the words given for `--each` and then those of the engine itself
    /// (later words win).
    pub fn parse(each: &[String], words: &[String]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            dir: None,
            proto: Proto::Uci,
            tc: TimeControl::default(),
            options: Vec::new(),
            listen: None,
            stderr: None,
        };
        for word in each.iter().chain(words) {
            let Some((key, value)) = word.split_once('=') else {
                return Err(format!("'{word}' is not key=value"));
            };
            match key {
                "cmd" => spec.cmd = value.to_string(),
                "name" => spec.name = value.to_string(),
                "args" => spec.args = value.split_whitespace().map(String::from).collect(),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "stderr" => spec.stderr = Some(PathBuf::from(value)),
                "proto" | "protocol" => spec.proto = Proto::parse(value)?,
                "tc" => spec.tc.clock = parse_clock(value)?,
                "st" => spec.tc.movetime = Some(seconds(value, "st")?),
                "nodes" => {
                    spec.tc.nodes = Some(
                        value
                            .parse()
                            .map_err(|_| format!("nodes: '{value}' is not a count"))?,
                    )
                }
                "depth" => {
                    spec.tc.depth = Some(
                        value
                            .parse()
                            .map_err(|_| format!("depth: '{value}' is not a depth"))?,
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
                            .map_err(|_| format!("listen: '{value}' is not PORT or HOST:PORT"))?,
                    );
                }
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.retain(|(n, _)| n != name);
                        spec.options.push((name.to_string(), value.to_string()));
                    }
                    _ => {
                        return Err(format!(
                            "unknown engine key '{key}' (known: cmd, name, args, dir, proto, \
                             tc, st, nodes, depth, listen, stderr, option.NAME)"
                        ));
                    }
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err("an engine needs cmd=COMMAND".into());
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

    fn check(&self) -> Result<(), String> {
        let tc = &self.tc;
        if tc.clock.is_some() && tc.movetime.is_some() {
            return Err(format!("{}: give tc= or st=, not both", self.name));
        }
        if self.listen.is_some() && self.proto != Proto::Htp {
            return Err(format!("{}: listen= is for proto=htp only", self.name));
        }
        // OpenTafl and the hnefatafl text protocol can only tell an engine about a clock.
        if self.proto != Proto::Uci
            && (tc.movetime.is_some() || tc.nodes.is_some() || tc.depth.is_some())
        {
            return Err(format!(
                "{}: {} cannot limit an engine by st=, nodes= or depth=; give tc= or \
                 nothing (the engine's own pace)",
                self.name,
                self.proto.name()
            ));
        }
        // `go` with no limit is an infinite search to a UCI engine.
        if self.proto == Proto::Uci
            && tc.clock.is_none()
            && tc.movetime.is_none()
            && tc.nodes.is_none()
            && tc.depth.is_none()
        {
            return Err(format!(
                "{}: a UCI engine needs a limit: tc=, st=, nodes= or depth=",
                self.name
            ));
        }
        if !self.options.is_empty() && self.proto != Proto::Uci {
            return Err(format!(
                "{}: option.NAME= is sent as UCI setoption; {} has no options",
                self.name,
                self.proto.name()
            ));
        }
        Ok(())
    }

    /// One line for reports: the name, protocol and limits.
    pub fn describe(&self) -> String {
        format!(
            "{} ({}, {})",
            self.name,
            self.proto.name(),
            self.tc.describe()
        )
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
        assert_eq!(s.proto, Proto::Uci);
        assert_eq!(
            s.tc.clock,
            Some((Duration::from_secs(10), Duration::from_millis(100)))
        );
        assert_eq!(
            s.options,
            vec![("Hash".into(), "32".into()), ("Threads".into(), "1".into())]
        );
        let m = EngineSpec::parse(&[], &words("cmd=x tc=1:30+2")).unwrap();
        assert_eq!(
            m.tc.clock,
            Some((Duration::from_secs(90), Duration::from_secs(2)))
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
        let err = |w: &str| EngineSpec::parse(&[], &words(w)).unwrap_err();
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
