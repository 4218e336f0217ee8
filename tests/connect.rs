//! `hnefi connect` plays a whole game against a local TCP peer that behaves as
//! hnefatafl-copenhagen's light server does: `generate_move <role>` to the side to move, its
//! answer `play <role> <from> <to>`, and the opponent's moves relayed as `play ...` lines.

use hnefi::board::{MoveList, Position, Preset, Rules, Side};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn plays_a_full_game_over_tcp() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let address = listener.local_addr().expect("address").to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["connect", &address, "--movetime", "20"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hnefi");
    let (stream, _) = listener.accept().expect("hnefi connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let mut writer = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    // Hnefi plays the defenders (the light server's first client); the peer plays the
    // attackers with the first legal move in a fixed rotation.
    let mut pos = Position::start(Rules::preset(Preset::HnefataflOrg)).unwrap();
    let mut turn = 0usize;
    while pos.outcome().is_none() && pos.plies() < 300 {
        match pos.side_to_move() {
            Side::Defenders => {
                writeln!(writer, "generate_move defender").expect("send");
                let mut line = String::new();
                reader.read_line(&mut line).expect("an answer in time");
                let words: Vec<&str> = line.split_whitespace().collect();
                assert_eq!(words.len(), 4, "{line}");
                assert_eq!(&words[..2], ["play", "defender"]);
                let mv = hnefi::board::notation::parse_move(&format!("{}{}", words[2], words[3]))
                    .expect("a move");
                pos.try_play(mv)
                    .unwrap_or_else(|e| panic!("illegal {line}: {e}"));
            }
            Side::Attackers => {
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                let mv = list[turn * 7 % list.len()];
                turn += 1;
                pos.try_play(mv).expect("legal");
                writeln!(writer, "play attacker {} {}", mv.from(), mv.to()).expect("relay");
            }
        }
    }
    drop(writer);
    drop(reader);
    let status = child.wait().expect("hnefi exits when the server closes");
    assert!(status.success());
    assert!(pos.plies() > 2);
}
