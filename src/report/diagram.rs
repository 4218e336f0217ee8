//! A board diagram as SVG: the squares with the restricted ones marked, the pieces, the last
//! move as an arrow with what it captured crossed out, and a better move as a second arrow.
//! Written with `maud` so that every text is escaped and every element closed: the same markup
//! is a standalone `.svg` file (XML) and an inline drawing in the report's HTML.

use crate::board::notation::RecordMove;
use crate::board::square::SIZE;
use crate::board::{Bitboard, Board, Move, Square};
use maud::{Markup, html};

/// Side of a square, in SVG units.
pub const CELL: f64 = 40.0;
/// Room for the coordinates around the board.
pub const MARGIN: f64 = 24.0;
/// Width and height of the drawing.
pub const EXTENT: f64 = 2.0 * MARGIN + SIZE as f64 * CELL;

const ATTACKER_FILL: &str = "#2b2926";
const DEFENDER_FILL: &str = "#fbf7ee";
const LAST_MOVE: &str = "#2f6fd1";
const BETTER_MOVE: &str = "#1e9e57";
const CAPTURE: &str = "#d7263d";

/// What to draw over the pieces.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks {
    /// The move that led here and what it captured.
    pub last: Option<RecordMove>,
    /// A move the engine prefers to the last one, from the position before it.
    pub better: Option<Move>,
}

/// The centre of `sq`: files left to right, rank 11 at the top.
pub fn centre(sq: Square) -> (f64, f64) {
    (
        MARGIN + (f64::from(sq.file()) + 0.5) * CELL,
        MARGIN + (f64::from(SIZE - 1 - sq.rank()) + 0.5) * CELL,
    )
}

/// `board` with `marks`, as an `<svg>` element that stands on its own.
pub fn render(board: &Board, marks: &Marks) -> Markup {
    let captured = marks.last.map_or(Bitboard::EMPTY, |m| m.captures);
    let view = format!("0 0 {EXTENT} {EXTENT}");
    let inner = SIZE as f64 * CELL;
    html! {
        svg xmlns="http://www.w3.org/2000/svg" viewBox=(view) class="board"
            role="img" aria-label="Hnefatafl board" font-family="system-ui, sans-serif" {
            rect width=(EXTENT) height=(EXTENT) rx="10" fill="#3b342c" {}
            rect x=(MARGIN) y=(MARGIN) width=(inner) height=(inner) fill="#efe3c8" {}
            (squares())
            (grid())
            (coordinates())
            @if let Some(last) = marks.last {
                (highlight(last.mv.from()))
                (highlight(last.mv.to()))
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
}

/// The five restricted squares, shaded and crossed.
fn squares() -> Markup {
    html! {
        @for sq in Square::all().filter(|s| s.is_restricted()) {
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

fn grid() -> Markup {
    let inner = SIZE as f64 * CELL;
    let mut d = String::new();
    for i in 1..SIZE {
        let at = MARGIN + f64::from(i) * CELL;
        d.push_str(&format!("M{MARGIN} {at}h{inner}M{at} {MARGIN}v{inner}"));
    }
    html! {
        path d=(d) stroke="#c4ad82" stroke-width="1" fill="none" {}
        rect x=(MARGIN) y=(MARGIN) width=(inner) height=(inner) fill="none"
            stroke="#8a7350" stroke-width="2" {}
    }
}

fn coordinates() -> Markup {
    html! {
        g fill="#d9ccb0" font-size="12" text-anchor="middle" {
            @for file in 0..SIZE {
                @let x = MARGIN + (f64::from(file) + 0.5) * CELL;
                text x=(x) y=(EXTENT - 8.0) { ((b'a' + file) as char) }
            }
            @for rank in 0..SIZE {
                @let y = MARGIN + (f64::from(SIZE - 1 - rank) + 0.5) * CELL + 4.0;
                text x=(MARGIN / 2.0) y=(y) { (rank + 1) }
            }
        }
    }
}

fn highlight(sq: Square) -> Markup {
    let (cx, cy) = centre(sq);
    html! {
        rect x=(cx - CELL / 2.0) y=(cy - CELL / 2.0) width=(CELL) height=(CELL)
            fill=(LAST_MOVE) fill-opacity="0.18" {}
    }
}

fn crossed(sq: Square) -> Markup {
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

/// The pieces, grouped by kind so that the colours are written once a group.
fn pieces(board: &Board) -> Markup {
    let r = CELL * 0.38;
    let on = |bits: Bitboard| bits.into_iter().map(centre_of).collect::<Vec<_>>();
    let attackers = on(board.attackers());
    let defenders = on(board.defenders());
    let king = centre_of(board.king());
    html! {
        g fill=(ATTACKER_FILL) stroke="#0d0c0b" stroke-width="1.5" {
            @for (sq, x, y) in &attackers {
                circle class="piece attacker" cx=(x) cy=(y) r=(r) { title { "attacker on " (sq) } }
            }
        }
        g fill=(DEFENDER_FILL) stroke="#4a443a" stroke-width="1.5" {
            @for (sq, x, y) in &defenders {
                circle class="piece defender" cx=(x) cy=(y) r=(r) { title { "defender on " (sq) } }
            }
            circle class="piece king" cx=(king.1) cy=(king.2) r=(r) stroke="#a8841c" stroke-width="3" {
                title { "king on " (king.0) }
            }
        }
        // An inner ring gives the flat discs some depth.
        g fill="none" stroke-width="1.2" {
            g stroke="#5a554d" {
                @for (_, x, y) in &attackers { circle cx=(x) cy=(y) r=(r * 0.68) {} }
            }
            g stroke="#d8cfbd" {
                @for (_, x, y) in defenders.iter().chain([&king]) { circle cx=(x) cy=(y) r=(r * 0.68) {} }
            }
        }
        path d=(format!("M{} {}v-9l4 5 4-8 4 8 4-5v9z", king.1 - 8.0, king.2 + 5.0))
            fill="#c9a227" stroke="#8a6d14" stroke-width="1" stroke-linejoin="round" {}
    }
}

fn centre_of(sq: Square) -> (Square, f64, f64) {
    let (x, y) = centre(sq);
    (sq, x, y)
}

/// An arrow from the centre of `mv`'s square to just short of the centre of its target.
fn arrow(mv: Move, colour: &str, class: &str, dashed: bool) -> Markup {
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
    use crate::board::Piece;
    use crate::board::notation::{parse_fen, parse_record_move};

    /// The square under an SVG point, worked out from the drawing's geometry alone.
    fn square_under(x: f64, y: f64) -> Square {
        let file = ((x - MARGIN) / CELL).floor() as u8;
        let row = ((y - MARGIN) / CELL).floor() as u8;
        Square::from_coords(file, SIZE - 1 - row).expect("on the board")
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
        let svg = render(&board, &marks).into_string();
        let doc = roxmltree::Document::parse(&svg).expect("the diagram is well-formed XML");
        let mut seen = Vec::new();
        for node in doc.descendants().filter(|n| n.has_tag_name("circle")) {
            let Some(class) = node.attribute("class") else {
                continue;
            };
            let at = |a| node.attribute(a).unwrap().parse::<f64>().unwrap();
            let sq = square_under(at("cx"), at("cy"));
            let piece = match class {
                "piece attacker" => Piece::Attacker,
                "piece defender" => Piece::Defender,
                "piece king" => Piece::King,
                other => panic!("unexpected class {other}"),
            };
            let title = node.first_element_child().and_then(|t| t.text()).unwrap();
            assert_eq!(
                title,
                format!("{} on {sq}", class.trim_start_matches("piece "))
            );
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
}
