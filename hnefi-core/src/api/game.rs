//! [`Game`]: a game of any size under any rules, held without generics, for hosts (a GUI, a
//! server, a Python binding) that learn the board's size only when they read the rules.

use crate::board::generic::{Board, Move, MoveList, Position};
use crate::board::notation::to_fen;
use crate::board::variant::{NamedRules, RulesNameError};
use crate::board::{Geometry, Outcome, Rules, Side, SizeError, WidthError, side_of};
use crate::each_size;
use crate::search::size::{AnySize, PerSize, Size};

/// Why a game could not be made, or a move played or taken back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The rules are neither a preset's name nor an OpenTafl rules string.
    #[error(transparent)]
    Rules(#[from] RulesNameError),
    /// The position is for a board size Hnefi does not play, or its size cannot be told.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// The position is for another board size than the rules.
    #[error(transparent)]
    Width(#[from] WidthError),
    /// The position text cannot be read as a FEN or an OpenTafl position of its size.
    #[error("position '{text}': {reason}")]
    Position {
        /// The position as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The move cannot be read, or is not legal here; the game is unchanged.
    #[error("move '{text}': {reason}; `legal_moves()` lists the legal ones")]
    Move {
        /// The move as given.
        text: String,
        /// Why it was refused.
        reason: String,
    },
    /// The game is over: no move may be played.
    #[error("the game is over ({0:?}): no move may be played")]
    Over(Outcome),
    /// No move has been played since the start: there is none to take back.
    #[error("no move to undo")]
    NothingToUndo,
}

/// The positions of a game, one type a size: what a [`Game`] holds.
pub(crate) struct Positions;

impl PerSize for Positions {
    type Of<G: Size> = Position<G>;
}

/// The pieces of a position as three planes of `side * side` bytes, 1 where the piece stands
/// and 0 elsewhere, square `a1` first and then along the rank (index `rank * side + file`):
/// the form a network or an array library takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planes {
    /// The board's side.
    pub side: u8,
    /// Where the attackers stand.
    pub attackers: Vec<u8>,
    /// Where the defenders (the king's men) stand, the king not among them.
    pub defenders: Vec<u8>,
    /// Where the king stands: a single 1.
    pub king: Vec<u8>,
}

/// A game of any board size under any rules: its position, the moves played, and the
/// judgement of its end, with moves in text (`d1-d3`, or `d1d3`).
///
/// ```
/// use hnefi_core::Game;
///
/// let mut game = Game::new("brandubh", None)?;
/// assert_eq!(game.side(), 7);
/// let first = game.legal_moves()[0].clone();
/// game.play(&first)?;
/// assert_eq!(game.moves(), [first]);
/// game.undo()?;
/// assert!(game.moves().is_empty());
/// # Ok::<(), hnefi_core::GameError>(())
/// ```
pub struct Game {
    position: AnySize<Positions>,
}

impl Game {
    /// A game under `rules` (a preset's name such as `copenhagen` or `brandubh`, or an
    /// OpenTafl rules string), from `fen` (a FEN or an OpenTafl position of the rules' board
    /// size) or else from the rules' start.
    ///
    /// ```
    /// use hnefi_core::{Game, GameError};
    ///
    /// let tablut = Game::new("tablut", None)?;
    /// assert_eq!(tablut.side(), 9);
    /// // A 7x7 position under 11x11 rules is refused, not played.
    /// let seven = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d";
    /// assert!(matches!(Game::new("copenhagen", Some(seven)), Err(GameError::Width(_))));
    /// # Ok::<(), GameError>(())
    /// ```
    pub fn new(rules: &str, fen: Option<&str>) -> Result<Game, GameError> {
        let named: NamedRules = rules.parse()?;
        let side = match fen {
            Some(text) => side_of(text)?,
            None => named.rules.width,
        };
        crate::with_size!(side, start(&named, fen))?
    }

    /// The board's side: 7, 9, 11 or 13.
    pub fn side(&self) -> u8 {
        each_size!(&self.position, p => side(p))
    }

    /// The rules the game is played by.
    pub fn rules(&self) -> &Rules {
        each_size!(&self.position, p => p.rules())
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        each_size!(&self.position, p => p.side_to_move())
    }

    /// The legal moves, as `d1-d3`, in the engine's generation order; none once the game is
    /// over.
    pub fn legal_moves(&self) -> Vec<String> {
        each_size!(&self.position, p => legal(p).iter().map(|&m| text(m)).collect())
    }

    /// Plays `mv` (`d1-d3` or `d1d3`, captures not written), or refuses it with the game
    /// unchanged: a move that cannot be read, is not legal here, or comes after the end.
    pub fn play(&mut self, mv: &str) -> Result<(), GameError> {
        each_size!(&mut self.position, p => play(p, mv))
    }

    /// Takes back the last move played.
    pub fn undo(&mut self) -> Result<(), GameError> {
        each_size!(&mut self.position, p => p.undo().map(drop).ok_or(GameError::NothingToUndo))
    }

    /// The moves played since the start, as `d1-d3`.
    pub fn moves(&self) -> Vec<String> {
        each_size!(&self.position, p => p.moves().map(text).collect())
    }

    /// How the game ended (the winner, `None` for a draw, and why), or `None` while it goes
    /// on.
    ///
    /// ```
    /// use hnefi_core::{Game, Reason, Side};
    ///
    /// // The king one step from the corner a1, the defenders to move.
    /// let mut game = Game::new("copenhagen", Some("11/11/11/11/11/11/11/11/11/1k9/9aa d"))?;
    /// assert_eq!(game.outcome(), None);
    /// game.play("b2-a2")?;
    /// game.play("k1-k2")?;
    /// game.play("a2-a1")?;
    /// let end = game.outcome().expect("the king reached a corner");
    /// assert_eq!((end.winner, end.reason), (Some(Side::Defenders), Reason::KingEscaped));
    /// # Ok::<(), hnefi_core::GameError>(())
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        each_size!(&self.position, p => p.outcome())
    }

    /// The position as a FEN: ranks from the last to the first, `a` attacker, `d` defender,
    /// `k` king, digits for empty squares, then the side to move.
    pub fn fen(&self) -> String {
        each_size!(&self.position, p => to_fen(p.board()))
    }

    /// The leaves of the legal move tree `depth` plies deep from this position, judged by
    /// the board alone (as every perft is, without the game's earlier positions).
    ///
    /// ```
    /// use hnefi_core::Game;
    ///
    /// let game = Game::new("copenhagen", None)?;
    /// assert_eq!(game.perft(1), 116);
    /// assert_eq!(game.perft(2), 6_788);
    /// # Ok::<(), hnefi_core::GameError>(())
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        each_size!(&self.position, p => crate::perft::perft(p.board(), depth, p.rules()))
    }

    /// The pieces as three planes of bytes (see [`Planes`]).
    pub fn planes(&self) -> Planes {
        each_size!(&self.position, p => planes(p.board()))
    }

    /// The position, held as the [`AnySize`] of its size: for the [`Engine`](super::Engine).
    pub(crate) fn position(&self) -> &AnySize<Positions> {
        &self.position
    }
}

