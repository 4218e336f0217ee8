//! A small WebDriver client for headless Chromium through chromedriver: just what the browser
//! tests need (open a page, find elements, click, drag, type, press keys, read, run a script,
//! wait for the page, screenshot), spoken as JSON over HTTP/1.1 to a chromedriver on the
//! loopback address.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{BufRead, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The W3C name of an element reference in JSON.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A program on the PATH.
pub fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// Chromium and chromedriver, or why the browser tests cannot run here (outside CI they are
/// skipped with a note; under CI they must run).
pub fn browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"]);
    let driver = find_program(&["chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            let message = "the browser test needs chromium and chromedriver \
                           (apt-get install chromium chromium-driver)";
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must run it: {message}"
            );
            eprintln!("skipped: {message}");
            None
        }
    }
}

/// WebDriver's codes of keys without a character.
pub mod key {
    pub const HOME: &str = "\u{E011}";
    pub const END: &str = "\u{E010}";
    pub const LEFT: &str = "\u{E012}";
    pub const RIGHT: &str = "\u{E014}";
}

/// Why a WebDriver request failed.
#[derive(Debug)]
enum WireError {
    /// The socket failed at this step.
    Io(&'static str, std::io::Error),
    /// The answer is not the HTTP or JSON it should be.
    Malformed(String),
    /// chromedriver answered with an error, or a status other than 200.
    Refused(String),
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::Io(step, e) => write!(f, "{step}: {e}"),
            WireError::Malformed(what) => write!(f, "malformed answer: {what}"),
            WireError::Refused(why) => write!(f, "refused: {why}"),
        }
    }
}

fn io(step: &'static str) -> impl FnOnce(std::io::Error) -> WireError {
    move |e| WireError::Io(step, e)
}

/// A browser session; ends the session and chromedriver when dropped.
pub struct Session {
    driver: Child,
    port: u16,
    id: String,
    _profile: TempDir,
}

#[derive(Clone, Debug)]
pub struct Element(String);

