//! `hnefi bot` against servers that never let it in, run for real against local listeners
//! that refuse, stay silent or answer as hnefatafl.org's server does: it gives up within a
//! minute when it never logged in, at once on a refused login, and never once it has logged
//! in; and in a lobby of games on several boards, the games it offers and asks to join.
//! (Whole games against the real server, on every board, are in hnefatafl_server.rs.)

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

const MINUTE: Duration = Duration::from_secs(60);

fn start_bot(server: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["bot", "--server", server, "--username", "ai-test"])
        .args(["--password", "pw", "--hash", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hnefi bot")
}

/// Waits up to `within` for the bot to end by itself: its success, its standard error and
/// how long it ran. A bot still running then is killed, and the test fails.
fn ends_within(mut bot: Child, within: Duration) -> (bool, String, Duration) {
    let started = Instant::now();
    loop {
        if let Some(status) = bot.try_wait().expect("wait") {
            let mut err = String::new();
            std::io::Read::read_to_string(&mut bot.stderr.take().expect("stderr"), &mut err)
                .expect("read stderr");
            return (status.success(), err, started.elapsed());
        }
        if started.elapsed() > within {
            let _ = bot.kill();
            let _ = bot.wait();
            panic!("the bot still runs after {within:?}");
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// An address where nothing listens: connections are refused.
fn refusing_address() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("address").to_string()
}

/// Serves each connection the listener takes with `serve`, reporting the bot's lines.
fn fake_server(
    mut serve: impl FnMut(usize, &mut TcpStream, &str) -> bool + Send + 'static,
) -> (String, Receiver<(usize, String)>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address").to_string();
    let (tx, rx) = channel();
    thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(mut stream) = stream else { return };
            let tx = tx.clone();
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            // `serve` answers each line and says whether the connection stays open.
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
                let text = line.trim_end().to_string();
                line.clear();
                if tx.send((n, text.clone())).is_err() || !serve(n, &mut stream, &text) {
                    break;
                }
            }
        }
    });
    (address, rx)
}

