//! The board page of `hnefi serve` in headless Chromium, by real clicks, drags and keys: a
//! whole game against the engine, the analysis following the game, take back, a FEN loaded,
//! and nothing fetched from anywhere but the server. Saves a screenshot of the page.

mod common;
mod webdriver;

use common::server::Server;
use std::path::Path;
use webdriver::{Session, browser, key};

/// Opens the board and starts a game with these settings by the page's own form.
fn new_game(page: &Session, server: &Server, rules: &str, you: &str, level: u8, movetime: u64) {
    page.goto(&server.url);
    page.wait("return document.getElementById('status').dataset.state !== 'starting'");
    for (select, value) in [
        ("rules", rules.to_string()),
        ("you", you.to_string()),
        ("level", level.to_string()),
        ("movetime", movetime.to_string()),
    ] {
        page.click(&page.find(&format!("#{select} option[value='{value}']")));
    }
    // The board of the page's first game is marked, to know the new game's from it.
    page.execute("document.querySelector('#table svg').dataset.old = 'yes'");
    page.click(&page.find("#new"));
    page.wait(&format!(
        "return !document.querySelector('#table svg').dataset.old && \
         document.querySelectorAll('#table .hit').length === {0} * {0}",
        side_of(rules)
    ));
}

fn side_of(rules: &str) -> usize {
    match rules {
        "brandubh" | "brandub" | "magpie" => 7,
        "tablut" => 9,
        "copenhagen-13" => 13,
        _ => 11,
    }
}

/// Waits for the person's turn or the end; whether the game is over.
fn settled(page: &Session) -> bool {
    let state = page.wait(
        "const s = document.getElementById('status').dataset.state;\
         return (s === 'move' || s === 'over') && s;",
    );
    state == "over"
}

#[test]
fn a_whole_game_by_clicks_against_the_engine() {
    // At its weakest the engine answers at once, without a search.
    whole_game("brandubh", "attackers", 0, 100);
}

/// A measurement, not a test (run it with `--ignored --nocapture`, in release): the time
/// from the click of a move to the engine's answer on the board, at full strength and 100 ms
/// a move, over one game. See docs/serve.md.
#[test]
#[ignore]
fn click_to_reply_at_100_ms_a_move() {
    // As the defenders, whose random moves last longer than the attackers'.
    whole_game("copenhagen", "defenders", 20, 100);
}

/// Plays a whole game of `rules` by clicks as `you` against the engine at `level` and
/// `movetime`; prints the time from each click to the engine's answer on screen.
fn whole_game(rules: &str, you: &str, level: u8, movetime: u64) {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let server = Server::start(&[]);
    let page = Session::start(&chromium, &driver, true);
    new_game(&page, &server, rules, you, level, movetime);
    // When the person clicks a target, and when the engine's answer is on the board.
    page.execute(
        "window.clicked = null; window.replies = [];\
         document.addEventListener('click', e => {\
           if (e.target.closest('.hit.target')) window.clicked = performance.now(); }, true);\
         new MutationObserver(() => {\
           const s = document.getElementById('status').dataset.state;\
           if (window.clicked !== null && (s === 'move' || s === 'over')) {\
             window.replies.push(performance.now() - window.clicked); window.clicked = null; }\
         }).observe(document.getElementById('status'), { attributes: true });",
    );
    let mut plies = 0;
    while !settled(&page) {
        // The person's move: a capture if there is one, else a move that varies with the ply.
        let choice = page.execute(&format!(
            "const movable = [...document.querySelectorAll('#table .hit.movable')]\
               .map(h => h.dataset.square);\
             return movable[{plies} * 7 % movable.length];"
        ));
        let from = choice.as_str().expect("a piece to move").to_string();
        let ply = page.execute("return document.getElementById('status').dataset.ply");
        page.click(&page.find(&format!("#table .hit[data-square='{from}']")));
        let to = page.execute(&format!(
            "const t = [...document.querySelectorAll('#table .hit.target')];\
             const c = t.filter(h => h.classList.contains('capture'));\
             return (c.length ? c[0] : t[{plies} * 3 % t.length]).dataset.square;"
        ));
        page.click(&page.find(&format!(
            "#table .hit.target[data-square='{}']",
            to.as_str().unwrap()
        )));
        // The move is on the board before the engine's answer is waited for.
        page.wait(&format!(
            "return document.getElementById('status').dataset.ply !== '{}'",
            ply.as_str().unwrap()
        ));
        plies += 1;
        assert!(plies < 200, "the game does not end");
    }
    let ending = page.find("#status");
    let text = page.execute("return document.getElementById('status').textContent");
    let text = text.as_str().unwrap();
    assert!(
        text.starts_with("Attackers won: ")
            || text.starts_with("Defenders won: ")
            || text.starts_with("Draw: "),
        "{text}"
    );
    assert_eq!(
        page.attribute(&ending, "data-state").as_deref(),
        Some("over")
    );
    // The game is over: nothing is movable, and the record says how it ended.
    assert!(page.find_all("#table .hit.movable").is_empty());
    let replies = page.execute("return window.replies");
    let mut ms: Vec<f64> = replies
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_f64())
        .collect();
    ms.sort_by(f64::total_cmp);
    if !ms.is_empty() {
        eprintln!(
            "{} moves of the person ({you}); click to the engine's reply on screen in {rules} at \
             level {level}, {movetime} ms a move: median {:.0} ms, max {:.0} ms; {text}",
            plies,
            ms[ms.len() / 2],
            ms[ms.len() - 1]
        );
    }
}

