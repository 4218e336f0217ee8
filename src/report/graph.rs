//! The evaluation over the game as SVG: the attackers' chance of winning after every ply (up
//! is good for the attackers), the lead shaded by side, one point per ply that links to its
//! board, judged moves coloured, captures ticked along the bottom and turning points ruled.

use super::analysis::Analysis;
use super::classify::Judgement;
use crate::board::Side;
use crate::search::size::Size;
use maud::{Markup, html};

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 236.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 14.0;
/// Room below the plot for the capture ticks and the move numbers.
const BOTTOM: f64 = 42.0;

/// The colour of a judgement, shared with the page's move list.
pub fn colour(j: Judgement) -> &'static str {
    match j {
        Judgement::Inaccuracy => "#d9a400",
        Judgement::Mistake => "#e3731b",
        Judgement::Blunder => "#d7263d",
    }
}

pub fn render<G: Size>(analysis: &Analysis<G>) -> Markup {
    let plies = analysis.steps.len().max(1) as f64;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |ply: usize| LEFT + ply as f64 * plot_w / plies;
    let y = |chance: f64| TOP + (1.0 - chance.clamp(0.0, 1.0)) * plot_h;
    let mid = y(0.5);
    let curve: Vec<(f64, f64)> = analysis
        .points
        .iter()
        .enumerate()
        .map(|(ply, p)| (x(ply), y(p.chance)))
        .collect();
    // The curve with its crossings of the middle line, so that each side's shading meets the
    // line exactly where the lead changes.
    let mut crossed = Vec::with_capacity(curve.len() * 2);
    for pair in curve.windows(2) {
        let ((x1, y1), (x2, y2)) = (pair[0], pair[1]);
        crossed.push((x1, y1));
        if (y1 - mid) * (y2 - mid) < 0.0 {
            crossed.push((x1 + (x2 - x1) * (mid - y1) / (y2 - y1), mid));
        }
    }
    crossed.extend(curve.last());
    let area = |clamp: fn(f64, f64) -> f64| {
        let mut d = format!("M{:.1} {mid:.1}", LEFT);
        for &(px, py) in &crossed {
            d.push_str(&format!("L{px:.1} {:.1}", clamp(py, mid)));
        }
        d.push_str(&format!(
            "L{:.1} {mid:.1}Z",
            curve.last().map_or(LEFT, |c| c.0)
        ));
        d
    };
    let line: String = curve
        .iter()
        .enumerate()
        .map(|(i, (px, py))| format!("{}{px:.1} {py:.1}", if i == 0 { "M" } else { "L" }))
        .collect();
    let tick_y = TOP + plot_h + 9.0;
    let view = format!("0 0 {WIDTH} {HEIGHT}");
    html! {
        svg xmlns="http://www.w3.org/2000/svg" viewBox=(view) class="graph" role="img"
            aria-label="The attackers' chance of winning over the game"
            font-family="system-ui, sans-serif" font-size="11" {
            rect x=(LEFT) y=(TOP) width=(plot_w) height=(plot_h) fill="#fbf8f2"
                stroke="#d9cfbd" {}
            path class="lead attackers" d=(area(f64::min)) fill="#3b342c" fill-opacity="0.88" {}
            path class="lead defenders" d=(area(f64::max)) fill="#d7c59c" fill-opacity="0.9" {}
            @for level in [0.25, 0.75] {
                line x1=(LEFT) x2=(LEFT + plot_w) y1=(y(level)) y2=(y(level)) stroke="#8c7d63"
                    stroke-opacity="0.35" stroke-dasharray="2 4" {}
            }
            line x1=(LEFT) x2=(LEFT + plot_w) y1=(mid) y2=(mid) stroke="#8c7d63"
                stroke-width="1" {}
            g fill="#6f6453" text-anchor="end" {
                text x=(LEFT - 6.0) y=(y(1.0) + 4.0) { "100%" }
                text x=(LEFT - 6.0) y=(mid + 4.0) { "50%" }
                text x=(LEFT - 6.0) y=(y(0.0) + 4.0) { "0%" }
            }
            g fill="#8c7d63" font-size="10" letter-spacing="0.08em" {
                text x=(LEFT + 6.0) y=(TOP + 13.0) { "ATTACKERS AHEAD" }
                text x=(LEFT + 6.0) y=(TOP + plot_h - 6.0) { "DEFENDERS AHEAD" }
            }
            @for step in analysis.steps.iter().filter(|s| s.turning) {
                line class="turning" data-ply=(step.ply) x1=(x(step.ply)) x2=(x(step.ply))
                    y1=(TOP) y2=(TOP + plot_h) stroke="#7048c8" stroke-width="1.5"
                    stroke-dasharray="5 3" {
                    title { "turning point: " (analysis.label(step)) }
                }
            }
            path d=(line) fill="none" stroke="#a88a4f" stroke-width="2" stroke-linejoin="round" {}
            @for step in analysis.steps.iter().filter(|s| s.played.captures.any()) {
                @let n = step.played.captures.count();
                // The captured pieces' colour: attackers take defenders and the other way.
                @let (fill, stroke) = match step.side {
                    Side::Attackers => ("#fbf7ee", "#4a443a"),
                    Side::Defenders => ("#2b2926", "#0d0c0b"),
                };
                g class="capture" data-ply=(step.ply) {
                    title { (analysis.label(step)) ": " (n) " captured" }
                    path d=(format!("M{:.1} {:.1}l4.5 4.5-4.5 4.5-4.5-4.5z", x(step.ply), tick_y - 4.5))
                        fill=(fill) stroke=(stroke) {}
                }
            }
            g fill="#6f6453" text-anchor="middle" {
                @for step in analysis.steps.iter().filter(|s| is_tick(analysis, s.ply)) {
                    text x=(x(step.ply)) y=(HEIGHT - 8.0) { (analysis.move_number(step)) }
                }
            }
            @for step in &analysis.steps {
                @let (px, py) = curve[step.ply];
                @let chance = analysis.points[step.ply].chance;
                a href=(format!("#ply-{}", step.ply)) {
                    @match step.judgement {
                        Some(j) => {
                            circle class=(format!("ply judged {}", j.name())) data-ply=(step.ply)
                                cx=(format!("{px:.1}")) cy=(format!("{py:.1}")) r="5.5"
                                fill=(colour(j)) stroke="#fff" stroke-width="1.5" {
                                title { (analysis.label(step)) " " (j.glyph()) " (" (j.name())
                                    "), attackers " (percent(chance)) }
                            }
                        }
                        None => {
                            circle class="ply" data-ply=(step.ply) cx=(format!("{px:.1}"))
                                cy=(format!("{py:.1}")) r="3" fill="#5b4a2e" fill-opacity="0.75" {
                                title { (analysis.label(step)) ", attackers " (percent(chance)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Whether to number the move of `ply` under the graph: every fifth full move (every tenth in
/// a long game), at its first ply.
fn is_tick<G: Size>(analysis: &Analysis<G>, ply: usize) -> bool {
    let every = if analysis.steps.len() > 120 { 20 } else { 10 };
    ply % every == 1
}

/// `63%`.
pub fn percent(chance: f64) -> String {
    format!("{:.0}%", chance * 100.0)
}
