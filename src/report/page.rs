//! The report as one self-contained HTML page: header, evaluation graph, the moves with their
//! judgements, a diagram at every judged move and at the end, and a board for every ply.
//! Clicking a move shows its board: the inline script (`page.js`) does it in place, and with
//! scripts off the links are anchors and the stylesheet (`page.css`) shows the targeted board.
//! Nothing is fetched: styles, script and drawings are all inline, the board and the pieces
//! drawn once at the top and reused by every diagram.

use super::analysis::{Analysis, Step};
use super::classify::{BLUNDER, INACCURACY, Judgement, LEAD, MISTAKE};
use super::diagram::{self, Marks};
use super::game::RecordedGame;
use super::graph::{self, percent};
use crate::board::notation::record_move;
use crate::board::{Outcome, Side};
use crate::games::record::Verdict;
use crate::search::size::Size;
use maud::{DOCTYPE, Markup, PreEscaped, html};

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The page for `game` as `analysis` sees it.
pub fn render<G: Size>(game: &RecordedGame<G>, analysis: &Analysis<G>) -> String {
    let attackers = game.attackers.as_deref().unwrap_or("Attackers");
    let defenders = game.defenders.as_deref().unwrap_or("Defenders");
    let judged: Vec<(&Step<G>, Judgement)> = analysis
        .steps
        .iter()
        .filter_map(|s| Some((s, s.judgement?)))
        .collect();
    let last = analysis.points.len() - 1;
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (attackers) " vs " (defenders) " · Hnefi game report" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                // The drawings every board uses, once for the page.
                svg.shared aria-hidden="true" {
                    (diagram::shared(diagram::special_squares::<G>(&analysis.settings.rules)))
                }
                header.top {
                    p.brand { "Hnefi · annotated game" }
                    h1 {
                        span.player.attackers { span.disc {} (attackers) }
                        span.vs { "vs" }
                        span.player.defenders { span.disc {} (defenders) }
                    }
                    p.result { (result(game, analysis.outcome)) }
                    ul.meta {
                        li { b { "Rules" } " " (analysis.settings.rules_name) }
                        li { b { "Length" } " " (analysis.steps.len()) " plies" }
                        @for (key, value) in &game.details {
                            li { b { (capitalised(key)) } " " (value) }
                        }
                        li { b { "Analysis" } " " (about(analysis)) }
                    }
                    (tally(analysis, attackers, defenders))
                }
                main.layout {
                    aside.viewer aria-label="Board" {
                        div.boards {
                            @for ply in 0..=last {
                                (position(analysis, ply))
                            }
                        }
                        p.hint { "Click a move or a point of the graph; ← → step through the game." }
                    }
                    div.content {
                        section.card {
                            h2 { "Evaluation" }
                            p.sub { "The attackers' chance of winning after every ply, as the \
                                engine sees it. Coloured points are judged moves, diamonds below \
                                are captures in the colour of the pieces taken, and violet lines \
                                the turning points." }
                            (graph::render(analysis))
                        }
                        section.card {
                            h2 { "Moves" }
                            (moves(analysis))
                        }
                        section.card {
                            h2 { "Key moments" }
                            @if judged.is_empty() {
                                p.sub { "No move lost enough to be judged." }
                            }
                            @for (step, judgement) in &judged {
                                (note(analysis, step, *judgement))
                            }
                            article.note.final id="final" {
                                @if is_judged(analysis, last) {
                                    (diagram::again::<G>(&diagram_id(last)))
                                } @else {
                                    (diagram::render_in_document(&analysis.points[last].board,
                                        &marks(analysis, last), Some(&diagram_id(last))))
                                }
                                div.text {
                                    h3 { "Final position" }
                                    p { (result(game, analysis.outcome)) }
                                    p.chance { "Attackers' chance " (percent(analysis.points[last].chance)) }
                                    p { a href=(format!("#ply-{last}")) { "Show on the board" } }
                                }
                            }
                        }
                        footer.footnote {
                            p {
                                "A move is judged by the chance of winning its side lost with it: "
                                "an inaccuracy at least " (points(INACCURACY)) " percentage \
                                points, a mistake " (points(MISTAKE)) ", a blunder "
                                (points(BLUNDER)) ". The chance is the engine's score on the logistic curve its \
                                evaluation was fitted with on real games; a forced win is 100%. \
                                Only moves other than the engine's own choice are judged. A \
                                turning point is a move that passes the lead from one side to \
                                the other, a side leading once its chance is "
                                (points(LEAD)) " points above even."
                            }
                        }
                    }
                }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    }
    .into_string()
}

