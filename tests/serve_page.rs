//! The board page of `hnefi serve` in headless Chromium, by real clicks, drags and keys: a
//! whole game against the engine, the analysis following the game with its arrows and bar,
//! take back, the board flipped, a FEN and games loaded, the move list, a phone's width, and
//! nothing fetched from anywhere but the server. Saves screenshots of the page.

use crate::common;
use crate::webdriver;

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

/// Loads `text` by the page's load box and waits for the game of `plies` moves it holds.
fn load(page: &Session, text: &str, plies: usize) {
    page.execute(&format!(
        "document.getElementById('load-text').value = {}",
        serde_json::Value::from(text)
    ));
    page.click(&page.find("#load"));
    page.wait(&format!(
        "return document.getElementById('status').dataset.ply === '{plies}' && \
         document.querySelectorAll('#moves a.move').length === {plies}"
    ));
}

/// Game 541 of data/copenhagen.csv: 101 moves that end with the king on a4, which the
/// attackers (`Black`) won by the record, not by the rules.
fn game_541() -> String {
    common::games_text().lines().nth(540).unwrap().to_string()
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
    assert_eq!(
        page.execute("return document.getElementById('evalbar').className"),
        "off"
    );
    // The board opens with the analysis off, and its bar says how to start it, on one
    // colour: the words do not straddle the two sides' shares.
    assert_eq!(
        page.execute(
            "const bar = document.getElementById('evalbar');\
             return [bar.querySelector('.state').textContent,\
                     bar.querySelector('.fill').style.width]"
        ),
        serde_json::json!(["analysis off: Start under Analysis", "0%"])
    );
    page.click(&page.find("#analyse"));
    let lines = "return document.querySelectorAll('#lines-shown .line').length === 3 && \
                 [...document.querySelectorAll('#lines-shown .line')].map(l => l.textContent)";
    let before = page.wait(lines);
    assert!(
        before[0].as_str().unwrap().contains("attackers ")
            && before[0].as_str().unwrap().contains("depth "),
        "{before}"
    );
    // An arrow for the first move of each line, the best line's the boldest; the bar, lit,
    // says the best line's chance. Lines and arrows are read at one moment of the page.
    let seen = page.wait(
        "const lines = [...document.querySelectorAll('#lines-shown .line')];\
         const arrows = [...document.querySelectorAll('#table .arrows .arrow')];\
         if (lines.length !== 3 || arrows.length !== 3) return false;\
         const bar = document.getElementById('evalbar');\
         return { firsts: lines.map(l => l.querySelector('.pv').textContent),\
           arrows: arrows.map(a => [Number(a.dataset.rank), a.dataset.from + '-' + a.dataset.to,\
             Number(a.querySelector('line').getAttribute('stroke-width')),\
             Number(a.getAttribute('opacity'))]).sort((a, b) => a[0] - b[0]),\
           bar: [bar.className, bar.querySelector('.attackers').textContent] };",
    );
    let arrows = seen["arrows"].as_array().unwrap();
    for (i, arrow) in arrows.iter().enumerate() {
        assert_eq!(arrow[0], i + 1, "{seen}");
        let first = seen["firsts"][i].as_str().unwrap();
        assert!(first.starts_with(arrow[1].as_str().unwrap()), "{seen}");
    }
    for pair in arrows.windows(2) {
        assert!(pair[0][2].as_f64() > pair[1][2].as_f64(), "{seen}");
        assert!(pair[0][3].as_f64() > pair[1][3].as_f64(), "{seen}");
    }
    assert_eq!(seen["bar"][0], "", "{seen}");
    let chance = seen["bar"][1].as_str().unwrap();
    assert!(
        chance.starts_with("Attackers ") && chance.ends_with('%'),
        "{seen}"
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
    // Off, the analysis leaves no arrow, and the bar is greyed out.
    assert!(page.find_all("#table .arrow").is_empty());
    assert_eq!(
        page.execute("return document.getElementById('evalbar').className"),
        "off"
    );
}

/// The analysis bar's state, its words, the button's word and the lines and arrows shown, at
/// one moment of the page, once the bar is in `state` with `lines` lines listed.
fn bar_in(state: &str, lines: usize) -> String {
    format!(
        "const bar = document.getElementById('evalbar');\
         return bar.dataset.state === '{state}' &&\
           document.querySelectorAll('#lines-shown .line').length === {lines} &&\
           [bar.querySelector('.state').textContent,\
           document.getElementById('analyse').textContent,\
           document.querySelectorAll('#lines-shown .line').length,\
           document.querySelectorAll('#table .arrows .arrow').length, bar.className];"
    )
}

#[test]
fn a_solved_position_stays_analysed_through_the_games_end_and_back() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let server = Server::start(&[]);
    let page = Session::start(&chromium, &driver, true);
    new_game(&page, &server, "brandubh", "both", 20, 1000);
    // The king on c7 escapes to the corner a7 or g7 in one move.
    let fen = "2k4/7/7/1a5/4a2/a6/7 d";
    page.execute(&format!(
        "document.getElementById('load-text').value = '{fen}'"
    ));
    page.click(&page.find("#load"));
    page.wait(&format!(
        "return document.getElementById('fen').value === '{fen}'"
    ));
    page.click(&page.find("#analyse"));
    page.wait("return document.getElementById('analyse').textContent === 'Stop'");
    // One line, so that the search ends as soon as the win is proven (three lines would
    // search on to the deepest); until then a search of three may have ended too.
    page.click(&page.find("#lines option[value='1']"));
    let solved = serde_json::json!(["defenders win in 1", "Stop", 1, 1, ""]);
    // The search has ended (its `state` event came): the analysis is still on, and the bar,
    // the line and its arrow say the result.
    assert_eq!(page.wait(&bar_in("done", 1)), solved);
    let title = page.execute("return document.getElementById('evalbar').title");
    assert!(title.as_str().unwrap().ends_with("search ended"), "{title}");
    // The winning move played from the line: the game's end is on the bar, the analysis on.
    page.click_live("#lines-shown .line .pv");
    page.wait("return document.getElementById('status').dataset.state === 'over'");
    assert_eq!(
        page.wait(&bar_in("over", 0)),
        serde_json::json!(["", "Stop", 0, 0, ""])
    );
    assert_eq!(
        page.execute("return document.querySelector('#evalbar .defenders').textContent"),
        "100% Defenders"
    );
    // Stepping back analyses the position shown again, and so does a move from it.
    page.press(key::LEFT);
    page.wait("return document.getElementById('status').dataset.ply === '0'");
    assert_eq!(page.wait(&bar_in("done", 1)), solved);
    page.click(&page.find("#table .hit[data-square='c7']"));
    page.click(&page.find("#table .hit.target[data-square='c5']"));
    page.wait("return document.getElementById('status').dataset.ply === '1'");
    let next = page.wait(
        "const bar = document.getElementById('evalbar');\
         return document.querySelectorAll('#lines-shown .line').length === 1 &&\
           [bar.dataset.state === 'analysing' || bar.dataset.state === 'done',\
            document.getElementById('analyse').textContent,\
            document.querySelectorAll('#table .arrows .arrow').length];",
    );
    assert_eq!(next, serde_json::json!([true, "Stop", 1]));
}

