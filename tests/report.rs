//! `hnefi annotate` and `hnefi board` run for real, and the report of a real game rendered in
//! headless Chromium: one graph point per ply, a diagram for every judged move, and a click on
//! a move that changes the board shown, with scripts on and off. A long game's report stays
//! light enough to send.

use crate::common;
use crate::webdriver;

use std::path::{Path, PathBuf};
use std::process::Command;
use webdriver::{Session, TempDir, browser};

/// A real game of `data/copenhagen.csv`: 42 plies, with captures, won by the defenders.
const GAME_LINE: &str = "8";
const GAME_PLIES: usize = 42;
/// A 100-ply game of `data/copenhagen.csv`, the length the report's size is held to.
const LONG_GAME_LINE: &str = "1172";

fn hnefi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run hnefi");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The report of the test game, at a fixed depth so that it is the same on every machine.
fn write_report(dir: &Path) -> PathBuf {
    let out = dir.join("report.html");
    let (ok, _, err) = hnefi(&[
        "annotate",
        "data/copenhagen.csv",
        "--game",
        GAME_LINE,
        // At depth 4 the game has a move judged like with like (20. i3-g3xg2), which the
        // browser test follows to its diagram.
        "--depth",
        "4",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("analysed 43 positions"), "{err}");
    out
}

#[test]
fn annotate_writes_a_self_contained_page() {
    let dir = TempDir::new("hnefi-report");
    let html = std::fs::read_to_string(write_report(&dir.0)).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Nothing to fetch: no external script, style, image or font.
    for fetch in ["src=", "<link", "url(", "@import", "http://", "https://"] {
        let allowed = "xmlns=\"http://www.w3.org/2000/svg\"";
        assert!(
            !html.replace(allowed, "").contains(fetch),
            "the page fetches something: {fetch}"
        );
    }
    assert_eq!(html.matches("class=\"position").count(), GAME_PLIES + 1);
    // Every drawing reused by reference is in the page.
    for reference in html.split("href=\"#").skip(1) {
        let id = &reference[..reference.find('"').unwrap()];
        assert!(
            html.contains(&format!("id=\"{id}\"")),
            "#{id} is used but nowhere in the page"
        );
    }
}

#[test]
fn a_hundred_ply_report_is_light() {
    let dir = TempDir::new("hnefi-light");
    let out = dir.0.join("report.html");
    // A fixed depth gives the same page everywhere; a shallow one keeps the test quick, and
    // the page's size hardly depends on the depth.
    let (ok, _, err) = hnefi(&[
        "annotate",
        "data/copenhagen.csv",
        "--game",
        LONG_GAME_LINE,
        "--depth",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("analysed 101 positions"), "{err}");
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.len() < 300_000,
        "the report of 100 plies takes {} bytes",
        html.len()
    );
    assert_eq!(html.matches("class=\"position").count(), 101);
    // The pieces are drawn once and named once, each kind for people who cannot see it.
    for kind in ["attacker", "defender", "king"] {
        assert_eq!(html.matches(&format!("<title>{kind}</title>")).count(), 1);
    }
}

#[test]
fn annotate_reads_an_opentafl_game() {
    let dir = TempDir::new("hnefi-otg");
    let otg = dir.0.join("game.otg");
    std::fs::write(
        &otg,
        "[attackers:Ragnar <the Bold>]\n[defenders:Astrid]\n[result:-1]\n\
         [rules:dim:11 name:Copenhagen start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/\
         t3TTT3t/t4T4t/11/5t5/3ttttt3/]\n\n1. d1-d3 e5-e2\n[A quiet start.|]\n\
         2. g1-g3 f4-c4\n3. g3-e3xe2\n",
    )
    .unwrap();
    let (ok, html, err) = hnefi(&["annotate", otg.to_str().unwrap(), "--depth", "2"]);
    assert!(ok, "{err}");
    // Names from the file are text, never markup.
    assert!(html.contains("Ragnar &lt;the Bold&gt;") && !html.contains("<the Bold>"));
    assert!(html.contains("Astrid") && html.contains("Defenders won"));
    assert!(html.contains(">g3-e3xe2<"));
}

#[test]
fn annotate_and_board_refuse_bad_input_clearly() {
    let (ok, _, err) = hnefi(&["annotate", "d1-d3 d3-d1"]);
    assert!(!ok && err.contains("move 2 (d3-d1)"), "{err}");
    let (ok, _, err) = hnefi(&["annotate", "data/copenhagen.csv"]);
    assert!(!ok && err.contains("--game"), "{err}");
    let (ok, _, err) = hnefi(&["annotate", "d1-d3", "-o", "/nonexistent/report.html"]);
    assert!(
        !ok && err.contains("cannot write /nonexistent/report.html"),
        "{err}"
    );
    assert!(
        !err.contains("analysed"),
        "the analysis ran before the output was checked"
    );
    let (ok, _, err) = hnefi(&["annotate", "no such thing"]);
    assert!(
        !ok && err.contains("neither a file nor a game: give the moves"),
        "{err}"
    );
    // A position of a size Hnefi does not play is refused as such, never read as 11x11.
    let (ok, _, err) = hnefi(&["board", "--fen", "11/11 a"]);
    assert!(
        !ok && err.contains("a board of side 2: Hnefi plays boards of side 7, 9, 11 and 13"),
        "{err}"
    );
    let (ok, _, err) = hnefi(&["board", "--fen", "11/11/11/11/11/11/11/11/11/11 a"]);
    assert!(!ok && err.contains("a board of side 10"), "{err}");
    let (ok, _, err) = hnefi(&["board", "--rules", "brandubh", "--moves", "k4k5"]);
    assert!(!ok && err.contains("--moves 1 (k4k5)"), "{err}");
    let (ok, _, err) = hnefi(&["board", "--moves", "d1d3 d3d1"]);
    assert!(!ok && err.contains("--moves 2"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn board_draws_one_position() {
    let (ok, svg, err) = hnefi(&["board", "--moves", "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3"]);
    assert!(ok, "{err}");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    // A file of its own: well-formed, and holding every drawing it reuses.
    let doc = roxmltree::Document::parse(&svg).expect("the diagram is well-formed XML");
    let used = |id: &str| {
        assert!(doc.descendants().any(|n| n.attribute("id") == Some(id)));
        let href = format!("#{id}");
        doc.descendants()
            .filter(|n| n.has_tag_name("use") && n.attribute("href") == Some(href.as_str()))
            .count()
    };
    assert_eq!(used("a"), 24);
    assert_eq!(used("d"), 11);
    assert_eq!(used("k"), 1);
    assert_eq!(used("board"), 1);
    assert!(svg.contains("<title>captured on e2</title>"));
    assert!(svg.contains("data-from=\"g3\" data-to=\"e3\""));
}

#[test]
fn the_report_works_in_a_real_browser() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let dir = TempDir::new("hnefi-browser");
    let report = write_report(&dir.0);
    let url = format!("file://{}", report.display());
    let browser = Session::start(&chromium, &driver, true);
    browser.goto(&url);

    // One point per ply, numbered 1 to the last.
    let points = browser.find_all(".graph circle.ply");
    assert_eq!(points.len(), GAME_PLIES);
    let plies: Vec<String> = points
        .iter()
        .filter_map(|p| browser.attribute(p, "data-ply"))
        .collect();
    let expected: Vec<String> = (1..=GAME_PLIES).map(|p| p.to_string()).collect();
    assert_eq!(plies, expected);

    // Every judged move has its diagram among the key moments.
    let judged = browser.find_all(".moves a.move.judged");
    assert!(!judged.is_empty(), "the test game should have judged moves");
    for m in &judged {
        let ply = browser.attribute(m, "data-ply").unwrap();
        let diagrams = browser.find_all(&format!("#note-{ply} svg.board"));
        assert_eq!(
            diagrams.len(),
            1,
            "no diagram for the judged move of ply {ply}"
        );
    }

    // The final board shows first; a click on a move shows that move's board instead.
    let shown = |b: &Session| -> Vec<String> {
        b.find_all(".boards .position")
            .into_iter()
            .filter(|f| b.displayed(f))
            .filter_map(|f| b.attribute(&f, "id"))
            .collect()
    };
    // The pieces of the board shown, each as where it stands and the drawing it reuses. The
    // browser must find that drawing: a piece with nothing to draw has an empty box. A key
    // moment's board is one `use` of its diagram; any other board draws its pieces itself.
    let pieces = |b: &Session| {
        b.execute(
            "return [...document.querySelectorAll('.boards .position')]\
             .filter(f => f.offsetParent !== null)\
             .map(f => {\
               const svg = f.querySelector('svg');\
               const again = svg.querySelector(':scope > use[href^=\"#diagram-\"]');\
               const drawing = again ? document.querySelector(again.getAttribute('href')) : svg;\
               const drawn = u => u.getBBox().width > 20;\
               if (again && !drawn(again)) return 'nothing drawn';\
               return [...drawing.querySelectorAll('use:not([href=\"#board\"])')]\
                 .map(u => drawn(u) ? u.getAttribute('href') + '@' \
                   + u.getAttribute('x') + ',' + u.getAttribute('y') : 'nothing drawn')\
                 .join(' ');\
             })",
        )
        .to_string()
    };
    assert_eq!(shown(&browser), [format!("ply-{GAME_PLIES}")]);
    let before = pieces(&browser);
    assert!(
        before.contains("#k@") && !before.contains("nothing drawn"),
        "{before}"
    );
    browser.click(&browser.find(".moves a.move[data-ply='5']"));
    assert_eq!(shown(&browser), ["ply-5"]);
    let after = pieces(&browser);
    assert_ne!(after, before, "the board did not change");
    assert!(
        after.matches("#a@").count() > 20 && !after.contains("nothing drawn"),
        "{after}"
    );
    // A point of the graph does the same.
    browser.click(&browser.find(".graph circle.ply[data-ply='12']"));
    assert_eq!(shown(&browser), ["ply-12"]);

    let png = browser.screenshot();
    assert!(png.starts_with(b"\x89PNG"), "the screenshot is not a PNG");
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report.png");
    std::fs::write(&shot, png).unwrap();
    eprintln!("screenshot: {}", shot.display());
    drop(browser);

    // With scripts off the moves are anchors and the stylesheet shows the targeted board.
    let plain = Session::start(&chromium, &driver, false);
    plain.goto(&url);
    assert_eq!(
        plain.execute("return document.documentElement.className"),
        ""
    );
    assert_eq!(shown(&plain), [format!("ply-{GAME_PLIES}")]);
    plain.click(&plain.find(".moves a.move[data-ply='7']"));
    assert_eq!(shown(&plain), ["ply-7"]);
    let seventh = pieces(&plain);
    assert!(
        seventh.contains("#k@") && !seventh.contains("nothing drawn"),
        "{seventh}"
    );
}

/// The pieces and the special squares of an SVG diagram.
fn drawn(svg: &str) -> (usize, usize) {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    let pieces = doc
        .descendants()
        .filter(|n| n.has_tag_name("use") && n.attribute("href") != Some("#board"))
        .count();
    let special = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("restricted"))
        .count();
    (pieces, special)
}

#[test]
fn analyse_annotate_and_board_on_7x7_and_13x13() {
    // Brandubh: 8 attackers, 4 defenders and the king on 7x7, its corners and throne marked.
    let (ok, svg, err) = hnefi(&["board", "--rules", "brandubh", "--moves", "c4c6"]);
    assert!(ok, "{err}");
    assert!(
        svg.contains("viewBox=\"0 0 328 328\""),
        "7 squares of 40 and margins"
    );
    assert_eq!(drawn(&svg), (13, 5));
    assert!(svg.contains("data-from=\"c4\" data-to=\"c6\""));
    // A 13x13 position by its FEN alone: the board of its size and its rules.
    let fen13 = "3aaaaaaa3/6a6/13/a5d5a/a5d5a/a4ddd4a/aa1dddkddd1aa/a4ddd4a/a5d5a/a5d5a/13/6a6/\
                 3aaaaaaa3 a";
    let (ok, svg, err) = hnefi(&["board", "--fen", fen13, "--moves", "m4l4"]);
    assert!(ok, "{err}");
    assert!(svg.contains("viewBox=\"0 0 568 568\"") && svg.contains(">m</text>"));
    assert_eq!(drawn(&svg), (32 + 16 + 1, 5));

    let (ok, out, err) = hnefi(&[
        "analyse", "--rules", "brandubh", "--moves", "c4c6", "--depth", "2",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains(" 7 + . . a . . +") && out.contains("   a b c d e f g"),
        "{out}"
    );
    assert!(
        out.contains("attackers to move; 3a3/2da3/3d3/aa1kdaa/3d3/3a3/3a3 a"),
        "{out}"
    );
    assert!(out.contains("best move "), "{out}");
    let (ok, out, err) = hnefi(&["analyse", "--rules", "copenhagen-13", "--depth", "1"]);
    assert!(ok, "{err}");
    assert!(out.contains("13 + . . a a a a a a a . . +"), "{out}");
    assert!(out.contains("best move "), "{out}");

    // Records of other rules name them in a fifth field, as the match runner writes them.
    for (record, rules, last) in [
        ("c4-c6 d6-f6,0,0,Ongoing,brandubh", "brandubh", ">d6-f6<"),
        (
            "m4-l4 g10-f10,0,0,Ongoing,copenhagen-13",
            "copenhagen-13",
            ">g10-f10<",
        ),
    ] {
        let (ok, html, err) = hnefi(&["annotate", record, "--depth", "1"]);
        assert!(ok, "{err}");
        assert!(html.contains(&format!("Rules</b> {rules}")), "{rules}");
        assert!(
            html.contains(last) && err.contains("analysed 3 positions"),
            "{err}"
        );
    }
    // Moves alone take --rules.
    let (ok, html, err) = hnefi(&[
        "annotate",
        "c4-c6 d6-f6",
        "--rules",
        "brandubh",
        "--depth",
        "1",
    ]);
    assert!(ok && html.contains(">c4-c6<"), "{err}");
}

/// A Brandub game as OpenTafl's headless client saved it after a game on OpenTafl's network
/// host (Hnefi the attackers, against OpenTafl's AI): the last move names the king among its
/// captures, `c3-d3xKe3`, as OpenTafl writes them.
#[test]
fn annotate_takes_opentafls_captured_king_as_the_capture_it_is() {
    let dir = TempDir::new("hnefi-otg-king");
    let otg = dir.0.join("ai-game.otg");
    std::fs::write(
        &otg,
        "[date:2026.11.25]\n\
         [result:1]\n\
         [compiler:OpenTafl]\n\
         [time-control:30 2/3 0i]\n\
         [time-remaining:0 1/3, 23 2/3]\n\
         [rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: starti:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\
         \n\
         1. f4-f5 e4-f4 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         2. b4-b3 c4-c3 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         3. d2-f2 Kd4-e4 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         4. f2-f3xf4 d5-b5 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         5. d6-b6 b5-c5 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         6. a4-c4 c5-a5 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         7. f3-e3 a5-e5 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         8. d1-d2 c3-c1 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         9. b3-c3xd3 c1-e1 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         10. d2-d5xe5 e1-e2xe3 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         11. d5-e5 Ke4-e3 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         12. f5-f3 e2-d2 \n\
         [0 1/3 0i |23 2/3 0i ]\n\
         \n\
         13. c3-d3xKe3 \n\
         [0 1/3 0i ]\n\
         \n\
         \n",
    )
    .unwrap();
    let (ok, html, err) = hnefi(&["annotate", otg.to_str().unwrap(), "--depth", "1"]);
    assert!(ok, "{err}");
    assert!(!err.contains("claims other captures"), "{err}");
    assert!(html.contains("Attackers won"), "{html}");
}

#[test]
fn annotate_at_a_terminal_writes_a_file_and_says_where() {
    use common::{Terminal, hnefi_at_terminal};
    let dir = common::fresh_dir("annotate-terminal");
    let game = "1. d1-d3 e5-e2 2. g1-g3";
    let args = ["annotate", game, "--depth", "1"];
    let (ok, shown, err) = hnefi_at_terminal(&dir, &args, Terminal::Stdout);
    assert!(ok, "{err}");
    assert!(
        !shown.contains("<html"),
        "no page into the terminal: {shown}"
    );
    assert!(err.trim_end().ends_with("; wrote report.html"), "{err}");
    let page = std::fs::read_to_string(dir.join("report.html")).expect("report.html");
    assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    // A second report does not replace the first.
    std::fs::write(dir.join("report.html"), "kept").unwrap();
    let (ok, _, err) = hnefi_at_terminal(&dir, &args, Terminal::Stdout);
    assert!(ok && err.contains("wrote report-2.html"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("report.html")).unwrap(),
        "kept"
    );
    // A game of a file is named after it and its line.
    let games = common::repo_file("data/copenhagen.csv");
    let (ok, _, err) = hnefi_at_terminal(
        &dir,
        &[
            "annotate",
            games.to_str().unwrap(),
            "--game",
            "3",
            "--depth",
            "1",
        ],
        Terminal::Stdout,
    );
    assert!(ok && err.contains("wrote copenhagen-3.html"), "{err}");
    assert!(dir.join("copenhagen-3.html").is_file());
    // Asked for with `-o -`, the page goes to the terminal all the same.
    let (ok, shown, err) = hnefi_at_terminal(
        &dir,
        &["annotate", game, "--depth", "1", "-o", "-"],
        Terminal::Stdout,
    );
    assert!(ok && shown.starts_with("<!DOCTYPE html>"), "{err}");
    assert!(!err.contains("wrote"), "{err}");
    // Into a pipe, the page is the output, and the summary stays on standard error.
    let (ok, out, err) = common::output_of_hnefi_in(&dir, &args);
    assert!(ok && out.starts_with("<!DOCTYPE html>") && out.ends_with("</html>\n"));
    assert!(
        err.starts_with("analysed 4 positions") && !err.contains("wrote"),
        "{err}"
    );
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(
        files, 3,
        "report.html, report-2.html and copenhagen-3.html only"
    );
}