#[test]
fn analysis_follows_the_game_and_moves_are_taken_back() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let server = Server::start(&[]);
    let page = Session::start(&chromium, &driver, true);
    new_game(&page, &server, "brandubh", "both", 20, 1000);
    page.click(&page.find("#analyse"));
    let lines = "return document.querySelectorAll('#lines-shown .line').length === 3 && \
                 [...document.querySelectorAll('#lines-shown .line')].map(l => l.textContent)";
    let before = page.wait(lines);
    assert!(
        before[0].as_str().unwrap().contains("attackers ")
            && before[0].as_str().unwrap().contains("depth "),
        "{before}"
    );
    // A move dragged: the lines are now of the new position.
    page.drag(
        &page.find("#table .hit[data-square='d5']"),
        &page.find("#table .hit[data-square='f5']"),
    );
    page.wait("return document.getElementById('status').dataset.ply === '1'");
    let after = page.wait(lines);
    assert_ne!(after, before);
    assert_eq!(page.find_all("#moves a.move.current").len(), 1);
    // A move of the best line clicked plays it (the lines are redrawn as they deepen).
    page.execute(
        "document.addEventListener('click', e => {\
           if (e.target.classList.contains('pv')) window.pv = e.target.textContent; }, true)",
    );
    page.click_live("#lines-shown .line .pv");
    page.wait("return document.getElementById('status').dataset.ply === '2'");
    let list = page
        .execute("return [...document.querySelectorAll('#moves a.move')].map(m => m.textContent)");
    assert_eq!(list[1], page.execute("return window.pv"));
    // Keys and clicks move through the game; the analysis follows.
    page.press(key::HOME);
    page.wait("return document.getElementById('status').dataset.ply === '0'");
    page.wait(lines);
    page.press(key::RIGHT);
    page.wait("return document.getElementById('status').dataset.ply === '1'");
    page.click(&page.find("#moves a.move[data-ply='2']"));
    page.wait("return document.getElementById('status').dataset.ply === '2'");
    // Take back: one move, as both sides are the person's.
    page.click(&page.find("#takeback"));
    page.wait(
        "return document.getElementById('status').dataset.ply === '1' && \
               document.querySelectorAll('#moves a.move').length === 1",
    );
    // Flipped, the board still takes moves by clicks on its squares.
    page.click(&page.find("#flip"));
    assert_eq!(
        page.execute("return document.querySelector('#table svg').classList.contains('flipped')"),
        true
    );
    page.click(&page.find("#table .hit[data-square='b4']"));
    page.click(&page.find("#table .hit.target[data-square='b6']"));
    page.wait("return document.getElementById('status').dataset.ply === '2'");
    page.click(&page.find("#analyse"));
    page.wait("return document.getElementById('analyse').textContent === 'Start'");
}