/// The board after `ply` moves with its last move, captures and, for a judged move, the
/// engine's better move.
fn marks<G: Size>(analysis: &Analysis<G>, ply: usize) -> Marks<G> {
    let Some(step) = ply.checked_sub(1).map(|i| &analysis.steps[i]) else {
        return Marks::default();
    };
    Marks {
        last: Some(step.played),
        better: analysis.better(step).map(|line| line[0].mv),
    }
}

/// Whether the move that led to `ply` is judged, and so has a note with its diagram.
fn is_judged<G: Size>(analysis: &Analysis<G>, ply: usize) -> bool {
    ply.checked_sub(1)
        .is_some_and(|i| analysis.steps[i].judgement.is_some())
}

/// The id of the diagram of `ply` among the key moments, which the viewer shows again rather
/// than draw the same board twice.
fn diagram_id(ply: usize) -> String {
    format!("diagram-{ply}")
}

/// One board of the viewer, with its caption and the links to its neighbours.
fn position<G: Size>(analysis: &Analysis<G>, ply: usize) -> Markup {
    let last = analysis.points.len() - 1;
    let step = ply.checked_sub(1).map(|i| &analysis.steps[i]);
    let point = &analysis.points[ply];
    html! {
        figure.position.final[ply == last] id=(format!("ply-{ply}")) data-ply=(ply) {
            @if ply == last || is_judged(analysis, ply) {
                (diagram::again::<G>(&diagram_id(ply)))
            } @else {
                (diagram::render_in_document(&point.board, &marks(analysis, ply), None))
            }
            figcaption {
                div.caption-line {
                    @match step {
                        Some(step) => {
                            strong { (analysis.label(step)) }
                            @if let Some(j) = step.judgement {
                                " " span class=(format!("badge {}", j.name())) { (j.glyph()) " " (j.name()) }
                            }
                        }
                        None => strong { "Start" },
                    }
                    span.chance { "attackers " (percent(point.chance)) }
                }
                @if let Some(line) = step.and_then(|s| analysis.better(s)) {
                    div.better { "Better: " (line_text(line)) }
                }
                @if !point.line.is_empty() {
                    div.engine { "Engine: " (line_text(&point.line)) }
                }
                nav.steps {
                    a href="#ply-0" title="Start" { "«" }
                    a href=(format!("#ply-{}", ply.saturating_sub(1))) title="Previous ply" { "◀" }
                    span.ply-count { "ply " (ply) " / " (last) }
                    a href=(format!("#ply-{}", (ply + 1).min(last))) title="Next ply" { "▶" }
                    a href=(format!("#ply-{last}")) title="End" { "»" }
                }
            }
        }
    }
}

/// The moves in two columns, an attackers' and a defenders' move a row.
fn moves<G: Size>(analysis: &Analysis<G>) -> Markup {
    let mut rows: Vec<(usize, [Option<&Step<G>>; 2])> = Vec::new();
    for step in &analysis.steps {
        let number = analysis.move_number(step);
        if rows.last().is_none_or(|(n, _)| *n != number) {
            rows.push((number, [None, None]));
        }
        if let Some((_, row)) = rows.last_mut() {
            row[step.side.index()] = Some(step);
        }
    }
    html! {
        ol.moves {
            @for (number, row) in &rows {
                li {
                    span.number { (number) "." }
                    @for cell in row {
                        @match cell {
                            Some(step) => (move_link(step)),
                            None => span.move.empty { "…" },
                        }
                    }
                }
            }
        }
    }
}

fn move_link<G: Size>(step: &Step<G>) -> Markup {
    let class = match step.judgement {
        Some(j) => format!("move judged {}", j.name()),
        None => "move".to_string(),
    };
    html! {
        a class=(class) href=(format!("#ply-{}", step.ply)) data-ply=(step.ply) {
            (record_move(step.played.mv, step.played.captures))
            @if let Some(j) = step.judgement { span.glyph { (j.glyph()) } }
            @if step.turning { span.turn title="turning point" { "◆" } }
        }
    }
}

