//! The positions a search thread stands on: the game since its last capture, then the moves of
//! the search down to the node, in the form the rules that look back read them.

use crate::board::zobrist::Key;
use crate::board::{Board, Position};
use crate::board::{Geometry, History};
use crate::search::params::MAX_PLY;

pub(super) struct Path {
    /// Keys of the game since its last capture, then of the search path; the last is the
    /// node's own.
    keys: Vec<Key>,
    /// The defenders' arrangement keys of the same positions, kept only under the draw-fort
    /// rule, the one rule that reads them.
    arrangements: Vec<Key>,
    draw_fort: bool,
    root_plies: usize,
}

impl Path {
    pub(super) fn new<G: Geometry>(pos: &Position<G>) -> Path {
        let history = pos.history();
        let mut keys = Vec::with_capacity(history.quiet_plies() + MAX_PLY + 8);
        keys.extend_from_slice(history.keys());
        keys.push(pos.key());
        let draw_fort = pos.rules().draw_fort_loses;
        let mut arrangements = Vec::new();
        if draw_fort {
            arrangements.reserve(keys.capacity());
            arrangements.extend_from_slice(history.arrangements());
            arrangements.push(pos.board().arrangement_key());
        }
        Path {
            keys,
            arrangements,
            draw_fort,
            root_plies: pos.plies(),
        }
    }

    /// Plies since the last capture at the root.
    pub(super) fn quiet_at_root(&self) -> u16 {
        (self.keys.len() - 1) as u16
    }

    /// Onto the path: the node `b`, which the caller searches next.
    #[inline]
    pub(super) fn enter<G: Geometry>(&mut self, b: &Board<G>) {
        self.keys.push(b.key());
        if self.draw_fort {
            self.arrangements.push(b.arrangement_key());
        }
    }

    #[inline]
    pub(super) fn leave(&mut self) {
        self.keys.pop();
        if self.draw_fort {
            self.arrangements.pop();
        }
    }

    /// What came before the node, `ply` plies from the root and `quiet` plies after the last
    /// capture.
    #[inline]
    pub(super) fn past(&self, ply: u32, quiet: u16) -> History<'_> {
        let now = self.keys.len() - 1;
        let from = now - quiet as usize;
        let arrangements = if self.draw_fort {
            &self.arrangements[from..now]
        } else {
            &[]
        };
        History::new(
            &self.keys[from..now],
            arrangements,
            self.root_plies + ply as usize,
        )
    }
}
