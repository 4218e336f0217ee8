//! The page: its markup, written with maud like the report, with the report's style and its
//! own style and script inline. Nothing is fetched from elsewhere; the board itself comes
//! from the server with every view, drawn by the report's `diagram`.

use crate::board::Preset;
use maud::{DOCTYPE, PreEscaped, html};

const REPORT_STYLE: &str = include_str!("../report/page.css");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The engine's times a move offered, in milliseconds.
const MOVETIMES: [(u64, &str); 5] = [
    (100, "0.1 s"),
    (300, "0.3 s"),
    (1000, "1 s"),
    (3000, "3 s"),
    (10000, "10 s"),
];

/// The page, the same for every session.
pub fn render() -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Hnefi · board" }
                style { (PreEscaped(REPORT_STYLE)) (PreEscaped(STYLE)) }
            }
            body {
                header.bar {
                    p.brand { "Hnefi · board" }
                    p #status data-state="starting" { "Starting…" }
                    p #message role="status" {}
                }
                main.board-layout {
                    div.board-column {
                        div #evalbar.off data-state="off" title="The attackers' chance of winning, from the analysis's best line" {
                            div.fill {}
                            span.attackers { "Attackers" }
                            span.state { "analysis off" }
                            span.defenders { "Defenders" }
                        }
                        div #table {}
                        nav.steps {
                            button #first type="button" title="Start (Home)" { "«" }
                            button #previous type="button" title="Previous move (←)" { "◀" }
                            span #ply.ply-count {}
                            button #next type="button" title="Next move (→)" { "▶" }
                            button #last type="button" title="Last move (End)" { "»" }
                        }
                        nav.steps {
                            button #takeback type="button" { "Take back" }
                            button #flip type="button" { "Flip board" }
                            button #engine-move type="button" title="The engine plays this side from here" { "Engine, move" }
                        }
                    }
                    div.side-column {
                        section.card {
                            h2 { "Play" }
                            form #new-game {
                                label { "Rules " select #rules {
                                    @for preset in Preset::ALL {
                                        option value=(preset.name()) { (preset.name()) " (" (preset.width()) "×" (preset.width()) ")" }
                                    }
                                } }
                                label { "You play " select #you {
                                    option value="attackers" { "the attackers" }
                                    option value="defenders" { "the defenders" }
                                    option value="both" { "both sides" }
                                } }
                                label { "Hnefi's level " select #level {
                                    @for level in 0..=20 {
                                        option value=(level) selected[level == 6] {
                                            (level) @if level == 20 { " (full strength)" }
                                        }
                                    }
                                } }
                                label { "Time a move " select #movetime {
                                    @for (ms, text) in MOVETIMES {
                                        option value=(ms) selected[ms == 1000] { (text) }
                                    }
                                } }
                                button #new type="submit" { "New game" }
                            }
                        }
                        section.card {
                            h2 { "Analysis" }
                            div.analysis-controls {
                                button #analyse type="button" { "Start" }
                                label { "Lines " select #lines {
                                    option value="1" { "1" }
                                    option value="2" { "2" }
                                    option value="3" selected { "3" }
                                } }
                            }
                            div #lines-shown {}
                            p.sub { "Click a move of a line to play it." }
                        }
                        section.card {
                            h2 { "Moves" }
                            ol #moves.moves {}
                            p.sub { "Click a move, or use ← → Home End." }
                        }
                        section.card {
                            h2 { "Load and export" }
                            div.fen-row {
                                label for="fen" { "FEN" }
                                input #fen type="text" readonly spellcheck="false" title="The position shown";
                                button #copy-fen type="button" { "Copy" }
                            }
                            textarea #load-text rows="3" placeholder="A FEN, a record (1. d1-d3 e5-e2 …) or an OpenTafl .otg game" {}
                            div.load-controls {
                                input #load-file type="file" accept=".otg,.txt,.csv";
                                button #load type="button" { "Load" }
                            }
                            p.exports {
                                "Export: "
                                a #export-record href="#" download="game.txt" { "record" } " · "
                                a #export-otg href="#" download="game.otg" { ".otg" } " · "
                                a #export-report href="#" target="_blank" rel="noopener" { "annotated report" }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_offers_every_preset_and_fetches_nothing() {
        let page = render();
        for preset in Preset::ALL {
            assert!(page.contains(&format!("value=\"{}\"", preset.name())));
        }
        for fetch in ["src=", "<link", "url(", "@import", "http://", "https://"] {
            assert!(!page.contains(fetch), "the page fetches something: {fetch}");
        }
    }
}
