//! `hnefi serve` over HTTP, run for real: who may ask, what is refused and how, the limit on
//! sessions, and a session whose page has gone stopping its search.

use crate::common;

use common::server::{Server, cpu_ticks, rss_kb};
use serde_json::Value;
use std::time::{Duration, Instant};

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// Polls `done` every 20 ms for up to a minute: a hang fails, slowness does not.
fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn prints_its_address_and_refuses_other_hosts_and_origins() {
    let server = Server::start(&[]);
    let (status, page) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("<title>Hnefi · board</title>"));
    let port = server.authority.rsplit(':').next().unwrap();
    for (headers, why) in [
        ("Host: evil.example\r\n".to_string(), "Host header"),
        (format!("Host: attacker.example:{port}\r\n"), "Host header"),
        (String::new(), "Host header"),
        (
            format!(
                "Host: {}\r\nOrigin: http://evil.example\r\n",
                server.authority
            ),
            "requests from the page at http://evil.example are refused",
        ),
    ] {
        for (method, path) in [("GET", "/"), ("POST", "/api/sessions")] {
            let (status, body) = server.raw(method, path, &headers, "{}");
            assert_eq!(status, 403, "{headers:?} {body}");
            assert!(body.contains(why), "{body}");
        }
    }
    // Its own names pass.
    let own = format!("Host: localhost:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n");
    assert_eq!(server.raw("GET", "/", &own, "").0, 200);
}

#[test]
fn another_address_is_served_with_a_warning() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args([
            "serve",
            "--port",
            "0",
            "--host",
            "0.0.0.0",
            "--sessions",
            "0",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("--sessions 0: must be 1-256"),
        "{err}"
    );
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["serve", "--port", "0", "--host", "0.0.0.0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(line.starts_with("http://0.0.0.0:"), "{line}");
    assert!(err.contains("warning: listening on 0.0.0.0"), "{err}");
}

/// `--host` takes a host name, as people write it: the server listens on its address and
/// answers to the name as to its own. A name that resolves to nothing is refused with why.
#[test]
fn a_host_name_is_resolved_and_answered_to() {
    let dir = common::Outside::new("serve-host");
    let server = Server::start_in(&dir.0, &["--host", "localhost"]);
    let port = server.authority.rsplit(':').next().unwrap();
    let named = format!("Host: localhost:{port}\r\nOrigin: http://localhost:{port}\r\n");
    assert_eq!(server.raw("GET", "/", &named, "").0, 200);
    assert_eq!(server.request("GET", "/", "").0, 200);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .current_dir(&dir.0)
        .args(["serve", "--port", "0", "--host", "no-such-host.invalid"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && out.stdout.is_empty(), "{err}");
    assert!(
        err.starts_with("hnefi: --host no-such-host.invalid: cannot find its address (")
            && err.contains("give an IP address"),
        "{err}"
    );
}

/// `--open` where no browser can be opened says so on standard error, the address on
/// standard output as ever: the opener missing, or failing (xdg-open finds no browser).
#[cfg(unix)]
#[test]
fn open_says_when_no_browser_could_be_opened() {
    use std::io::BufRead;
    use std::os::unix::fs::PermissionsExt;
    let dir = common::Outside::new("serve-open");
    let failing = dir.0.join("failing");
    let none = dir.0.join("none");
    std::fs::create_dir_all(&failing).unwrap();
    std::fs::create_dir_all(&none).unwrap();
    for opener in ["xdg-open", "open"] {
        let script = failing.join(opener);
        // As xdg-open does when it finds no browser: status 3.
        std::fs::write(&script, "#!/bin/sh\nexit 3\n").unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for (path, why) in [
        (&failing, "failed (exit status: 3)"),
        (&none, "cannot run "),
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hnefi"))
            .current_dir(&dir.0)
            .args(["serve", "--port", "0", "--open"])
            .env("PATH", path)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut url = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut url)
            .unwrap();
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        // The note is read on a thread, so that a server that never writes it fails the
        // test after a minute rather than hanging it.
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                let _ = tx.send(line);
            }
        });
        let line = rx.recv_timeout(Duration::from_secs(60));
        let _ = child.kill();
        let _ = child.wait();
        let line = line.expect("a note on standard error");
        assert!(
            line.starts_with("hnefi: no browser could be opened: ")
                && line.contains(why)
                && line.ends_with(&format!("; open {} in a browser", url.trim())),
            "{line}"
        );
    }
}