/// Every piece drawn, as its square and kind (`f6#k`), sorted: the square is the one to click
/// under the piece's centre on the page, wherever the drawing put it.
const PIECES: &str = "const svg = document.querySelector('#table svg');\
    const hits = [...svg.querySelectorAll('.hit')]\
      .map(h => [h.dataset.square, h.getBoundingClientRect()]);\
    return [...svg.querySelectorAll('.turned > use:not([href=\"#board\"])')].map(p => {\
      const r = p.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;\
      const hit = hits.find(([, h]) => r.width > 0 && x > h.left && x < h.right\
        && y > h.top && y < h.bottom);\
      return (hit ? hit[0] : 'nowhere') + p.getAttribute('href');\
    }).sort();";

/// The file letters along the bottom from the left, the rank number at the bottom left, and
/// whether every label is upright on the screen.
const LABELS: &str = "const svg = document.querySelector('#table svg').getBoundingClientRect();\
    const labels = [...document.querySelectorAll('#table svg text')].map(t =>\
      ({ text: t.textContent, r: t.getBoundingClientRect(), m: t.getScreenCTM() }));\
    const left = l => l.r.right < svg.left + svg.width * 0.05;\
    const files = labels.filter(l => !left(l)).sort((a, b) => a.r.left - b.r.left);\
    const ranks = labels.filter(left).sort((a, b) => b.r.top - a.r.top);\
    return [files.map(l => l.text).join(' '), ranks[0].text,\
      labels.every(l => l.m.a > 0 && l.m.d > 0 && l.m.b === 0)];";

