//! A board diagram as SVG, on a board of any size: the squares with the rules' special ones
//! (corners, throne, forts) marked, the pieces, the last move as an arrow with what it
//! captured crossed out, and a better move as a second arrow.
//! Written with `maud` so that every text is escaped and every element closed: the same markup
//! is a standalone `.svg` file (XML) and an inline drawing in the report's HTML.
//!
//! The empty board and the three kinds of piece are drawn once, in [`shared`], and every
//! diagram places them with `<use>`: a report holds a hundred boards, and drawing each piece in
//! full made it a megabyte.

use crate::board::geometry::Word;
use crate::board::{Bitboard, Board, Move, RecordMove, Square};
use crate::board::{Geometry, Piece, Rules};
use maud::{Markup, PreEscaped, html};

/// Side of a square, in SVG units.
pub const CELL: f64 = 40.0;
/// Room for the coordinates around the board.
pub const MARGIN: f64 = 24.0;

/// Width and height of the drawing of a board of `G`.
pub fn extent<G: Geometry>() -> f64 {
    2.0 * MARGIN + f64::from(G::SIDE) * CELL
}

/// The squares `rules` make special on the board of `G`: corners, throne and forts.
pub fn special_squares<G: Geometry>(rules: &Rules) -> Bitboard<G> {
    [
        rules.corners,
        rules.throne,
        rules.attacker_forts,
        rules.defender_forts,
    ]
    .iter()
    .fold(Bitboard::EMPTY, |acc, s| {
        acc | Bitboard(G::Word::from_limbs(s.squares.0))
    }) & Bitboard::ALL
}

const ATTACKER_FILL: &str = "#2b2926";
const DEFENDER_FILL: &str = "#fbf7ee";
const LAST_MOVE: &str = "#2f6fd1";
const BETTER_MOVE: &str = "#1e9e57";
const CAPTURE: &str = "#d7263d";

/// What to draw over the pieces.
#[derive(Clone, Copy, Debug)]
pub struct Marks<G: Geometry> {
    /// The move that led here and what it captured.
    pub last: Option<RecordMove<G>>,
    /// A move the engine prefers to the last one, from the position before it.
    pub better: Option<Move<G>>,
}

impl<G: Geometry> Default for Marks<G> {
    fn default() -> Marks<G> {
        Marks {
            last: None,
            better: None,
        }
    }
}

/// The centre of `sq`: files left to right, the last rank at the top.
pub fn centre<G: Geometry>(sq: Square<G>) -> (f64, f64) {
    (
        MARGIN + (f64::from(sq.file()) + 0.5) * CELL,
        MARGIN + (f64::from(G::SIDE - 1 - sq.rank()) + 0.5) * CELL,
    )
}

/// The id of the shared drawing of `piece`: its letter in a FEN, kept short because a report
/// refers to it thousands of times.
fn piece_id(piece: Piece) -> &'static str {
    match piece {
        Piece::Attacker => "a",
        Piece::Defender => "d",
        Piece::King => "k",
    }
}

/// The id of the shared empty board.
const BOARD_ID: &str = "board";

/// `board` with `marks` and the `special` squares marked, as an `<svg>` element that stands on
/// its own: a file of its own, with the shared drawings inside.
pub fn render<G: Geometry>(board: &Board<G>, marks: &Marks<G>, special: Bitboard<G>) -> Markup {
    frame::<G>(true, html! { (shared(special)) (markings(board, marks)) })
}

/// `board` with `marks`, as an `<svg>` element for a document that holds [`shared`] once.
/// Named `id`, the drawing can be shown again elsewhere in the document with [`again`].
pub fn render_in_document<G: Geometry>(
    board: &Board<G>,
    marks: &Marks<G>,
    id: Option<&str>,
) -> Markup {
    let drawing = markings(board, marks);
    frame::<G>(
        false,
        html! {
            @match id {
                Some(id) => g id=(id) { (drawing) },
                None => (drawing),
            }
        },
    )
}