/// A game of `G` under `named`, from `fen` or from the rules' start.
fn start<G: Size>(named: &NamedRules, fen: Option<&str>) -> Result<Game, GameError> {
    let board = match fen {
        Some(text) => Board::<G>::from_position(text),
        None => named.start_board::<G>(),
    }
    .map_err(|e| GameError::Position {
        text: fen.unwrap_or(&named.start).to_string(),
        reason: e.to_string(),
    })?;
    let position = Position::checked(board, named.rules)?;
    Ok(Game {
        position: G::hold::<Positions>(position),
    })
}

fn side<G: Geometry>(_: &Position<G>) -> u8 {
    G::SIDE
}

fn text<G: Geometry>(mv: Move<G>) -> String {
    format!("{}-{}", mv.from(), mv.to())
}

pub(crate) fn legal<G: Geometry>(position: &Position<G>) -> MoveList<G> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    list
}

fn play<G: Geometry>(position: &mut Position<G>, text: &str) -> Result<(), GameError> {
    if let Some(end) = position.outcome() {
        return Err(GameError::Over(end));
    }
    let refused = |reason: String| GameError::Move {
        text: text.to_string(),
        reason,
    };
    let mv = Move::<G>::parse(text).map_err(|e| refused(e.to_string()))?;
    // The legal list is the one judge: it knows the repetition rules that forbid a move
    // which the board alone allows.
    if !legal(position).contains(&mv) {
        return Err(refused(format!(
            "not legal for the {} here",
            position.side_to_move()
        )));
    }
    position.play(mv);
    Ok(())
}