#[test]
fn a_fen_is_loaded_and_nothing_comes_from_elsewhere() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let server = Server::start(&[]);
    let page = Session::start(&chromium, &driver, true);
    new_game(&page, &server, "copenhagen", "both", 20, 1000);
    let fen = "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a";
    page.type_into(&page.find("#load-text"), fen);
    page.click(&page.find("#load"));
    page.wait("return document.querySelectorAll('#table .hit').length === 81");
    assert_eq!(
        page.execute("return document.getElementById('message').textContent"),
        "position loaded"
    );
    // Tablut's throne and the attackers' first move.
    assert!(page.find_all("#table .restricted").len() == 1);
    page.click(&page.find("#table .hit[data-square='d1']"));
    assert!(!page.find_all("#table .hit.target").is_empty());
    // A bad one is refused with its reason, and the board stays.
    page.execute("document.getElementById('load-text').value = '3a3/3a3 x'");
    page.click(&page.find("#load"));
    page.wait("return document.getElementById('message').className === 'error'");
    assert_eq!(page.find_all("#table .hit").len(), 81);

    // Every resource the page used came from the server, and the server forbids the rest.
    let foreign = page.execute(
        "return performance.getEntries().map(e => e.name)\
           .filter(n => n.startsWith('http') && !n.startsWith(location.origin))",
    );
    assert_eq!(foreign, serde_json::json!([]));
    let policy = page.wait(
        "if (!window.policy) fetch('/').then(r => \
           window.policy = r.headers.get('content-security-policy')); return window.policy;",
    );
    assert!(
        policy.as_str().unwrap().starts_with("default-src 'none'"),
        "{policy}"
    );

    // Reloaded, the page has a new session, and the old one has ended with its engine.
    let link = page
        .attribute(&page.find("#export-record"), "href")
        .unwrap();
    let old = link
        .split('/')
        .skip_while(|part| *part != "sessions")
        .nth(1)
        .unwrap()
        .to_string();
    let show = format!("/api/sessions/{old}");
    assert_eq!(server.request("POST", &show, r#"{"do":"show"}"#).0, 200);
    page.goto(&server.url);
    page.wait("return document.getElementById('status').dataset.state === 'move'");
    assert_ne!(
        page.attribute(&page.find("#export-record"), "href")
            .unwrap(),
        link
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while server.request("POST", &show, r#"{"do":"show"}"#).0 != 404 {
        assert!(
            std::time::Instant::now() < deadline,
            "the reloaded page's session goes on"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }

    // A page left for another ends its session too, though the browser may keep the page.
    let link = page
        .attribute(&page.find("#export-record"), "href")
        .unwrap();
    let id = link
        .split('/')
        .skip_while(|p| *p != "sessions")
        .nth(1)
        .unwrap();
    let show = format!("/api/sessions/{id}");
    page.goto("about:blank");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while server.request("POST", &show, r#"{"do":"show"}"#).0 != 404 {
        assert!(
            std::time::Instant::now() < deadline,
            "the session of a page left goes on"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_screenshot_of_an_analysed_game() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let server = Server::start(&[]);
    let page = Session::start(&chromium, &driver, true);
    new_game(&page, &server, "copenhagen", "defenders", 6, 1000);
    page.type_into(
        &page.find("#load-text"),
        "1. d1-d3 f8-i8 2. j6-j9 e7-e10 3. j9-e9xe10 d6-d9 4. f10-f9 g7-g10",
    );
    page.click(&page.find("#load"));
    // A game loaded waits: the engine moves for neither side until asked.
    page.wait("return document.querySelectorAll('#moves a.move').length === 8");
    page.click(&page.find("#analyse"));
    page.wait(
        "return document.querySelectorAll('#lines-shown .line').length === 3 && \
         document.querySelector('#lines-shown .line .about').textContent.match(/depth (\\d+)/)[1] >= 4",
    );
    page.click(&page.find("#table .hit.movable"));
    let png = page.screenshot();
    assert!(png.starts_with(b"\x89PNG"));
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve.png");
    std::fs::write(&shot, png).unwrap();
    eprintln!("screenshot: {}", shot.display());
}

#[test]
fn the_pages_are_tested_with_the_network_cut() {
    // Every test here plays with the browser's network cut but for the loopback address
    // (Session::start): from a blank page, with no policy of the server's in the way, nothing
    // outside answers, so the pages above work offline.
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let page = Session::start(&chromium, &driver, true);
    page.goto("about:blank");
    let reached = page.wait(
        "if (!window.outside) fetch('http://example.com/', {mode: 'no-cors'}).then(\
           () => window.outside = 'reached', () => window.outside = 'cut'); \
         return window.outside;",
    );
    assert_eq!(reached, "cut");
}