/// The drawing of [`render_in_document`] named `id`, shown once more.
pub fn again<G: Geometry>(id: &str) -> Markup {
    frame::<G>(false, html! { use href=(format!("#{id}")) {} })
}

/// An `<svg>` of a board around `content`. An HTML page gives its inline drawings their
/// namespace; a file of its own must name it.
fn frame<G: Geometry>(standalone: bool, content: Markup) -> Markup {
    let extent = extent::<G>();
    let view = format!("0 0 {extent} {extent}");
    html! {
        svg xmlns=[standalone.then_some("http://www.w3.org/2000/svg")] viewBox=(view)
            class="board" role="img" aria-label="Hnefatafl board" { (content) }
    }
}

/// The empty board with the `special` squares marked and a piece of each kind, centred on the
/// origin, as `<defs>` for `<use>`. Each kind is named by a title here, once for all the
/// boards that show it.
pub fn shared<G: Geometry>(special: Bitboard<G>) -> Markup {
    let extent = extent::<G>();
    let inner = f64::from(G::SIDE) * CELL;
    let r = CELL * 0.38;
    let ring = r * 0.68;
    html! {
        defs {
            g id=(BOARD_ID) {
                rect width=(extent) height=(extent) rx="10" fill="#3b342c" {}
                rect x=(MARGIN) y=(MARGIN) width=(inner) height=(inner) fill="#efe3c8" {}
                (squares(special))
                (grid::<G>())
                (coordinates::<G>())
            }
            g id=(piece_id(Piece::Attacker)) fill=(ATTACKER_FILL) stroke="#0d0c0b" stroke-width="1.5" {
                title { "attacker" }
                circle r=(r) {}
                // An inner ring gives the flat discs some depth.
                circle r=(ring) fill="none" stroke="#5a554d" stroke-width="1.2" {}
            }
            g id=(piece_id(Piece::Defender)) fill=(DEFENDER_FILL) stroke="#4a443a" stroke-width="1.5" {
                title { "defender" }
                circle r=(r) {}
                circle r=(ring) fill="none" stroke="#d8cfbd" stroke-width="1.2" {}
            }
            g id=(piece_id(Piece::King)) fill=(DEFENDER_FILL) stroke="#a8841c" stroke-width="3" {
                title { "king" }
                circle r=(r) {}
                circle r=(ring) fill="none" stroke="#d8cfbd" stroke-width="1.2" {}
                path d="M-8 5v-9l4 5 4-8 4 8 4-5v9z" fill="#c9a227" stroke="#8a6d14"
                    stroke-width="1" stroke-linejoin="round" {}
            }
        }
    }
}

/// The empty board with the pieces of `board` and `marks` on it.
fn markings<G: Geometry>(board: &Board<G>, marks: &Marks<G>) -> Markup {
    let captured = marks.last.map_or(Bitboard::EMPTY, |m| m.captures);
    html! {
        use href=(format!("#{BOARD_ID}")) {}
        @if let Some(last) = marks.last {
            (highlight(last.mv))
        }
        @for sq in captured {
            (crossed(sq))
        }
        (pieces(board))
        @if let Some(last) = marks.last {
            (arrow(last.mv, LAST_MOVE, "last-move", false))
        }
        @if let Some(better) = marks.better {
            (arrow(better, BETTER_MOVE, "better-move", true))
        }
    }
}

/// The special squares, shaded and crossed.
fn squares<G: Geometry>(special: Bitboard<G>) -> Markup {
    html! {
        @for sq in special {
            @let (cx, cy) = centre(sq);
            @let (x, y) = (cx - CELL / 2.0, cy - CELL / 2.0);
            g class="restricted" data-square=(sq) {
                rect x=(x) y=(y) width=(CELL) height=(CELL) fill="#d5bf92" {}
                path d=(format!("M{x} {y}l{CELL} {CELL}m0 -{CELL}l-{CELL} {CELL}"))
                    stroke="#b59a66" stroke-width="1.5" {}
            }
        }
    }
}