fn planes<G: Geometry>(board: &Board<G>) -> Planes {
    let plane = |squares: crate::board::generic::Bitboard<G>| {
        let mut bytes = vec![0; G::SQUARES];
        for square in squares {
            bytes[square.index()] = 1;
        }
        bytes
    };
    Planes {
        side: G::SIDE,
        attackers: plane(board.attackers()),
        defenders: plane(board.defenders()),
        king: plane(crate::board::generic::Bitboard::from_square(board.king())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_starts_and_plays_its_first_move() {
        for preset in crate::board::Preset::ALL {
            let mut game = Game::new(preset.name(), None).unwrap();
            assert_eq!(game.fen(), preset.start_fen(), "{preset}");
            let moves = game.legal_moves();
            assert!(!moves.is_empty(), "{preset}");
            game.play(&moves[0]).unwrap();
            assert_ne!(game.fen(), preset.start_fen(), "{preset}");
        }
    }

    #[test]
    fn a_refused_move_leaves_the_game_as_it_was() {
        let mut game = Game::new("copenhagen", None).unwrap();
        let before = game.fen();
        for bad in ["", "z9-z10", "a1-a2", "d1-d1", "f6-f7"] {
            assert!(
                matches!(game.play(bad), Err(GameError::Move { .. })),
                "{bad}"
            );
            assert_eq!(game.fen(), before);
        }
        assert_eq!(game.undo(), Err(GameError::NothingToUndo));
        game.play("d1d3").unwrap();
        assert_eq!(game.moves(), ["d1-d3"]);
    }

    #[test]
    fn the_planes_hold_every_piece_once() {
        let game = Game::new("copenhagen-13", None).unwrap();
        let planes = game.planes();
        assert_eq!(planes.attackers.len(), 169);
        assert_eq!(planes.king.iter().filter(|&&b| b == 1).count(), 1);
        assert_eq!(planes.king[84], 1, "the king on the throne, g7");
        let pieces = |p: &Vec<u8>| p.iter().map(|&b| usize::from(b)).sum::<usize>();
        assert_eq!(pieces(&planes.attackers), 32);
        assert_eq!(pieces(&planes.defenders), 16);
    }

    #[test]
    fn rules_and_positions_that_do_not_fit_are_refused() {
        assert!(matches!(Game::new("chess", None), Err(GameError::Rules(_))));
        let five = "5/5/2k2/5/5 a";
        assert!(matches!(
            Game::new("copenhagen", Some(five)),
            Err(GameError::Size(_))
        ));
        let unreadable = Game::new("brandubh", Some("3a3/3a3/3d3/aadxdaa/3d3/3a3/3a3 d"));
        assert!(matches!(unreadable, Err(GameError::Position { .. })));
        let opentafl = "dim:7 name:Brandub start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        assert_eq!(Game::new(opentafl, None).unwrap().side(), 7);
    }
}
