//! What the page and the server say to each other, as typed values: the page's requests, the
//! view of a game the server answers with, and the events it streams. Moves and squares are
//! in the project's notation (`d1-d3`, `e2`), the same on every board size.

use serde::{Deserialize, Serialize};

/// Which side the engine plays, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineSide {
    Attackers,
    Defenders,
    /// Nobody: the person moves both sides (analysis).
    None,
}

/// A new game: the rules (a preset's name), who the engine plays and how.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub rules: String,
    pub engine: EngineSide,
    /// Strength level, 0 to 20 (full strength).
    pub level: u64,
    /// The engine's time a move in milliseconds.
    pub movetime: u64,
}

/// One request of the page about its game.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "do", rename_all = "lowercase", deny_unknown_fields)]
pub enum Request {
    /// Start a game.
    New(NewGame),
    /// Play these moves one after the other from the position shown, dropping the moves that
    /// followed it.
    Play { moves: Vec<String> },
    /// Show the position after `ply` moves.
    Goto { ply: usize },
    /// Take back the last move, and the engine's reply before it where the engine plays.
    Takeback,
    /// Start (with up to three lines) or stop the analysis.
    Analyse { on: bool, lines: usize },
    /// A FEN, a record or an OpenTafl `.otg` game as text (pasted or from a file).
    Load { text: String },
    /// Let the engine move now in the position shown, whoever's turn it is.
    Engine,
    /// Only the view: nothing changes.
    Show,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// `attackers`, `defenders`, or `None` for a draw.
    pub winner: Option<&'static str>,
    /// The rules' reason, in words.
    pub reason: &'static str,
    /// `Defenders won: the king escaped to a corner.`
    pub text: String,
}

/// A move of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedMove {
    /// 1 for the first move.
    pub ply: usize,
    /// `g3-e3xe2`.
    pub text: String,
    /// `attackers` or `defenders`.
    pub side: &'static str,
    /// The number of the full move it belongs to.
    pub number: usize,
}

/// A legal move in the position shown, with what it would capture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Legal {
    pub from: String,
    pub to: String,
    pub captures: Vec<String>,
}

/// Everything the page draws of its game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// Counts the changes of the position searched: info of another generation is stale.
    pub generation: u64,
    /// Counts the views the session made: of two views, the page keeps the later. An answer
    /// to a request may reach the page after the event that followed it (a search that ended
    /// at once), with the same generation.
    pub serial: u64,
    pub side: u8,
    pub rules: String,
    /// The board shown, with the last move and its captures, as SVG markup.
    pub svg: String,
    pub cell: f64,
    pub margin: f64,
    /// Squares named as they are drawn: `a1` at the bottom left.
    pub squares: Vec<String>,
    pub to_move: &'static str,
    pub engine: EngineSide,
    pub level: u8,
    pub movetime: u64,
    /// The engine is searching for its move.
    pub thinking: bool,
    /// The analysis is on: it runs whenever the engine is not to move.
    pub analysis: bool,
    /// The analysis is searching now.
    pub analysing: bool,
    pub lines: usize,
    /// Moves shown so far (the position shown is after `ply` moves).
    pub ply: usize,
    pub moves: Vec<PlayedMove>,
    /// The moves the person may play here: none while the engine thinks or once it is over.
    pub legal: Vec<Legal>,
    pub ending: Option<Ending>,
    pub fen: String,
    /// What happened that the page should say (a game loaded, a move refused).
    pub note: Option<String>,
}

/// One line of the analysis, as it deepens.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    pub generation: u64,
    /// 1 for the best line.
    pub rank: usize,
    pub depth: u32,
    pub nodes: u64,
    pub nps: u64,
    /// The attackers' chance of winning, 0 to 1, as the report draws it.
    pub chance: f64,
    /// `+1.20` from the attackers' view, or `win in 3` / `loss in 4` for the attackers.
    pub score: String,
    pub moves: Vec<String>,
}

/// An event streamed to the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Event {
    /// The game changed on the server's side (the engine moved, a search ended). Boxed, as a
    /// view is large beside a line, and the event queue holds either.
    State(Box<View>),
    Info(Line),
}

impl Event {
    pub fn name(&self) -> &'static str {
        match self {
            Event::State(_) => "state",
            Event::Info(_) => "info",
        }
    }
}

/// The exports of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Export {
    /// The record line, `d1-d3 e5-e2 ...`.
    Record,
    Otg,
    /// The annotated report, `hnefi annotate` on the game.
    Report,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Request, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn requests_read_from_json() {
        assert_eq!(
            parse(r#"{"do":"play","moves":["d1-d3"]}"#).unwrap(),
            Request::Play {
                moves: vec!["d1-d3".into()]
            }
        );
        assert_eq!(
            parse(
                r#"{"do":"new","rules":"brandubh","engine":"defenders","level":3,"movetime":100}"#
            )
            .unwrap(),
            Request::New(NewGame {
                rules: "brandubh".into(),
                engine: EngineSide::Defenders,
                level: 3,
                movetime: 100
            })
        );
        assert_eq!(parse(r#"{"do":"takeback"}"#).unwrap(), Request::Takeback);
        assert_eq!(parse(r#"{"do":"show"}"#).unwrap(), Request::Show);
        assert_eq!(
            parse(r#"{"do":"goto","ply":4}"#).unwrap(),
            Request::Goto { ply: 4 }
        );
    }

    #[test]
    fn malformed_requests_say_what_is_wrong() {
        let unknown = parse(r#"{"do":"fly"}"#).unwrap_err().to_string();
        assert!(unknown.contains("unknown variant `fly`"), "{unknown}");
        let missing = parse(r#"{"do":"play"}"#).unwrap_err().to_string();
        assert!(missing.contains("missing field `moves`"), "{missing}");
        let extra = parse(r#"{"do":"goto","ply":1,"x":1}"#)
            .unwrap_err()
            .to_string();
        assert!(extra.contains("unknown field `x`"), "{extra}");
        assert!(parse(r#"{"do":"goto","ply":-1}"#).is_err());
        assert!(parse("not json").is_err());
    }
}