impl Session {
    /// Starts chromedriver and a headless Chromium with a fresh profile; `javascript` false
    /// turns the page's scripts off (WebDriver's own still run). The browser's network is
    /// cut but for the loopback address, where the pages under test are served: no name
    /// resolves, and every other address goes to a proxy that is not there.
    pub fn start(chromium: &Path, chromedriver: &Path, javascript: bool) -> Session {
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let profile = TempDir::new("hnefi-chromium");
        let mut session = Session {
            driver,
            port,
            id: String::new(),
            _profile: profile,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while session.call("GET", "/status", None).is_err() {
            assert!(
                Instant::now() < deadline,
                "chromedriver did not answer on port {port}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let args = [
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            "--window-size=1400,1000".into(),
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1".into(),
            // Chromium never sends the loopback address through a proxy.
            "--proxy-server=http://127.0.0.1:9".into(),
            format!("--user-data-dir={}", session._profile.0.display()),
        ];
        let mut options = json!({ "binary": chromium, "args": args });
        if !javascript {
            options["prefs"] = json!({ "profile.managed_default_content_settings.javascript": 2 });
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options } } });
        let answer = session
            .call("POST", "/session", Some(caps))
            .unwrap_or_else(|e| panic!("no browser session: {e}"));
        session.id = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session id in {answer}"))
            .to_string();
        session
    }

    /// Makes the page's viewport `width` by `height` CSS pixels, as on a phone, touch and
    /// all: the page's own width, not the window's, is what a layout must fit.
    pub fn viewport(&self, width: u32, height: u32) {
        let metrics = json!({ "cmd": "Emulation.setDeviceMetricsOverride", "params": {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": true } });
        self.command("POST", "goog/cdp/execute", Some(metrics));
    }

    pub fn goto(&self, url: &str) {
        self.command("POST", "url", Some(json!({ "url": url })));
    }

    pub fn find_all(&self, css: &str) -> Vec<Element> {
        let found = self.command(
            "POST",
            "elements",
            Some(json!({ "using": "css selector", "value": css })),
        );
        found
            .as_array()
            .map(|a| a.iter().map(element).collect())
            .unwrap_or_default()
    }

    pub fn find(&self, css: &str) -> Element {
        let mut all = self.find_all(css);
        assert!(!all.is_empty(), "no element matches {css}");
        all.swap_remove(0)
    }

    /// A real click: WebDriver scrolls the element into view and sends the mouse events.
    pub fn click(&self, e: &Element) {
        self.command("POST", &format!("element/{}/click", e.0), Some(json!({})));
    }

    /// Finds the first element `css` matches and clicks it, finding it again while the page
    /// replaces it in between (a list that events redraw).
    pub fn click_live(&self, css: &str) {
        for _ in 0..50 {
            let e = self.find(css);
            let path = format!("/session/{}/element/{}/click", self.id, e.0);
            match self.call("POST", &path, Some(json!({}))) {
                Ok(_) => return,
                Err(WireError::Refused(why)) if why.contains("stale element") => continue,
                Err(e) => panic!("click {css}: {e}"),
            }
        }
        panic!("click {css}: the element never stayed long enough to be clicked");
    }

    pub fn attribute(&self, e: &Element, name: &str) -> Option<String> {
        let v = self.command("GET", &format!("element/{}/attribute/{name}", e.0), None);
        v.as_str().map(str::to_string)
    }

    pub fn displayed(&self, e: &Element) -> bool {
        self.command("GET", &format!("element/{}/displayed", e.0), None)
            .as_bool()
            .unwrap_or(false)
    }

    pub fn execute(&self, script: &str) -> Value {
        self.command(
            "POST",
            "execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Runs `script` (a function body that returns a value) until its value is neither null,
    /// false nor undefined, and returns it. A guard of a minute against a hang, not a timing:
    /// the page may be as slow as a loaded machine makes it.
    pub fn wait(&self, script: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.execute(script);
            if !(v.is_null() || v == Value::Bool(false)) {
                return v;
            }
            assert!(
                Instant::now() < deadline,
                "the page never made true: {script}"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Types `text` into `e` as keystrokes.
    pub fn type_into(&self, e: &Element, text: &str) {
        self.command(
            "POST",
            &format!("element/{}/value", e.0),
            Some(json!({ "text": text })),
        );
    }

    /// Presses and releases `key` (a character, or one of [`key`]) on the focused element.
    pub fn press(&self, key: &str) {
        let actions = json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": [
            { "type": "keyDown", "value": key }, { "type": "keyUp", "value": key } ] }] });
        self.command("POST", "actions", Some(actions));
    }

    /// Drags with the mouse from the centre of `from` to the centre of `to`.
    pub fn drag(&self, from: &Element, to: &Element) {
        let at = |e: &Element| json!({ ELEMENT: e.0 });
        let actions = json!({ "actions": [{ "type": "pointer", "id": "mouse",
            "parameters": { "pointerType": "mouse" }, "actions": [
            { "type": "pointerMove", "origin": at(from), "x": 0, "y": 0 },
            { "type": "pointerDown", "button": 0 },
            { "type": "pointerMove", "origin": at(from), "x": 8, "y": 8, "duration": 50 },
            { "type": "pointerMove", "origin": at(to), "x": 0, "y": 0, "duration": 100 },
            { "type": "pointerUp", "button": 0 } ] }] });
        self.command("POST", "actions", Some(actions));
    }

    /// The visible part of the page as PNG bytes.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.command("GET", "screenshot", None);
        decode_base64(v.as_str().expect("screenshot data"))
    }

    fn command(&self, method: &str, what: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}/{what}", self.id);
        self.call(method, &path, body)
            .unwrap_or_else(|e| panic!("{method} {what}: {e}"))
    }

    /// One request; the `value` of the answer, or the WebDriver error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, WireError> {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(io("connect"))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .map_err(io("set a timeout"))?;
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        stream.write_all(request.as_bytes()).map_err(io("send"))?;
        let (head, payload) = read_response(&mut stream)?;
        let answer: Value = serde_json::from_str(&payload)
            .map_err(|e| WireError::Malformed(format!("bad JSON ({e}): {payload}")))?;
        let value = answer.get("value").cloned().unwrap_or(Value::Null);
        if let Some(error) = value.get("error") {
            return Err(WireError::Refused(format!("{error}: {}", value["message"])));
        }
        if !head.starts_with("HTTP/1.1 200") {
            return Err(WireError::Refused(
                head.lines().next().unwrap_or_default().to_string(),
            ));
        }
        Ok(value)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if !self.id.is_empty() {
            let _ = self.call("DELETE", &format!("/session/{}", self.id), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn element(v: &Value) -> Element {
    Element(
        v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("not an element: {v}"))
            .to_string(),
    )
}

fn free_port() -> u16 {
    TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// The header and body of one HTTP answer. chromedriver keeps the connection open whatever
/// the request says, so the body is read by its length, never to the end of the stream.
fn read_response(stream: &mut TcpStream) -> Result<(String, String), WireError> {
    let mut reader = std::io::BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        let n = reader.read_line(&mut line).map_err(io("read"))?;
        if n == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let header = |name: &str| {
        head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    };
    let mut body = Vec::new();
    if header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).map_err(io("read"))?;
            let n = usize::from_str_radix(size.trim(), 16)
                .map_err(|e| WireError::Malformed(format!("chunk size ({e})")))?;
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).map_err(io("read"))?;
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        let n: usize = header("content-length")
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| WireError::Malformed("no Content-Length".into()))?;
        body.resize(n, 0);
        reader.read_exact(&mut body).map_err(io("read"))?;
    }
    Ok((head, String::from_utf8_lossy(&body).into_owned()))
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    digits
        .chunks(4)
        .flat_map(|c| {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
            let bytes = n.to_be_bytes();
            bytes[1..c.len()].to_vec()
        })
        .collect()
}

/// A directory removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(prefix: &str) -> TempDir {
        use std::sync::atomic::{AtomicU64, Ordering};
        static MADE: AtomicU64 = AtomicU64::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