#[test]
fn a_flipped_board_shows_every_piece_the_crown_upright_and_labels_that_read() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let server = Server::start(&[]);
    let page = Session::start(&chromium, &driver, true);
    new_game(&page, &server, "copenhagen", "both", 0, 100);
    let start = page.execute(PIECES);
    let all = start.as_array().unwrap();
    assert_eq!(all.len(), 24 + 12 + 1, "{start}");
    assert!(all.contains(&"f6#k".into()), "{start}");
    assert_eq!(
        page.execute(LABELS),
        serde_json::json!(["a b c d e f g h i j k", "1", true])
    );
    let upright = "const m = s => document.querySelector(`#table .turned > use[href='${s}']`)\
        .getScreenCTM(); return [m('#k').a > 0 && m('#k').d > 0, m('#a').a > 0];";
    assert_eq!(page.execute(upright), serde_json::json!([true, true]));

    page.click(&page.find("#flip"));
    // The same pieces on the same squares, a1 now at the top right, the attackers' discs
    // turned with the board and the crown upright; the labels read the other way round.
    assert_eq!(page.execute(PIECES), start);
    let corner = page.execute(
        "const svg = document.querySelector('#table svg').getBoundingClientRect();\
         const a1 = document.querySelector(\"#table .hit[data-square='a1']\")\
           .getBoundingClientRect();\
         return [a1.left > svg.left + svg.width / 2, a1.top < svg.top + svg.height / 2];",
    );
    assert_eq!(corner, serde_json::json!([true, true]));
    assert_eq!(page.execute(upright), serde_json::json!([true, false]));
    assert_eq!(
        page.execute(LABELS),
        serde_json::json!(["k j i h g f e d c b a", "11", true])
    );
    // A piece dragged on the flipped board lands where it was dropped.
    page.drag(
        &page.find("#table .hit[data-square='d1']"),
        &page.find("#table .hit[data-square='d3']"),
    );
    page.wait("return document.getElementById('status').dataset.ply === '1'");
    let moved = page.execute(PIECES);
    assert!(
        moved.as_array().unwrap().contains(&"d3#a".into()),
        "{moved}"
    );

    // A game loaded on the flipped board, its king on the edge at a4.
    load(&page, &game_541(), 101);
    let flipped = page.execute(PIECES);
    assert!(
        flipped.as_array().unwrap().contains(&"a4#k".into()),
        "{flipped}"
    );
    assert_eq!(page.execute(upright), serde_json::json!([true, false]));
    page.click(&page.find("#flip"));
    assert_eq!(page.execute(PIECES), flipped);
    assert_eq!(page.execute(LABELS)[0], "a b c d e f g h i j k");
}

#[test]
fn a_loaded_game_waits_for_the_engine_and_ends_as_its_record_says() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let server = Server::start(&[]);
    let page = Session::start(&chromium, &driver, true);
    // Hnefi plays the defenders, who are to move after the 9 moves loaded.
    new_game(&page, &server, "copenhagen", "attackers", 0, 100);
    let game = game_541();
    let nine: Vec<&str> = game.split_whitespace().take(9).collect();
    load(&page, &nine.join(" "), 9);
    assert_eq!(
        page.execute("return document.getElementById('message').textContent"),
        "game of 9 moves loaded: you play both sides until \"Engine, move\""
    );
    assert_eq!(
        page.execute(
            "return [document.getElementById('you').value, \
             document.getElementById('status').dataset.state, \
             document.getElementById('status').textContent]"
        ),
        serde_json::json!(["both", "move", "Defenders to move"])
    );
    // The one search of the session analyses the position loaded: no move is searched for.
    page.click(&page.find("#analyse"));
    page.wait("return document.querySelectorAll('#lines-shown .line').length > 0");
    assert_eq!(page.find_all("#moves a.move").len(), 9);
    page.click(&page.find("#analyse"));
    page.wait("return document.getElementById('analyse').textContent === 'Start'");
    // Asked, the engine moves for the side to move.
    page.click(&page.find("#engine-move"));
    page.wait("return document.querySelectorAll('#moves a.move').length === 10");
    assert_eq!(page.find_all("#moves a.move").len(), 10);

    // A record whose result the moves do not show: the page says it at the last move.
    load(&page, &game, 101);
    let status = "const s = document.getElementById('status');\
                  return [s.textContent, s.dataset.state];";
    assert_eq!(
        page.execute(status),
        serde_json::json!(["Attackers won, by the record.", "over"])
    );
    page.press(key::LEFT);
    page.wait("return document.getElementById('status').dataset.ply === '100'");
    assert_eq!(
        page.execute(status),
        serde_json::json!(["Attackers to move", "move"])
    );
}

