//! Annotated game reports for people: a game analysed move by move on the engine API, drawn as
//! SVG boards and an evaluation graph, and written as one self-contained HTML page
//! (`hnefi annotate`), or a single position as an SVG diagram (`hnefi board`).

pub mod analysis;
pub mod classify;
pub mod diagram;
pub mod game;
pub mod graph;
pub mod otg;
pub mod page;
pub mod scale;