#[test]
fn bad_requests_get_a_4xx_with_their_reason() {
    let server = Server::start(&[]);
    let (id, view) = server.session("brandubh", "none");
    assert_eq!(view["side"], 7);
    assert_eq!(view["to_move"], "defenders");
    let at = format!("/api/sessions/{id}");
    let cases: [(&str, &str, &str, u16, &str); 10] = [
        ("POST", &at, "not json", 400, "bad request: expected ident"),
        ("POST", &at, r#"{"do":"fly"}"#, 400, "unknown variant `fly`"),
        (
            "POST",
            &at,
            r#"{"do":"play","moves":["d4-d7"]}"#,
            422,
            "d4-d7 cannot be played here",
        ),
        (
            "POST",
            &at,
            r#"{"do":"play","moves":["z9-z1"]}"#,
            422,
            "cannot be played here",
        ),
        (
            "POST",
            &at,
            r#"{"do":"goto","ply":5}"#,
            422,
            "there is no move 5: the game has 0",
        ),
        (
            "POST",
            &at,
            r#"{"do":"analyse","on":true,"lines":9}"#,
            422,
            "9 analysis lines",
        ),
        (
            "POST",
            "/api/sessions/123",
            r#"{"do":"takeback"}"#,
            404,
            "no session 123",
        ),
        ("GET", "/api/sessions/123/events", "", 404, "no session 123"),
        ("GET", "/nothing", "", 404, "no such page"),
        (
            "DELETE",
            &at,
            "",
            405,
            "DELETE is not a request for /api/sessions/",
        ),
    ];
    for (method, path, body, status, message) in cases {
        let (got, answer) = server.request(method, path, body);
        assert_eq!(got, status, "{body}: {answer}");
        assert!(
            json(&answer)["error"].as_str().unwrap().contains(message),
            "{answer}"
        );
    }
    let (status, answer) = server.request(
        "POST",
        "/api/sessions",
        r#"{"rules":"chess","engine":"none","level":0,"movetime":50}"#,
    );
    assert_eq!(status, 422);
    assert!(answer.contains("unknown rules preset 'chess'"), "{answer}");
    // A huge body is refused unread, and the session goes on.
    let huge = format!(r#"{{"do":"load","text":"{}"}}"#, "a".repeat(1 << 20));
    let (status, answer) = server.request("POST", &at, &huge);
    assert_eq!(status, 413, "{answer}");
    assert!(answer.contains("larger than the 256 KB"), "{answer}");
    // A line is all or nothing: its second move refused, the first is not played.
    let (status, answer) =
        server.request("POST", &at, r#"{"do":"play","moves":["d5-f5","d5-d4"]}"#);
    assert_eq!(status, 422, "{answer}");
    let (status, answer) = server.request("POST", &at, r#"{"do":"play","moves":["d5-f5"]}"#);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(json(&answer)["moves"][0]["text"], "d5-f5");
}

#[test]
fn games_load_and_export_on_every_board() {
    let server = Server::start(&[]);
    for (rules, side) in [
        ("copenhagen", 11),
        ("copenhagen-2017", 11),
        ("hnefatafl-org", 11),
        ("fetlar", 11),
        ("brandubh", 7),
        ("copenhagen-13", 13),
        ("tablut", 9),
        ("foteviken-tablut", 9),
        ("sea-battle", 9),
        ("tawlbwrdd", 11),
        ("brandub", 7),
        ("magpie", 7),
    ] {
        let (id, view) = server.session(rules, "none");
        assert_eq!(view["side"], side, "{rules}");
        assert_eq!(view["squares"].as_array().unwrap().len(), side * side);
        assert!(!view["legal"].as_array().unwrap().is_empty(), "{rules}");
        assert!(view["svg"].as_str().unwrap().starts_with("<svg"));
        // Unattended, it closes when its page never comes; here it is closed at once.
        drop(server.listen(&id));
    }
    let (id, _) = server.session("copenhagen", "none");
    let at = format!("/api/sessions/{id}");
    let _listening = server.listen(&id);
    let (status, answer) = server.request(
        "POST",
        &at,
        r#"{"do":"load","text":"1. d1-d3 e5-e2 2. g1-g3 f4-c4 3. g3-e3"}"#,
    );
    assert_eq!(status, 200, "{answer}");
    let view = json(&answer);
    assert_eq!(view["note"], "game of 5 moves loaded");
    assert_eq!(view["moves"][4]["text"], "g3-e3xe2");
    let (status, record) = server.request("GET", &format!("{at}/export/record"), "");
    assert_eq!(status, 200);
    assert_eq!(record, "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Ongoing");
    let (status, otg) = server.request("GET", &format!("{at}/export/otg"), "");
    assert_eq!(status, 200);
    assert!(
        otg.contains("[rules:dim:11") && otg.contains("3. g3-e3xe2"),
        "{otg}"
    );
    // The .otg loads back as the same game, and a FEN of another board changes the board.
    let body = serde_json::json!({ "do": "load", "text": otg }).to_string();
    let (status, answer) = server.request("POST", &at, &body);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(json(&answer)["moves"].as_array().unwrap().len(), 5);
    let fen = r#"{"do":"load","text":"3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d"}"#;
    let (status, answer) = server.request("POST", &at, fen);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (
            json(&answer)["side"].clone(),
            json(&answer)["rules"].clone()
        ),
        (7.into(), "brandubh".into())
    );
    // A path on the server is not a game: the page cannot name files.
    let (status, answer) = server.request("POST", &at, r#"{"do":"load","text":"Cargo.toml"}"#);
    assert_eq!(status, 422, "{answer}");
    let (status, answer) = server.request("GET", &format!("{at}/export/passwd"), "");
    assert_eq!(status, 400, "{answer}");
    let (status, html) = server.request("GET", &format!("{at}/export/report"), "");
    assert_eq!(status, 422, "the game has no moves: {html}");
}

#[test]
fn the_engine_answers_a_move_and_take_back_returns_to_the_persons_turn() {
    let server = Server::start(&[]);
    // Brandubh's defenders open: the person; the engine plays the attackers, at full
    // strength and long enough a move that the person's next request finds it thinking.
    let (id, view) = server.session_with("brandubh", "attackers", 20, 1500);
    assert!(!view["thinking"].as_bool().unwrap());
    let at = format!("/api/sessions/{id}");
    let _listening = server.listen(&id);
    let (status, answer) = server.request("POST", &at, r#"{"do":"play","moves":["d5-f5"]}"#);
    assert_eq!(status, 200, "{answer}");
    let view = json(&answer);
    assert!(view["thinking"].as_bool().unwrap() && view["legal"].as_array().unwrap().is_empty());
    // Not the person's turn while the engine thinks.
    let (status, answer) = server.request("POST", &at, r#"{"do":"play","moves":["f5-f6"]}"#);
    assert!(status == 409 || status == 422, "{status} {answer}");
    eventually("the engine answers", || {
        let (_, answer) = server.request("POST", &at, r#"{"do":"show"}"#);
        json(&answer)["moves"].as_array().unwrap().len() == 2
    });
    let (status, answer) = server.request("POST", &at, r#"{"do":"takeback"}"#);
    assert_eq!(status, 200, "{answer}");
    let view = json(&answer);
    assert_eq!(view["moves"].as_array().unwrap().len(), 0, "{answer}");
    assert_eq!(view["to_move"], "defenders");
    let (status, answer) = server.request("POST", &at, r#"{"do":"takeback"}"#);
    assert_eq!(status, 422, "{answer}");
    // The engine takes over the side to move on request, and the report is of the game.
    let (status, answer) = server.request("POST", &at, r#"{"do":"engine"}"#);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(json(&answer)["engine"], "defenders");
    eventually("the engine moves for the defenders", || {
        let (_, answer) = server.request("POST", &at, r#"{"do":"show"}"#);
        json(&answer)["moves"].as_array().unwrap().len() == 1
    });
    let (status, html) = server.request("GET", &format!("{at}/export/report"), "");
    assert_eq!(status, 200);
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("Hnefi (level 20)"));
}

#[test]
fn sessions_are_limited_and_a_closed_page_frees_its_place_and_its_search() {
    let server = Server::start(&["--sessions", "2"]);
    let (first, _) = server.session("copenhagen", "none");
    let (second, _) = server.session("copenhagen", "none");
    let (status, answer) = server.request(
        "POST",
        "/api/sessions",
        r#"{"rules":"brandubh","engine":"none","level":0,"movetime":50}"#,
    );
    assert_eq!(status, 429, "{answer}");
    assert!(answer.contains("2 sessions are open"), "{answer}");
    // Both analyse; one page is closed while the engine searches.
    let (stream, _) = server.listen(&first);
    let (_kept, _) = server.listen(&second);
    let (status, again) = server.request("GET", &format!("/api/sessions/{first}/events"), "");
    assert_eq!(status, 409, "{again}");
    for id in [&first, &second] {
        let (status, answer) = server.request(
            "POST",
            &format!("/api/sessions/{id}"),
            r#"{"do":"analyse","on":true,"lines":3}"#,
        );
        assert_eq!(status, 200, "{answer}");
        assert_eq!(json(&answer)["analysing"], true);
    }
    drop(stream);
    eventually("the closed page's session ends", || {
        server
            .request(
                "POST",
                &format!("/api/sessions/{first}"),
                r#"{"do":"takeback"}"#,
            )
            .0
            == 404
    });
    server.session("brandubh", "none");
    // The other page's search goes on; stopped, the server is idle.
    let (status, answer) = server.request(
        "POST",
        &format!("/api/sessions/{second}"),
        r#"{"do":"analyse","on":false,"lines":1}"#,
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(json(&answer)["analysing"], false);
    #[cfg(target_os = "linux")]
    {
        let before = cpu_ticks(server.pid());
        std::thread::sleep(Duration::from_secs(1));
        let used = cpu_ticks(server.pid()) - before;
        // A search would take about 100 ticks of a second; an idle server a few at most.
        assert!(
            used < 30,
            "the server used {used} ticks in a second with no search"
        );
    }
}

/// The median, the 95th percentile and the largest of `ms`.
fn spread(ms: &mut [f64]) -> String {
    ms.sort_by(f64::total_cmp);
    format!(
        "median {:.1} ms, 95th percentile {:.1} ms, max {:.1} ms over {}",
        ms[ms.len() / 2],
        ms[ms.len() * 95 / 100],
        ms[ms.len() - 1],
        ms.len()
    )
}

/// A measurement, not a test (run it with `--ignored --nocapture`, in release): 20 pages
/// analysing at once, the page and move requests answered meanwhile, then every page closed
/// and the server's CPU after. See docs/serve.md.
#[test]
#[ignore]
fn load_of_twenty_analysing_sessions() {
    const PAGES: usize = 20;
    let server = Server::start(&["--sessions", "20"]);
    let mut ids = Vec::new();
    let mut streams = Vec::new();
    for _ in 0..PAGES {
        let (id, _) = server.session("copenhagen", "none");
        let (stream, _) = server.listen(&id);
        // Read what comes, as a page does, until the stream is closed.
        let mut reader = stream.try_clone().unwrap();
        std::thread::spawn(move || {
            let mut sink = [0; 8192];
            while matches!(std::io::Read::read(&mut reader, &mut sink), Ok(n) if n > 0) {}
        });
        let (status, _) = server.request(
            "POST",
            &format!("/api/sessions/{id}"),
            r#"{"do":"analyse","on":true,"lines":3}"#,
        );
        assert_eq!(status, 200);
        ids.push(id);
        streams.push(stream);
    }
    std::thread::sleep(Duration::from_secs(2));
    let busy_from = cpu_ticks(server.pid());
    let busy_since = Instant::now();
    let (mut pages, mut moves) = (Vec::new(), Vec::new());
    for round in 0..10 {
        for id in &ids {
            let started = Instant::now();
            let (status, _) = server.request("GET", "/", "");
            pages.push(started.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(status, 200);
            let at = format!("/api/sessions/{id}");
            let body = if round % 2 == 0 {
                r#"{"do":"play","moves":["d1-d3"]}"#
            } else {
                r#"{"do":"takeback"}"#
            };
            let started = Instant::now();
            let (status, answer) = server.request("POST", &at, body);
            moves.push(started.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(status, 200, "{answer}");
        }
    }
    let busy = (cpu_ticks(server.pid()) - busy_from) as f64 / busy_since.elapsed().as_secs_f64();
    let busy_rss = rss_kb(server.pid());
    eprintln!(
        "{PAGES} sessions analysing: page {}; move {}; server CPU {:.0}% of a core",
        spread(&mut pages),
        spread(&mut moves),
        busy
    );
    let closed = Instant::now();
    for stream in streams {
        // The reader's copy of the socket would keep it open: shut it for both.
        let _ = stream.shutdown(std::net::Shutdown::Both);
    }
    for id in &ids {
        eventually("every session ends", || {
            server
                .request(
                    "POST",
                    &format!("/api/sessions/{id}"),
                    r#"{"do":"takeback"}"#,
                )
                .0
                == 404
        });
    }
    eprintln!(
        "all {PAGES} sessions ended {:.0} ms after their pages closed",
        closed.elapsed().as_secs_f64() * 1000.0
    );
    eprintln!(
        "the server's memory: {} MB with the {PAGES} sessions, {} MB after",
        busy_rss / 1024,
        rss_kb(server.pid()) / 1024
    );
    let idle_from = cpu_ticks(server.pid());
    std::thread::sleep(Duration::from_secs(3));
    let idle = (cpu_ticks(server.pid()) - idle_from) as f64 / 3.0;
    eprintln!("after closing: server CPU {idle:.1}% of a core over 3 s");
}

#[test]
fn a_port_in_use_is_refused_with_the_flag_that_picks_another() {
    let first = Server::start(&[]);
    let port = first.authority.rsplit(':').next().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["serve", "--port", port])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{err}"
    );
    assert!(
        err.contains("--port N, or --port 0 for any free one"),
        "{err}"
    );
}
