//! `hnefi bot` against the real hnefatafl.org server (`hnefatafl-server` of
//! hnefatafl-copenhagen 6.4.1), each scenario with a server of its own in a private network
//! namespace (see `reference/server.rs`). Without the server, and outside CI, they skip.

use crate::reference;

use hnefi::board::{Board, Move, Position, Square};
use hnefi::board::{Reason, Seven, Side, Thirteen};
use hnefi::bot::record::{GamesUpdate, OpenGame, parse_open_games};
use hnefi::protocol::htp::server_rules;
use hnefi::search::size::Size;
use hnefi::search::size::Standard;
use reference::server::{Bot, Player, Proxy, Server, in_private_network};
use std::collections::BTreeMap;
use std::time::Duration;

const PROXY_PORT: u16 = 49153;
const MINUTE: Duration = Duration::from_secs(60);
/// The scripted player's account.
const HUMAN: &str = "human";

/// A ply of an archived game.
#[derive(Debug)]
enum Ply<G: Size> {
    Move(Side, Move<G>),
    Resigns(Side),
}

/// The plays and the status of an archived game on `G`'s board (one RON line of
/// `archived-games.ron`), timed (`(play:Some(Play((role:...` entries) or not
/// (`Some(Play((role:...`).
fn archived<G: Size>(line: &str) -> (Vec<Ply<G>>, String) {
    let status = line
        .rsplit("status:")
        .next()
        .and_then(|s| s.split([',', ')']).next())
        .expect("a status")
        .to_string();
    let mut found: Vec<(usize, Ply<G>)> = Vec::new();
    for (at, _) in line.match_indices("Play((role:") {
        let entry = &line[at..];
        let side = if entry.starts_with("Play((role:Attacker") {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let number = |key: &str, nth: usize| -> u8 {
            let (i, _) = entry.match_indices(key).nth(nth).expect("a coordinate");
            entry[i + key.len()..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a number")
        };
        // The server counts rows from the top: y 0 is the last rank.
        let square = |n: usize| {
            Square::<G>::from_coords(number(",x:", n), G::SIDE - 1 - number(",y:", n))
                .expect("a square")
        };
        found.push((at, Ply::Move(side, Move::new(square(0), square(1)))));
    }
    for (word, side) in [
        ("AttackerResigns", Side::Attackers),
        ("DefenderResigns", Side::Defenders),
    ] {
        for (at, _) in line.match_indices(word) {
            found.push((at, Ply::Resigns(side)));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    (found.into_iter().map(|(_, p)| p).collect(), status)
}

/// Replays an archived game under Hnefi's rules for the server: every move legal, and the
/// end the rules give. Returns the final position.
fn replay<G: Size>(plies: &[Ply<G>]) -> Position<G> {
    let rules = server_rules::<G>();
    let start = Board::from_fen(rules.preset.start_fen()).expect("a start");
    let mut pos = Position::new(start, rules);
    for (i, ply) in plies.iter().enumerate() {
        match ply {
            Ply::Move(side, mv) => {
                assert_eq!(pos.side_to_move(), *side, "ply {}", i + 1);
                pos.try_play(*mv)
                    .unwrap_or_else(|e| panic!("ply {} {mv}: {e}", i + 1));
            }
            Ply::Resigns(side) => panic!("the {} resigned or ran out of time", side.name()),
        }
    }
    pos
}

fn summaries(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.starts_with("game ")).collect()
}

/// The open games the player has heard of, from every lobby line so far and more if needed:
/// the first that `owner` offers, other than `not`.
fn find_offer(player: &mut Player, owner: &str, not: &[u64]) -> u64 {
    let mut open: BTreeMap<u64, OpenGame> = BTreeMap::new();
    let apply = |line: &str, open: &mut BTreeMap<u64, OpenGame>| {
        if let Some(ron) = line.strip_prefix("= initialize_display ") {
            for g in parse_open_games(ron) {
                open.insert(g.id, g);
            }
        } else if let Some(json) = line.strip_prefix("= games_updated ") {
            let update: GamesUpdate = serde_json::from_str(json).expect("games_updated");
            for (_, _, g) in update.created {
                open.insert(g.id, g);
            }
            for g in update.updated.into_values() {
                open.insert(g.id, g);
            }
            for id in update.removed {
                open.remove(&id);
            }
        }
    };
    let found = |open: &BTreeMap<u64, OpenGame>| {
        open.values()
            .find(|g| {
                g.joinable_by(HUMAN)
                    && g.attacker.iter().chain(&g.defender).any(|n| n == owner)
                    && !not.contains(&g.id)
            })
            .map(|g| g.id)
    };
    for line in player.seen.clone() {
        apply(&line, &mut open);
    }
    loop {
        if let Some(id) = found(&open) {
            return id;
        }
        let line = player.expect("an offer", MINUTE, |l| {
            l.starts_with("= games_updated") || l.starts_with("= initialize_display")
        });
        apply(&line, &mut open);
    }
}

/// The bot `ai-hnefi` behind the proxy, offering games as `role` on `settings` (clock and
/// count), quick to move.
fn bot_behind_proxy(server: &Server, role: &str, settings: &[&str]) -> (Proxy, Bot) {
    let proxy = Proxy::start(PROXY_PORT);
    let mut args = vec![
        "--server",
        "127.0.0.1:49153",
        "--username",
        "ai-hnefi",
        "--create-account",
        "--new-game",
        role,
        "--movetime",
        "200",
        "--hash",
        "8",
    ];
    args.extend_from_slice(settings);
    let bot = Bot::start(&server.log_path("bot.log"), &args);
    (proxy, bot)
}

/// The player joins the bot's first offer other than `not` and waits until the game starts
/// between `players` (the attacker's name, then the defender's); returns the game's id.
fn join_bots_offer(human: &mut Player, not: &[u64], players: &str) -> u64 {
    let id = find_offer(human, "ai-hnefi", not);
    human.send(&format!("join_game_pending {id}"));
    let start = format!("= join_game {players}");
    human.expect("the game", MINUTE, |l| l.starts_with(&start));
    id
}

/// A small fixed generator for the scripted players' choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// The player plays game `id` as `side` with random moves: `moves` of them, then resigns,
/// unless the game ends first. Returns the game's end as the player saw it.
fn play_randomly(player: &mut Player, id: u64, side: Side, moves: usize, rng: &mut Rng) -> String {
    play_randomly_with(player, id, side, moves, rng, |_| {})
}

/// [`play_randomly`], calling `before` with the number of each move before it is chosen.
fn play_randomly_with(
    player: &mut Player,
    id: u64,
    side: Side,
    moves: usize,
    rng: &mut Rng,
    mut before: impl FnMut(usize),
) -> String {
    let role = match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    };
    let ask = format!("game {id} generate_move {role}");
    let over = format!("= game_over {id} ");
    for n in 0.. {
        let line = player.expect("a turn or the end", 2 * MINUTE, |l| {
            l == ask || l.starts_with(&over) || l == "= draw accept"
        });
        if line != ask {
            return line;
        }
        if n == moves {
            player.send(&format!("game {id} play {role} resigns _"));
            break;
        }
        before(n);
        let record = player.record(id);
        let mv = Player::choose::<Standard>(&record, |n| rng.next(n));
        player.send(&format!("game {id} play {role} {} {}", mv.from(), mv.to()));
    }
    player.expect("the end", MINUTE, |l| l.starts_with(&over))
}

/// Two bots play one timed game on `G`'s board: one offers it with `--new-game --board`, the
/// other takes it with `--join-any` (every board). The server's archive agrees with Hnefi's
/// rules move by move and on the end, and neither bot had a move refused or a warning.
fn two_bots_play_a_timed_game<G: Size>(server: &Server) {
    let board = G::SIDE.to_string();
    let common = ["--server", "127.0.0.1", "--create-account", "--games", "1"];
    let fast = ["--movetime", "300", "--hash", "8"];
    let alpha = Bot::start(
        &server.log_path("alpha.log"),
        &[&common[..], &fast, &["--username", "ai-alpha"]]
            .concat()
            .into_iter()
            .chain([
                "--new-game",
                "attacker",
                "--tc",
                "1:00+1",
                "--board",
                &board,
            ])
            .collect::<Vec<_>>(),
    );
    let beta = Bot::start(
        &server.log_path("beta.log"),
        &[&common[..], &fast, &["--username", "ai-beta", "--join-any"]].concat(),
    );
    let alpha_log = alpha.finish(10 * MINUTE);
    let beta_log = beta.finish(MINUTE);

    let lines = server.archive(1);
    assert_eq!(lines.len(), 1, "one archived game: {lines:#?}");
    let (plies, status) = archived::<G>(&lines[0]);
    let pos = replay(&plies);
    let end = pos.outcome().expect("the rules ended the game");
    let expected = match end.winner {
        Some(Side::Attackers) => "AttackerWins",
        Some(Side::Defenders) => "DefenderWins",
        None => "Draw",
    };
    assert_eq!(status, expected, "{end} after {} plies", plies.len());

    let (a, b) = (summaries(&alpha_log), summaries(&beta_log));
    assert_eq!((a.len(), b.len()), (1, 1), "{alpha_log}\n{beta_log}");
    let (a_result, b_result) = match end.winner {
        Some(Side::Attackers) => ("won", "lost"),
        Some(Side::Defenders) => ("lost", "won"),
        None => ("drawn", "drawn"),
    };
    assert!(a[0].starts_with(&format!("game 0 {a_result}")), "{}", a[0]);
    assert!(b[0].starts_with(&format!("game 0 {b_result}")), "{}", b[0]);
    let size = format!(", {board}x{board}, ");
    for s in [a[0], b[0]] {
        assert!(s.contains(" 0 refused") && s.contains(&size), "{s}");
        assert!(s.contains(&format!(", {} plies", plies.len())), "{s}");
    }
    for log in [&alpha_log, &beta_log] {
        assert!(!log.contains(" WARN ") && !log.contains(" ERROR "), "{log}");
    }
    eprintln!("{}\n{}", a[0], b[0]);
}

#[test]
fn two_bots_play_a_timed_game_to_its_end() {
    in_private_network(
        "two_bots_play_a_timed_game_to_its_end",
        |server: &Server| two_bots_play_a_timed_game::<Standard>(server),
    );
}

#[test]
fn two_bots_play_a_timed_7x7_game_to_its_end() {
    in_private_network(
        "two_bots_play_a_timed_7x7_game_to_its_end",
        |server: &Server| two_bots_play_a_timed_game::<Seven>(server),
    );
}

#[test]
fn two_bots_play_a_timed_13x13_game_to_its_end() {
    in_private_network(
        "two_bots_play_a_timed_13x13_game_to_its_end",
        |server: &Server| two_bots_play_a_timed_game::<Thirteen>(server),
    );
}

#[test]
fn a_player_challenges_the_bot_which_comes_back_after_a_cut() {
    in_private_network(
        "a_player_challenges_the_bot_which_comes_back_after_a_cut",
        |server: &Server| {
            let (proxy, bot) =
                bot_behind_proxy(server, "attacker", &["--tc", "5:00+3", "--games", "2"]);
            let mut rng = Rng(7);
            let mut human = Player::new(HUMAN);

            // The first game: some moves, then the player resigns (or loses first).
            let first = join_bots_offer(&mut human, &[], "ai-hnefi human");
            let end = play_randomly(&mut human, first, Side::Defenders, 6, &mut rng);
            assert_eq!(end, format!("= game_over {first} attacker_wins"));

            // The second game: the bot's connection is cut while the player thinks; the
            // player's move goes nowhere; the bot comes back, resumes and answers.
            let second = join_bots_offer(&mut human, &[first], "ai-hnefi human");
            let ask = format!("game {second} generate_move defender");
            for _ in 0..3 {
                human.expect("a turn", MINUTE, |l| l == ask);
                let record = human.record(second);
                let mv = Player::choose::<Standard>(&record, |n| rng.next(n));
                human.send(&format!(
                    "game {second} play defender {} {}",
                    mv.from(),
                    mv.to()
                ));
            }
            human.expect("a turn", MINUTE, |l| l == ask);
            let sent_before = proxy.bot_lines().len();
            proxy.cut();
            std::thread::sleep(Duration::from_millis(300));
            let record = human.record(second);
            let mv = Player::choose::<Standard>(&record, |n| rng.next(n));
            human.send(&format!(
                "game {second} play defender {} {}",
                mv.from(),
                mv.to()
            ));
            human.expect("the bot's answer after the cut", MINUTE, |l| {
                l.starts_with(&format!("game {second} play attacker "))
            });
            let end = play_randomly(&mut human, second, Side::Defenders, 60, &mut rng);
            assert!(end.starts_with(&format!("= game_over {second} ")), "{end}");

            let log = bot.finish(2 * MINUTE);
            assert!(proxy.connections() >= 2, "the bot came back");
            assert!(log.contains("connection to 127.0.0.1:49153 lost"), "{log}");
            let after: Vec<String> = proxy.bot_lines()[sent_before..].to_vec();
            let resumed = format!("resume_game_json {second}");
            let played = format!("game {second} play attacker ");
            assert!(after.contains(&resumed), "{after:#?}");
            assert!(after.iter().any(|l| l.starts_with(&played)), "{after:#?}");
            assert!(!proxy.bot_lines().iter().any(|l| l.trim() == "exit"));
            let lines = summaries(&log);
            assert_eq!(lines.len(), 2, "{log}");
            assert!(
                lines[0].starts_with(&format!("game {first} won (the defenders resigned)")),
                "{}",
                lines[0]
            );
            eprintln!("{}\n{}", lines[0], lines[1]);
        },
    );
}

#[test]
fn malformed_and_unexpected_lines_are_ignored() {
    in_private_network(
        "malformed_and_unexpected_lines_are_ignored",
        |server: &Server| {
            let (proxy, bot) = bot_behind_proxy(
                server,
                "defender",
                &["--untimed", "--unrated", "--games", "1"],
            );
            let mut rng = Rng(11);
            let mut human = Player::new(HUMAN);
            let id = join_bots_offer(&mut human, &[], "human ai-hnefi");
            let long = format!("= text {}\n", "x".repeat(200_000));
            let junk: Vec<Vec<u8>> = [
                "\n",
                "   \n",
                "=\n",
                "?\n",
                "garbage\n",
                "= game_over\n",
                "game 999 generate_move attacker\n",
                "game 999 play attacker d1 d3\n",
                "= game_over 999 attacker_wins\n",
                "game x play\n",
                &format!("game {id} play attacker z99 a1\n"),
                &format!("request_draw {id} attacker\n"),
                "= draw accept\n",
                "= draw decline\n",
                "= resume_game_json {broken\n",
                "= games_updated not json\n",
                "= join_game onlyone\n",
                "= challenge_requested 12345\n",
                "version 9.9.9\n",
                "\u{1}\u{2}\u{7f}\n",
                &long,
            ]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .chain([b"\xff\xfe not utf-8 \xc3\n".to_vec()])
            .collect();
            let end = play_randomly_with(&mut human, id, Side::Attackers, 8, &mut rng, |n| {
                if n < 2 {
                    for line in &junk {
                        proxy.inject(line);
                    }
                    std::thread::sleep(Duration::from_millis(300));
                }
            });
            assert_eq!(end, format!("= game_over {id} defender_wins"));

            let log = bot.finish(2 * MINUTE);
            for line in log
                .lines()
                .filter(|l| l.contains(" WARN ") || l.contains(" INFO "))
            {
                eprintln!("{line}");
            }
            assert!(log.contains("ignored a line"), "{log}");
            let sent = proxy.bot_lines();
            assert!(
                !sent
                    .iter()
                    .any(|l| l.trim() == "exit" || l.starts_with("draw"))
            );
            assert!(!sent.iter().any(|l| l.starts_with("game 999")), "{sent:#?}");
            let lines = summaries(&log);
            assert_eq!(lines.len(), 1, "{log}");
            assert!(
                lines[0].starts_with(&format!("game {id} won")),
                "{}",
                lines[0]
            );
            assert!(lines[0].contains(" 0 refused"), "{}", lines[0]);
        },
    );
}

#[test]
fn the_server_draws_with_the_141st_ply() {
    in_private_network("the_server_draws_with_the_141st_ply", |server: &Server| {
        let mut attacker = Player::new("att");
        let mut defender = Player::new("def");
        attacker.send(
            r#"new_game {"role":"Attacker","rated":false,"time_settings":"UnTimed","board_size":11}"#,
        );
        let line = attacker.expect("the offer", MINUTE, |l| l.starts_with("= new_game "));
        let id: u64 = line["= new_game ".len()..].parse().expect("an id");
        defender.send(&format!("join_game_pending {id}"));
        attacker.expect("the challenge", MINUTE, |l| {
            l == format!("= challenge_requested {id}")
        });
        attacker.send(&format!("join_game {id}"));
        let mut rng = Rng(3);
        for ply in 1..=141 {
            let (player, role) = if ply % 2 == 1 {
                (&mut attacker, "attacker")
            } else {
                (&mut defender, "defender")
            };
            let ask = format!("game {id} generate_move {role}");
            player.expect("a turn", MINUTE, |l| l == ask);
            let record = player.record(id);
            assert_eq!(record.plies(), ply - 1);
            let mv = Player::choose::<Standard>(&record, |n| rng.next(n));
            player.send(&format!("game {id} play {role} {} {}", mv.from(), mv.to()));
        }
        attacker.expect("the draw", MINUTE, |l| l == "= draw accept");
        defender.expect("the draw", MINUTE, |l| l == "= draw accept");
        let lines = server.archive(1);
        let (plies, status) = archived::<Standard>(lines.first().expect("an archived game"));
        assert_eq!((plies.len(), status.as_str()), (141, "Draw"));
        let end = replay(&plies).outcome().expect("over");
        assert_eq!(end.reason, Reason::MoveLimit);
    });
}

#[test]
fn the_password_reaches_the_server_from_a_file_or_the_environment_and_no_log() {
    in_private_network(
        "the_password_reaches_the_server_from_a_file_or_the_environment_and_no_log",
        |server: &Server| {
            use std::os::unix::fs::PermissionsExt;
            const SECRET: &str = "Tr0ub4dor-3-horse";
            let file = server.log_path("password");
            std::fs::write(&file, format!("{SECRET}\n")).expect("the password file");
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600))
                .expect("chmod 600");
            let file = file.to_str().expect("a UTF-8 path");
            let account = ["--server", "127.0.0.1", "--username", "ai-secret"];
            let trace = ("RUST_LOG", "trace");
            let logged_in = "logged in as ai-secret";
            // The account is made with the password of the file, then logged in to with it
            // from the environment, then from the command line; each bot is stopped once in.
            let mut logs = Vec::new();
            let from_env = [trace, ("HNEFI_PASSWORD", SECRET)];
            let runs = [
                (
                    "file",
                    &["--create-account", "--password-file", file][..],
                    &[trace][..],
                ),
                ("env", &[], &from_env),
                ("argument", &["--password", SECRET], &[trace]),
            ];
            for (name, args, env) in runs {
                let bot = Bot::start_with_env(
                    &server.log_path(&format!("{name}.log")),
                    &[&account[..], args].concat(),
                    env,
                );
                logs.push((name, bot.wait_for(logged_in, MINUTE)));
            }
            // The server checks it: another password is refused.
            let wrong = Bot::start_with_env(
                &server.log_path("wrong.log"),
                &account,
                &[trace, ("HNEFI_PASSWORD", "not-the-password")],
            );
            let (success, log) = wrong.end(MINUTE);
            assert!(!success && log.contains("wrong password"), "{log}");
            logs.push(("wrong", log));
            for (name, log) in &logs {
                assert!(!log.contains(SECRET), "{name}: {log}");
                // The most verbose log shows the login line, the password hidden.
                assert!(log.contains(" ai-secret ***"), "{name}: {log}");
                assert!(log.contains("TRACE"), "{name}: {log}");
            }
            assert!(logs[2].1.contains("--password is on view"), "{}", logs[2].1);
        },
    );
}