/// Whether the current move's row is wholly inside the move list, its number not cut off, and
/// the list's scroll from the top.
const CURRENT_SHOWN: &str = "const list = document.getElementById('moves');\
    const row = list.querySelector('.current').parentNode;\
    const l = list.getBoundingClientRect(), r = row.getBoundingClientRect();\
    const n = row.querySelector('.number').getBoundingClientRect();\
    return [r.top >= l.top - 0.5 && r.bottom <= l.bottom + 0.5 && n.left >= l.left - 0.5,\
      list.scrollTop];";

#[test]
fn the_move_list_scrolls_up_and_down_with_the_current_move_in_view() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let server = Server::start(&[]);
    let page = Session::start(&chromium, &driver, true);
    new_game(&page, &server, "copenhagen", "both", 0, 100);
    load(&page, &game_541(), 101);
    // Rows of numbered pairs, one under the other: taller than the list, never wider.
    let shape = page.execute(
        "const list = document.getElementById('moves');\
         return [list.children.length, list.children[0].textContent,\
           list.children[50].textContent, list.scrollHeight > list.clientHeight,\
           list.scrollWidth <= list.clientWidth];",
    );
    assert_eq!(
        shape,
        serde_json::json!([51, "1.d1-d3h6-h9", "51.b3-a3xa2", true, true])
    );
    let at_end = page.execute(CURRENT_SHOWN);
    assert_eq!(at_end[0], true, "{at_end}");
    assert!(at_end[1].as_f64().unwrap() > 0.0, "{at_end}");
    let goto = |keys: &str, ply: usize| {
        page.press(keys);
        page.wait(&format!(
            "return document.getElementById('status').dataset.ply === '{ply}'"
        ));
    };
    goto(key::HOME, 0);
    assert_eq!(
        page.execute("return document.getElementById('moves').scrollTop"),
        0
    );
    goto(key::RIGHT, 1);
    assert_eq!(page.execute(CURRENT_SHOWN), serde_json::json!([true, 0]));
    goto(key::END, 101);
    assert_eq!(page.execute(CURRENT_SHOWN), at_end);
    // A move clicked in the middle, then stepped back from: it stays in view.
    page.click(&page.find("#moves a.move[data-ply='40']"));
    page.wait("return document.getElementById('status').dataset.ply === '40'");
    for ply in (30..40).rev() {
        goto(key::LEFT, ply);
        assert_eq!(page.execute(CURRENT_SHOWN)[0], true, "at move {ply}");
    }
}

#[test]
fn at_a_phones_width_nothing_spills_sideways() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let server = Server::start(&[]);
    let page = Session::start(&chromium, &driver, true);
    page.viewport(390, 844);
    new_game(&page, &server, "copenhagen", "attackers", 0, 100);
    // A long game, its analysis with long lines, and the board flipped: the most there is.
    load(&page, &game_541(), 101);
    page.click(&page.find("#analyse"));
    page.wait("return document.querySelectorAll('#lines-shown .line').length === 3");
    page.click(&page.find("#flip"));
    let spilled = page.execute(
        "const body = document.body.getBoundingClientRect();\
         const right = body.right - parseFloat(getComputedStyle(document.body).paddingRight);\
         const out = [...document.body.querySelectorAll('*')].filter(e => {\
           const r = e.getBoundingClientRect(); return r.width > 0 && r.right > right + 0.5; })\
           .map(e => e.tagName + '#' + e.id + '.' + e.className);\
         return [innerWidth, document.documentElement.scrollWidth, out];",
    );
    assert_eq!(spilled, serde_json::json!([390, 390, []]));
    page.execute("window.scrollTo(0, 0)");
    let png = page.screenshot();
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-phone.png");
    std::fs::write(&shot, png).unwrap();
    eprintln!("screenshot: {}", shot.display());
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
    // The box to copy the position from holds it.
    assert_eq!(
        page.execute("return document.getElementById('fen').value"),
        fen
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
    let game = game_541();
    let moves: Vec<&str> = game.split_whitespace().take(36).collect();
    load(&page, &moves.join(" "), 36);
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