fn grid<G: Geometry>() -> Markup {
    let inner = f64::from(G::SIDE) * CELL;
    let mut d = String::new();
    for i in 1..G::SIDE {
        let at = MARGIN + f64::from(i) * CELL;
        d.push_str(&format!("M{MARGIN} {at}h{inner}M{at} {MARGIN}v{inner}"));
    }
    html! {
        path d=(d) stroke="#c4ad82" stroke-width="1" fill="none" {}
        rect x=(MARGIN) y=(MARGIN) width=(inner) height=(inner) fill="none"
            stroke="#8a7350" stroke-width="2" {}
    }
}

fn coordinates<G: Geometry>() -> Markup {
    let extent = extent::<G>();
    html! {
        g fill="#d9ccb0" font-family="system-ui, sans-serif" font-size="12" text-anchor="middle" {
            @for file in 0..G::SIDE {
                @let x = MARGIN + (f64::from(file) + 0.5) * CELL;
                text x=(x) y=(extent - 8.0) { ((b'a' + file) as char) }
            }
            @for rank in 0..G::SIDE {
                @let y = MARGIN + (f64::from(G::SIDE - 1 - rank) + 0.5) * CELL + 4.0;
                text x=(MARGIN / 2.0) y=(y) { (rank + 1) }
            }
        }
    }
}

/// The squares `mv` left and reached, shaded.
fn highlight<G: Geometry>(mv: Move<G>) -> Markup {
    let d: String = [mv.from(), mv.to()]
        .into_iter()
        .map(|sq| {
            let (cx, cy) = centre(sq);
            format!(
                "M{} {}h{CELL}v{CELL}h-{CELL}z",
                cx - CELL / 2.0,
                cy - CELL / 2.0
            )
        })
        .collect();
    html! {
        path d=(d) fill=(LAST_MOVE) fill-opacity="0.18" {}
    }
}

fn crossed<G: Geometry>(sq: Square<G>) -> Markup {
    let (cx, cy) = centre(sq);
    let r = CELL * 0.28;
    html! {
        g class="captured" data-square=(sq) {
            title { "captured on " (sq) }
            rect x=(cx - CELL / 2.0) y=(cy - CELL / 2.0) width=(CELL) height=(CELL)
                fill=(CAPTURE) fill-opacity="0.16" {}
            path d=(format!("M{} {}l{} {}m0 {}l{} {}", cx - r, cy - r, 2.0 * r, 2.0 * r,
                -2.0 * r, -2.0 * r, 2.0 * r))
                stroke=(CAPTURE) stroke-width="4" stroke-linecap="round" {}
        }
    }
}

/// The pieces, each a `<use>` of its kind's shared drawing. Written by hand to close each
/// element in the tag itself, the shortest form both XML and HTML read: a fixed id and two
/// numbers, nothing to escape.
fn pieces<G: Geometry>(board: &Board<G>) -> Markup {
    let kinds = [
        (Piece::Attacker, board.attackers()),
        (Piece::Defender, board.defenders()),
        (Piece::King, Bitboard::from_square(board.king())),
    ];
    let mut out = String::new();
    for (piece, squares) in kinds {
        for sq in squares {
            let (x, y) = centre(sq);
            out.push_str(&format!(
                r##"<use href="#{}" x="{x}" y="{y}"/>"##,
                piece_id(piece)
            ));
        }
    }
    PreEscaped(out)
}