/// A judged move: its diagram, what it cost and what the engine would have played.
fn note<G: Size>(analysis: &Analysis<G>, step: &Step<G>, j: Judgement) -> Markup {
    let before = analysis.points[step.ply - 1].chance;
    let after = analysis.points[step.ply].chance;
    let side = step.side;
    let mover = |p: f64| super::scale::for_side(p, side);
    html! {
        article class=(format!("note {}", j.name())) id=(format!("note-{}", step.ply)) data-ply=(step.ply) {
            (diagram::render_in_document(&analysis.points[step.ply].board,
                &marks(analysis, step.ply), Some(&diagram_id(step.ply))))
            div.text {
                h3 {
                    (analysis.label(step)) " "
                    span class=(format!("badge {}", j.name())) { (j.glyph()) " " (j.name()) }
                }
                p.chance {
                    "The " (side) "' chance fell from " (percent(mover(before))) " to "
                    (percent(mover(after))) "."
                }
                @if let Some(line) = analysis.better(step) {
                    p.better {
                        "Better was " strong { (record_move(line[0].mv, line[0].captures)) }
                        @if line.len() > 1 { ", with the line " (line_text(line)) }
                        "."
                    }
                }
                @if step.turning { p.turn { "◆ A turning point: the lead changed hands." } }
                p.legend {
                    span.key.played {} "played " span.key.better {} "better"
                    " · " a href=(format!("#ply-{}", step.ply)) { "Show on the board" }
                }
            }
        }
    }
}

/// Judged moves counted by side and kind.
fn tally<G: Size>(analysis: &Analysis<G>, attackers: &str, defenders: &str) -> Markup {
    let kinds = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];
    let count = |side: Side, j: Judgement| {
        analysis
            .steps
            .iter()
            .filter(|s| s.side == side && s.judgement == Some(j))
            .count()
    };
    html! {
        table.tally {
            thead { tr { th {} @for j in kinds { th { span class=(format!("badge {}", j.name())) { (j.glyph()) } " " (j.plural()) } } } }
            tbody {
                @for (side, name) in [(Side::Attackers, attackers), (Side::Defenders, defenders)] {
                    tr { th { (name) } @for j in kinds { td { (count(side, j)) } } }
                }
            }
        }
    }
}

fn line_text<G: Size>(line: &[crate::board::RecordMove<G>]) -> String {
    line.iter()
        .map(|m| record_move(m.mv, m.captures))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the game ended: by the rules where they ended it, else as the record says.
fn result<G: Size>(game: &RecordedGame<G>, outcome: Option<Outcome>) -> String {
    let won = |side: Side| match side {
        Side::Attackers => "Attackers won",
        Side::Defenders => "Defenders won",
    };
    match (outcome, game.verdict) {
        (Some(o), _) => match o.winner {
            Some(side) => format!("{}: {}.", won(side), o.reason.describe()),
            None => format!("Draw: {}.", o.reason.describe()),
        },
        (None, Verdict::Win(side)) => match &game.termination {
            Some(how) => format!("{} ({how}).", won(side)),
            None => format!("{}, by the record.", won(side)),
        },
        (None, Verdict::Draw) => "Drawn, by the record.".to_string(),
        (None, Verdict::Ongoing) => "Unfinished.".to_string(),
    }
}

/// `Hnefi 0.1.0 at 100 ms a position (depth 9.2 on average)`, or `to depth 6`.
fn about<G: Size>(analysis: &Analysis<G>) -> String {
    let s = &analysis.settings;
    let effort = match (s.limits.depth, s.limits.movetime) {
        (Some(depth), _) => format!("to depth {depth}"),
        (None, Some(t)) => format!(
            "at {} ms a position (depth {} on average)",
            t.as_millis(),
            mean_depth(analysis)
        ),
        (None, None) => format!("depth {} on average", mean_depth(analysis)),
    };
    let threads = match s.threads {
        1 => String::new(),
        n => format!(" on {n} threads"),
    };
    format!("Hnefi {} {effort}{threads}", env!("CARGO_PKG_VERSION"))
}

fn mean_depth<G: Size>(analysis: &Analysis<G>) -> String {
    let searched: Vec<u32> = analysis
        .points
        .iter()
        .map(|p| p.depth)
        .filter(|&d| d > 0)
        .collect();
    let sum: u32 = searched.iter().sum();
    format!("{:.1}", f64::from(sum) / searched.len().max(1) as f64)
}

fn points(x: f64) -> String {
    format!("{:.0}", x * 100.0)
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