#[test]
fn a_server_that_never_answers_is_given_up_within_a_minute() {
    // Accepts and reads, never answers.
    let (silent, _lines) = fake_server(|_, _, _| true);
    // Hangs up on the login.
    let (hangs_up, _lines) = fake_server(|_, _, _| false);
    let cases = [
        (refusing_address(), "refused"),
        (
            "no-such-host.invalid".to_string(),
            "no-such-host.invalid:49152",
        ),
        (silent, "the login got no answer"),
        (hangs_up, "the server closed the connection"),
    ];
    let runs: Vec<_> = cases
        .into_iter()
        .map(|(server, why)| {
            let bot = start_bot(&server);
            thread::spawn(move || (server, why, ends_within(bot, MINUTE)))
        })
        .collect();
    for run in runs {
        let (server, why, (ok, err, took)) = run.join().expect("a run");
        assert!(!ok, "{server}");
        assert!(took < MINUTE, "{server}: {took:?}");
        assert!(
            err.contains("could not log in at") && err.contains(why) && err.contains("--server"),
            "{server}: {err}"
        );
        // Its last words are true: every try it announced, it made.
        let tries: usize = err
            .split(" tries; ")
            .next()
            .and_then(|head| head.rsplit('(').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{server}: no count of tries in {err}"));
        let announced = err
            .lines()
            .filter(|l| l.contains("trying again in") || l.contains("reconnecting in"))
            .count();
        assert_eq!(announced + 1, tries, "{server}: {err}");
    }
}

#[test]
fn a_refused_login_ends_the_bot_at_once() {
    let (server, lines) = fake_server(|_, stream, _| {
        let _ = stream.write_all(b"? login multiple_possible_errors wrong_password\n");
        true
    });
    let (ok, err, took) = ends_within(start_bot(&server), MINUTE);
    assert!(!ok);
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert!(
        err.contains("login refused: wrong password (account ai-test)"),
        "{err}"
    );
    let seen: Vec<_> = lines.try_iter().collect();
    assert!(
        seen.iter().all(|(n, _)| *n == 0),
        "one connection: {seen:?}"
    );
    assert!(seen[0].1.ends_with("login ai-test pw"), "{seen:?}");
}

#[test]
fn a_bot_that_logged_in_comes_back_however_long_the_server_is_away() {
    // The first connection logs in and is cut at once; then the server drops every
    // connection unanswered for longer than a bot that never logged in would wait, and then
    // lets it log in again.
    let away = Duration::from_secs(31);
    let mut back_at = None;
    let (server, lines) = fake_server(move |n, stream, line| {
        if !line.contains(" login ") {
            return true;
        }
        let now = Instant::now();
        let back = *back_at.get_or_insert(now + away);
        if n == 0 || now >= back {
            let _ = stream.write_all(b"= login\n");
        }
        n > 0 && now >= back
    });
    let mut bot = start_bot(&server);
    let started = Instant::now();
    let mut logins = Vec::new();
    while started.elapsed() < away + 2 * MINUTE {
        if let Ok((n, line)) = lines.recv_timeout(Duration::from_millis(200))
            && line.contains(" login ")
        {
            logins.push((n, started.elapsed()));
            if started.elapsed() > away {
                break;
            }
        }
        assert!(
            bot.try_wait().expect("wait").is_none(),
            "the bot gave up: {logins:?}"
        );
    }
    let _ = bot.kill();
    let _ = bot.wait();
    assert!(logins.len() >= 3, "{logins:?}");
    let (last, at) = *logins.last().expect("a login");
    assert!(last > 0 && at > away, "{logins:?}");
}

#[test]
fn a_level_outside_zero_to_twenty_is_refused_before_connecting() {
    for bad in ["21", "weak"] {
        let bot = Command::new(env!("CARGO_BIN_EXE_hnefi"))
            .args([
                "bot",
                "--server",
                &refusing_address(),
                "--username",
                "ai-test",
            ])
            .args(["--password", "pw", "--level", bad])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start hnefi bot");
        let (ok, err, _) = ends_within(bot, MINUTE);
        assert!(!ok && err.contains("level"), "{bad}: {err}");
    }
}

/// A lobby that lists a 7x7 game (id 1) and a 13x13 game (id 2), each waiting for a defender.
const LOBBY: &str = r#"= games_updated {"created":[[1,null,{"id":1,"attacker":"ai-seven","defender":null,"challenger":null,"rated":"No","timed":"UnTimed","spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_7","turn":"Roleless"}],[2,null,{"id":2,"attacker":"ai-thirteen","defender":null,"challenger":null,"rated":"No","timed":"UnTimed","spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_13","turn":"Roleless"}]],"removed":[],"updated":{}}"#;

/// The bot with `args` after a fake server's login and lobby: the lines it sends about games
/// within `within` (it is stopped then).
fn lobby_lines(args: &[&str], within: Duration) -> Vec<String> {
    let (server, lines) = fake_server(|_, stream, line| {
        if line.contains(" login ") {
            let _ = stream.write_all(format!("= login\n{LOBBY}\n").as_bytes());
        }
        true
    });
    let mut bot = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["bot", "--server", &server, "--username", "ai-test"])
        .args(["--hash", "1"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hnefi bot");
    let started = Instant::now();
    let mut seen = Vec::new();
    while started.elapsed() < within {
        if let Ok((_, line)) = lines.recv_timeout(Duration::from_millis(100))
            && (line.starts_with("join_game") || line.starts_with("new_game"))
        {
            seen.push(line);
        }
    }
    let _ = bot.kill();
    let _ = bot.wait();
    seen
}

#[test]
fn join_any_takes_every_board_unless_board_limits_it() {
    let second = Duration::from_secs(1);
    let runs = [
        (vec!["--join-any"], vec!["join_game_pending 1"]),
        (
            vec!["--join-any", "--board", "13"],
            vec!["join_game_pending 2"],
        ),
        (
            vec!["--join-any", "--board", "13,7"],
            vec!["join_game_pending 1"],
        ),
        (vec!["--join-any", "--board", "11"], vec![]),
    ]
    .map(|(args, expected)| {
        thread::spawn(move || (lobby_lines(&args, 3 * second), args, expected))
    });
    for run in runs {
        let (seen, args, expected) = run.join().expect("a run");
        assert_eq!(seen, expected, "{args:?}");
    }
}

#[test]
fn new_game_offers_the_board_asked_for() {
    for (board, size) in [(None, 11), (Some("7"), 7), (Some("13"), 13)] {
        let mut args = vec!["--new-game", "defender", "--untimed"];
        args.extend(board.map(|b| ["--board", b]).iter().flatten());
        let seen = lobby_lines(&args, Duration::from_secs(2));
        assert_eq!(seen.len(), 1, "{args:?}: {seen:?}");
        assert!(
            seen[0].starts_with(r#"new_game {"role":"Defender""#)
                && seen[0].ends_with(&format!(r#""board_size":{size}}}"#)),
            "{args:?}: {seen:?}"
        );
    }
}

#[test]
fn boards_the_server_does_not_offer_are_refused_before_connecting() {
    for (args, why) in [
        (&["--join-any", "--board", "9"][..], "--board 9"),
        (
            &["--new-game", "attacker", "--board", "7,13"],
            "one board size",
        ),
        (&["--board", "7"], "needs --new-game or --join-any"),
    ] {
        let bot = Command::new(env!("CARGO_BIN_EXE_hnefi"))
            .args([
                "bot",
                "--server",
                &refusing_address(),
                "--username",
                "ai-test",
            ])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start hnefi bot");
        let (ok, err, took) = ends_within(bot, MINUTE);
        assert!(!ok && err.contains(why), "{args:?}: {err}");
        assert!(took < Duration::from_secs(5), "{args:?}: {took:?}");
    }
}

/// A password that no log line may show.
const SECRET: &str = "Tr0ub4dor-3-horse";

/// A file in the temporary folder holding `text`, with permissions `mode`.
fn password_file(name: &str, text: &str, mode: u32) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::temp_dir().join(format!("hnefi-bot-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("write the password file");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    path
}

/// The bot logging everything (`RUST_LOG=trace`), with `args` and the environment `env`,
/// against a server that lets it in: the login line it sent and its standard error, once it
/// has sent the line that follows a login (it is stopped then).
fn logged_in_with(args: &[&str], env: &[(&str, &str)]) -> (String, String) {
    let (server, lines) = fake_server(|_, stream, line| {
        if line.contains(" login ") {
            let _ = stream.write_all(b"= login\n");
        }
        true
    });
    let mut bot = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["bot", "--server", &server, "--username", "ai-test"])
        .args(["--hash", "1"])
        .args(args)
        .env("RUST_LOG", "trace")
        .env_remove("HNEFI_PASSWORD")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hnefi bot");
    let (_, login) = lines.recv_timeout(MINUTE).expect("a login");
    // What follows a login is sent only once it is accepted.
    lines.recv_timeout(MINUTE).expect("a line after the login");
    let _ = bot.kill();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut bot.stderr.take().expect("stderr"), &mut err)
        .expect("read stderr");
    let _ = bot.wait();
    assert!(err.contains("logged in as ai-test"), "{err}");
    (login, err)
}

#[test]
fn the_password_comes_from_a_file_or_the_environment_and_is_never_logged() {
    let file = password_file("good", &format!("{SECRET}\n"), 0o600);
    let path = file.to_str().expect("a UTF-8 path");
    let from_env = [("HNEFI_PASSWORD", SECRET)];
    let runs = [
        (vec!["--password-file", path], &[][..]),
        (vec![], &from_env[..]),
        // The file wins over the environment.
        (
            vec!["--password-file", path],
            &[("HNEFI_PASSWORD", "other")][..],
        ),
    ];
    for (args, env) in runs {
        let (login, err) = logged_in_with(&args, env);
        assert!(
            login.ends_with(&format!(" login ai-test {SECRET}")),
            "{login}"
        );
        assert!(!err.contains(SECRET), "{args:?} {env:?}: {err}");
        // The login line is in the log, the password hidden.
        assert!(err.contains("login ai-test ***"), "{err}");
        assert!(!err.contains("--password is on view"), "{err}");
    }
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_password_on_the_command_line_is_warned_about_and_never_logged() {
    let (login, err) = logged_in_with(&["--password", SECRET], &[]);
    assert!(login.ends_with(&format!(" {SECRET}")), "{login}");
    assert!(
        err.contains("--password is on view to every user of this machine")
            && err.contains("--password-file")
            && err.contains("HNEFI_PASSWORD"),
        "{err}"
    );
    assert!(!err.contains(SECRET), "{err}");
    // Nor in the error of a refused login.
    let (server, _lines) = fake_server(|_, stream, _| {
        let _ = stream.write_all(b"? login multiple_possible_errors wrong_password\n");
        true
    });
    let bot = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["bot", "--server", &server, "--username", "ai-test"])
        .args(["--password", SECRET])
        .env("RUST_LOG", "trace")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hnefi bot");
    let (ok, err, _) = ends_within(bot, MINUTE);
    assert!(!ok && err.contains("wrong password"), "{err}");
    assert!(!err.contains(SECRET), "{err}");
}

#[test]
fn a_password_file_others_can_read_is_refused_before_connecting() {
    for mode in [0o644, 0o640, 0o604, 0o620] {
        let file = password_file(&format!("{mode:o}"), SECRET, mode);
        let bot = Command::new(env!("CARGO_BIN_EXE_hnefi"))
            .args([
                "bot",
                "--server",
                &refusing_address(),
                "--username",
                "ai-test",
            ])
            .arg("--password-file")
            .arg(&file)
            .env("RUST_LOG", "trace")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start hnefi bot");
        let (ok, err, _) = ends_within(bot, MINUTE);
        let _ = std::fs::remove_file(&file);
        assert!(!ok, "{mode:o}: {err}");
        assert!(
            err.contains(&format!("(mode {mode:03o})")) && err.contains("chmod 600"),
            "{mode:o}: {err}"
        );
        assert!(!err.contains("connect"), "refused before connecting: {err}");
        assert!(!err.contains(SECRET), "{err}");
    }
    // A missing file, and both ways at once.
    let bot = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args([
            "bot",
            "--server",
            &refusing_address(),
            "--username",
            "ai-test",
        ])
        .args(["--password-file", "/nonexistent/hnefi-password"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hnefi bot");
    let (ok, err, _) = ends_within(bot, MINUTE);
    assert!(
        !ok && err.contains("--password-file /nonexistent/hnefi-password: "),
        "{err}"
    );
    let bot = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args([
            "bot",
            "--server",
            &refusing_address(),
            "--username",
            "ai-test",
        ])
        .args(["--password", "x", "--password-file", "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hnefi bot");
    let (ok, err, _) = ends_within(bot, MINUTE);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
}