/// An arrow from the centre of `mv`'s square to just short of the centre of its target.
fn arrow<G: Geometry>(mv: Move<G>, colour: &str, class: &str, dashed: bool) -> Markup {
    let (x1, y1) = centre(mv.from());
    let (x2, y2) = centre(mv.to());
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let head = 15.0;
    let tip = (x2 - ux * 4.0, y2 - uy * 4.0);
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    let wing = head * 0.6;
    let head_points = format!(
        "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
        tip.0,
        tip.1,
        base.0 - uy * wing,
        base.1 + ux * wing,
        base.0 + uy * wing,
        base.1 - ux * wing
    );
    html! {
        g class=(class) data-from=(mv.from()) data-to=(mv.to()) opacity="0.85" {
            line x1=(x1) y1=(y1) x2=(format!("{:.1}", base.0)) y2=(format!("{:.1}", base.1))
                stroke=(colour) stroke-width="6" stroke-linecap="round"
                stroke-dasharray=[dashed.then_some("10 7")] {}
            polygon points=(head_points) fill=(colour) {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_fen, parse_record_move};
    use crate::board::variant::NamedRules;
    use crate::board::{Preset, Seven, Thirteen};
    use crate::search::size::Standard;
    use crate::search::size::{Size, SizedTask, run_sized};

    type Square = crate::board::Square<Standard>;

    /// The square under an SVG point, worked out from the drawing's geometry alone.
    fn square_under<G: Geometry>(x: f64, y: f64) -> crate::board::Square<G> {
        let file = ((x - MARGIN) / CELL).floor() as u8;
        let row = ((y - MARGIN) / CELL).floor() as u8;
        crate::board::Square::from_coords(file, G::SIDE - 1 - row).expect("on the board")
    }

    fn copenhagen() -> Bitboard<Standard> {
        special_squares(&Rules::default())
    }

    /// Every piece of `board` drawn on its square, and the special squares marked, read back
    /// from the drawing.
    fn pieces_and_specials<G: Geometry>(board: &Board<G>, special: Bitboard<G>) -> Vec<String> {
        let svg = render(board, &Marks::default(), special).into_string();
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let mut seen = Vec::new();
        for node in doc.descendants().filter(|n| n.has_tag_name("use")) {
            let href = node.attribute("href").unwrap();
            if href == format!("#{BOARD_ID}") {
                continue;
            }
            let at = |a| node.attribute(a).unwrap().parse::<f64>().unwrap();
            seen.push(square_under::<G>(at("x"), at("y")));
        }
        seen.sort();
        let mut expected: Vec<_> = (board.attackers() | board.defenders())
            .with(board.king())
            .into_iter()
            .collect();
        expected.sort();
        assert_eq!(seen, expected);
        let extent = extent::<G>().to_string();
        assert_eq!(
            doc.root_element().attribute("viewBox"),
            Some(format!("0 0 {extent} {extent}").as_str())
        );
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("restricted"))
            .map(|n| n.attribute("data-square").unwrap().to_string())
            .collect()
    }

    #[test]
    fn boards_of_every_size_are_drawn_with_their_rules_squares() {
        let brandubh = NamedRules::preset(Preset::Brandubh);
        let board = brandubh.start_board::<Seven>().unwrap();
        let special = special_squares(&brandubh.rules);
        assert_eq!(
            pieces_and_specials(&board, special),
            ["a1", "g1", "d4", "a7", "g7"]
        );
        let thirteen = NamedRules::preset(Preset::Copenhagen13);
        let board = thirteen.start_board::<Thirteen>().unwrap();
        assert_eq!(
            pieces_and_specials(&board, special_squares(&thirteen.rules)),
            ["a1", "m1", "g7", "a13", "m13"]
        );
        let svg = render(&board, &Marks::default(), Bitboard::EMPTY).into_string();
        assert!(svg.contains(">m</text>") && svg.contains(">13</text>"));
        // Sea battle has no special squares.
        let sea = NamedRules::preset(Preset::SeaBattle);
        struct Specials<'a>(&'a NamedRules);
        impl SizedTask for Specials<'_> {
            type Output = usize;
            fn run<G: Size>(self) -> usize {
                let board = self.0.start_board::<G>().unwrap();
                pieces_and_specials(&board, special_squares(&self.0.rules)).len()
            }
        }
        assert_eq!(run_sized(sea.rules.width, Specials(&sea)), Ok(0));
    }

    #[test]
    fn pieces_stand_on_their_squares_parsed_back() {
        let fen = "3aa1a4/4k6/11/a4d4a/a3ddd3a/aa1dd1dd1aa/a3dd4a/a4d4a/11/5a5/3aaaaa3 a";
        let board = parse_fen(fen).unwrap();
        let marks = Marks {
            last: Some(parse_record_move("e6-e10").unwrap()),
            better: Some(Move::new(
                Square::parse("d1").unwrap(),
                Square::parse("d3").unwrap(),
            )),
        };
        let svg = render(&board, &marks, copenhagen()).into_string();
        let doc = roxmltree::Document::parse(&svg).expect("the diagram is well-formed XML");
        let mut seen = Vec::new();
        for node in doc.descendants().filter(|n| n.has_tag_name("use")) {
            let href = node.attribute("href").unwrap();
            if href == format!("#{BOARD_ID}") {
                continue;
            }
            let at = |a| node.attribute(a).unwrap().parse::<f64>().unwrap();
            let sq = square_under::<Standard>(at("x"), at("y"));
            let piece = match href {
                "#a" => Piece::Attacker,
                "#d" => Piece::Defender,
                "#k" => Piece::King,
                other => panic!("unexpected use of {other}"),
            };
            seen.push((sq, piece));
        }
        let expected: Vec<(Square, Piece)> = Square::all()
            .filter_map(|sq| board.piece_at(sq).map(|p| (sq, p)))
            .collect();
        seen.sort_by_key(|(sq, _)| *sq);
        assert_eq!(seen, expected);
        assert_eq!(
            board.piece_at(Square::parse("e10").unwrap()),
            Some(Piece::King)
        );
        let arrow = |class: &str| {
            let g = doc
                .descendants()
                .find(|n| n.attribute("class") == Some(class))
                .unwrap();
            (
                g.attribute("data-from").unwrap(),
                g.attribute("data-to").unwrap(),
            )
        };
        assert_eq!(arrow("last-move"), ("e6", "e10"));
        assert_eq!(arrow("better-move"), ("d1", "d3"));
        let restricted: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("restricted"))
            .map(|n| n.attribute("data-square").unwrap().to_string())
            .collect();
        assert_eq!(restricted, ["a1", "k1", "f6", "a11", "k11"]);
    }

    /// Every `<use>` of `doc` with the element it draws, which must be in `defs`.
    fn used<'a>(
        doc: &'a roxmltree::Document<'a>,
        defs: &'a roxmltree::Document<'a>,
    ) -> Vec<&'a str> {
        doc.descendants()
            .filter(|n| n.has_tag_name("use"))
            .map(|n| {
                let id = n.attribute("href").unwrap().strip_prefix('#').unwrap();
                assert!(
                    defs.descendants().any(|d| d.attribute("id") == Some(id)),
                    "#{id} is drawn nowhere"
                );
                id
            })
            .collect()
    }

    #[test]
    fn a_standalone_diagram_holds_what_it_uses_and_an_inline_one_only_refers_to_it() {
        let board = Board::start();
        let standalone = render(&board, &Marks::default(), copenhagen()).into_string();
        let doc = roxmltree::Document::parse(&standalone).unwrap();
        assert_eq!(used(&doc, &doc).len(), 1 + 24 + 12 + 1);
        let inline = render_in_document(&board, &Marks::default(), None).into_string();
        assert!(!inline.contains("<defs>") && !inline.contains("<title>"));
        let shared = format!("<svg>{}</svg>", shared(copenhagen()).into_string());
        let defs = roxmltree::Document::parse(&shared).unwrap();
        let inline_doc = roxmltree::Document::parse(&inline).unwrap();
        assert_eq!(used(&inline_doc, &defs), used(&doc, &doc));
        // Each kind of piece is named once, for people who cannot see the drawing.
        let names = [
            (Piece::Attacker, "attacker"),
            (Piece::Defender, "defender"),
            (Piece::King, "king"),
        ];
        for (piece, name) in names {
            let titled = defs
                .descendants()
                .find(|n| n.attribute("id") == Some(piece_id(piece)))
                .and_then(|g| g.children().find(|c| c.has_tag_name("title")))
                .and_then(|t| t.text());
            assert_eq!(titled, Some(name));
        }
        assert_eq!(shared.matches("<title>").count(), 3);
    }
}
