//! `hnefi serve` run for real on a free port, and plain HTTP/1.1 requests to it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// A running `hnefi serve`, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub authority: String,
    pub url: String,
}

impl Server {
    /// Starts `hnefi serve --port 0` with `args`, and reads the address it prints.
    pub fn start(args: &[&str]) -> Server {
        Server::start_in(&std::env::current_dir().expect("a folder"), args)
    }

    /// [`Server::start`] run in `dir`.
    pub fn start_in(dir: &std::path::Path, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
            .current_dir(dir)
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hnefi serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the address");
        let url = line.trim().to_string();
        let authority = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        assert!(authority.starts_with("127.0.0.1:"), "printed {line:?}");
        Server {
            child,
            authority,
            url,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// One request with the server's own Host; the status and the body.
    pub fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        self.raw(method, path, &format!("Host: {}\r\n", self.authority), body)
    }

    /// One request with the headers given (each ending in CRLF).
    pub fn raw(&self, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.authority).expect("connect");
        let request = format!(
            "{method} {path} HTTP/1.1\r\n{headers}Content-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).expect("send");
        let mut answer = Vec::new();
        // A server may answer and close before reading a body it refuses.
        let _ = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text
            .split_once("\r\n\r\n")
            .map_or(String::new(), |(_, b)| b.to_string());
        (status, body)
    }

    /// A new session of `rules` where the engine plays `engine`; its id and first view.
    pub fn session(&self, rules: &str, engine: &str) -> (String, serde_json::Value) {
        self.session_with(rules, engine, 0, 50)
    }

    /// A new session whose engine plays at `level`, `movetime` ms a move.
    pub fn session_with(
        &self,
        rules: &str,
        engine: &str,
        level: u8,
        movetime: u32,
    ) -> (String, serde_json::Value) {
        let (status, body) = self.request(
            "POST",
            "/api/sessions",
            &format!(
                r#"{{"rules":"{rules}","engine":"{engine}","level":{level},"movetime":{movetime}}}"#
            ),
        );
        assert_eq!(status, 200, "{body}");
        let answer: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        (
            answer["id"].as_str().expect("id").to_string(),
            answer["view"].clone(),
        )
    }

    /// Opens the session's event stream and reads its first bytes; the stream stays open
    /// until the returned socket is dropped.
    pub fn listen(&self, id: &str) -> (TcpStream, String) {
        let mut stream = TcpStream::connect(&self.authority).expect("connect");
        let request = format!(
            "GET /api/sessions/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            self.authority
        );
        stream.write_all(request.as_bytes()).expect("send");
        let mut first = vec![0; 4096];
        let n = stream.read(&mut first).expect("the stream's start");
        (stream, String::from_utf8_lossy(&first[..n]).into_owned())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The CPU time a process has used so far, in clock ticks (Linux).
pub fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc stat");
    // The fields after the command name, which is in parentheses and may hold spaces.
    let after = &stat[stat.rfind(')').expect("a command name") + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// The memory a process holds, in KB (Linux).
pub fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmRSS")
}
