//! How `hnefi` without a command starts, through the real binary: a person at a terminal is
//! greeted and waited for, `help` says how to go on, `quit` leaves every protocol, and a silent
//! program on pipes is OpenTafl's host, which gets its `hello` well within its five seconds.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Longer than the 1.5 s in which a program on pipes must speak.
const LATE: Duration = Duration::from_millis(2500);

/// The engine's standard output, line by line, read on a thread.
fn lines_of(out: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The lines up to and with the first that starts with `prefix`.
fn until(lines: &Receiver<String>, prefix: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no '{prefix}' after {seen:?}"));
        let done = line.starts_with(prefix);
        seen.push(line);
        if done {
            return seen;
        }
    }
}

fn say(stdin: &mut impl Write, line: &str) {
    stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
    stdin.flush().unwrap();
}

/// Waits for the engine to end by itself, and says whether it ended well.
fn ends(child: &mut Child) -> bool {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    panic!("the engine did not end");
}

fn on_pipes() -> (Child, ChildStdin, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let lines = lines_of(child.stdout.take().unwrap());
    (child, stdin, lines)
}

/// The issue's `(sleep 2; echo uci; echo quit) | hnefi`: OpenTafl's `hello` comes in time
/// for its host, the person who typed late is told what happened, and `quit` leaves.
#[test]
fn a_silent_program_on_pipes_gets_hello_in_time_and_quit_leaves_opentafl() {
    let (mut child, mut stdin, lines) = on_pipes();
    let started = Instant::now();
    assert_eq!(until(&lines, "hello"), ["hello"]);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(4), "hello after {took:?}");
    say(&mut stdin, "uci");
    let refused = until(&lines, "status error");
    let refused = refused.last().unwrap();
    assert!(
        refused.contains("unknown command 'uci'")
            && refused.contains("OpenTafl's engine protocol")
            && refused.contains("--protocol uci"),
        "{refused}"
    );
    say(&mut stdin, "quit");
    assert!(ends(&mut child));
}

#[test]
fn quit_leaves_uci_and_the_hnefatafl_text_protocol() {
    let (mut child, mut stdin, lines) = on_pipes();
    say(&mut stdin, "quit");
    assert!(ends(&mut child));
    assert!(lines.recv_timeout(Duration::from_secs(5)).is_err());

    let (mut child, mut stdin, lines) = on_pipes();
    say(&mut stdin, "protocol_version");
    assert!(until(&lines, "=")[0].starts_with("= 1"));
    say(&mut stdin, "quit");
    assert_eq!(until(&lines, "="), ["= "]);
    assert!(ends(&mut child));
}

/// `help` first, on pipes: its answer, and then all the time a person needs.
#[test]
fn help_lists_the_protocols_and_how_to_leave() {
    let (mut child, mut stdin, lines) = on_pipes();
    say(&mut stdin, "help");
    let help = until(&lines, "`quit` leaves any of them").join("\n");
    for word in [
        "uci",
        "OpenTafl",
        "otep",
        "htp",
        "protocol_version",
        "Ctrl-D",
    ] {
        assert!(help.contains(word), "{word}: {help}");
    }
    std::thread::sleep(LATE);
    say(&mut stdin, "uci");
    until(&lines, "uciok");
    say(&mut stdin, "help");
    until(&lines, "`quit` leaves any of them");
    say(&mut stdin, "quit");
    assert!(ends(&mut child));
}

#[test]
fn the_help_of_the_command_line_says_what_it_does_without_a_command() {
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.contains("Without a command, hnefi is an engine on standard input and output"),
        "{text}"
    );
}

/// At a terminal (a pseudo-terminal here): the banner on stderr, and no OpenTafl after the
/// pipes' 1.5 s: a `uci` typed late is UCI's.
#[cfg(unix)]
#[test]
fn a_person_at_a_terminal_sees_a_banner_and_is_waited_for() {
    use std::fs::File;
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut leader, follower) = {
        let (mut leader, mut follower) = (0, 0);
        // SAFETY: openpty writes two descriptors, which are ours from here on; the other
        // arguments may be null.
        let made = unsafe {
            libc::openpty(
                &mut leader,
                &mut follower,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(made, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: both descriptors are open and owned by nothing else.
        unsafe { (File::from_raw_fd(leader), OwnedFd::from_raw_fd(follower)) }
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .stdin(Stdio::from(follower))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = lines_of(child.stdout.take().unwrap());
    let errors = lines_of(child.stderr.take().unwrap());
    let banner = until(&errors, "Hnefi ");
    assert!(banner[0].ends_with("type uci, or help"), "{banner:?}");
    std::thread::sleep(LATE);
    assert!(
        lines.try_recv().is_err(),
        "nothing on stdout before the person types"
    );
    say(&mut leader, "uci");
    let answer = until(&lines, "uciok");
    assert!(answer[0].starts_with("id name Hnefi"), "{answer:?}");
    say(&mut leader, "quit");
    assert!(ends(&mut child));
}
