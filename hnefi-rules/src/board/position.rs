//! `Board`: the pieces, the side to move and the Zobrist key, played by copy-make.
//! `Position`: a board inside a game, with the rules and the history that repetition needs.

use super::bitboard::Bitboard;
use super::captures;
use super::geometry::{Eleven, Geometry};
use super::moves::{Move, MoveList};
use super::outcome::Outcome;
use super::piece::{Piece, Side};
use super::rulebook::{History, Rulebook};
use super::rules::{KingStrength, Rules, WidthError};
use super::square::{Direction, Square};
use super::zobrist::Key;
use std::fmt;

/// The pieces on the board, whose turn it is, and the position's key.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board<G: Geometry> {
    attackers: Bitboard<G>,
    /// Defenders without the king.
    defenders: Bitboard<G>,
    king: Square<G>,
    side: Side,
    key: Key,
}

/// Why a set of pieces is not a position Hnefi plays.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError<G: Geometry> {
    #[error("there is no king")]
    /// No king on the board.
    NoKing,
    #[error("there are two or more kings (found one on {0} and one on {1})")]
    /// Two kings on the board.
    TwoKings(Square<G>, Square<G>),
    /// A man where the rules let no man of his kind stop (Copenhagen: the corners and the
    /// throne).
    #[error("{0} is a restricted square: the rules let no {1} stand on it")]
    PieceOnRestricted(Square<G>, &'static str),
    #[error("two pieces on {0}")]
    /// Two pieces on one square.
    TwoPieces(Square<G>),
}

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError<G: Geometry> {
    #[error("there is no piece of the {side} on {from}")]
    /// No piece of the side to move on the move's first square.
    NoPiece {
        /// The side to move.
        side: Side,
        /// The square.
        from: Square<G>,
    },
    #[error("{0} does not move along a rank or file")]
    /// A move along neither a file nor a rank.
    NotStraight(Move<G>),
    #[error("{mv} is blocked by the piece on {at}")]
    /// A piece stands in the way.
    Blocked {
        /// The move.
        mv: Move<G>,
        /// Where the piece stands.
        at: Square<G>,
    },
    #[error("only the king may stop on {0}")]
    /// A square only the king may stop on.
    Restricted(Square<G>),
    #[error("{mv}: the rules let no {piece} stop on {}", mv.to())]
    /// A square this piece may not stop on under the rules.
    NoStop {
        /// The move.
        mv: Move<G>,
        /// The piece, in words.
        piece: &'static str,
    },
    #[error(
        "{mv}: the rules forbid the {piece} this move (a special square it may not cross or \
         enter, or its speed limit)"
    )]
    /// A square this piece may not cross or re-enter under the rules.
    Forbidden {
        /// The move.
        mv: Move<G>,
        /// The piece, in words.
        piece: &'static str,
    },
    #[error("the game is already over ({0})")]
    /// The game is over.
    GameOver(Outcome),
    #[error("{0} would recreate an earlier board, which these rules forbid the defenders")]
    /// The rules forbid the position the move would repeat.
    Repeats(Move<G>),
}

impl Board<Eleven> {
    /// The Copenhagen start position, attackers to move.
    pub fn start() -> Board<Eleven> {
        super::notation::parse_fen(super::notation::START_FEN).expect("the start FEN is valid")
    }
}

impl<G: Geometry> Board<G> {
    /// A board from explicit piece sets, checked: one piece per square. Which squares a man may
    /// stand on is the rules' to say, not the board's (Tawlbwrdd's centre is a square like
    /// any other): [`Rulebook::check_setup`]. Any number of attackers and defenders is
    /// allowed, more than the start's too (composed studies use them): the rules play any such
    /// board, and every bound in the engine holds for a full board (a [`MoveList`] holds
    /// every move of one).
    pub fn new(
        attackers: Bitboard<G>,
        defenders: Bitboard<G>,
        king: Square<G>,
        side: Side,
    ) -> Result<Self, SetupError<G>> {
        let king_bb = Bitboard::from_square(king);
        if let Some(sq) = (attackers & defenders).first() {
            return Err(SetupError::TwoPieces(sq));
        }
        if ((attackers | defenders) & king_bb).any() {
            return Err(SetupError::TwoPieces(king));
        }
        let mut board = Board {
            attackers,
            defenders,
            king,
            side,
            key: 0,
        };
        board.key = board.compute_key();
        Ok(board)
    }

    /// The squares of the attackers.
    pub fn attackers(&self) -> Bitboard<G> {
        self.attackers
    }

    /// The defenders without the king.
    pub fn defenders(&self) -> Bitboard<G> {
        self.defenders
    }

    /// The king's square.
    pub fn king(&self) -> Square<G> {
        self.king
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The Zobrist key of the board and the side to move.
    pub fn key(&self) -> Key {
        self.key
    }

    /// The key of the piece placement alone, without the side to move.
    pub fn placement_key(&self) -> Key {
        match self.side {
            Side::Attackers => self.key,
            Side::Defenders => self.key ^ G::keys().defenders_to_move,
        }
    }

    /// The key of the defenders' arrangement (every defender and the king), which the 2017
    /// draw-fort rule compares while the attackers move about.
    pub fn arrangement_key(&self) -> Key {
        self.defenders
            .into_iter()
            .fold(G::keys().piece(Piece::King, self.king), |key, sq| {
                key ^ G::keys().piece(Piece::Defender, sq)
            })
    }

    /// All pieces of `side`, the king included for the defenders.
    #[inline(always)]
    pub fn pieces(&self, side: Side) -> Bitboard<G> {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders.with(self.king),
        }
    }

    #[inline(always)]
    /// Every square with a piece.
    pub fn occupied(&self) -> Bitboard<G> {
        (self.attackers | self.defenders).with(self.king)
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square<G>) -> Option<Piece> {
        if self.king == sq {
            Some(Piece::King)
        } else if self.attackers.contains(sq) {
            Some(Piece::Attacker)
        } else if self.defenders.contains(sq) {
            Some(Piece::Defender)
        } else {
            None
        }
    }

    /// The same pieces with `side` to move.
    pub fn with_side_to_move(mut self, side: Side) -> Self {
        if side != self.side {
            self.side = side;
            self.key ^= G::keys().defenders_to_move;
        }
        self
    }

    /// The key computed from scratch; `play` keeps `key` equal to it.
    pub fn compute_key(&self) -> Key {
        let mut key = G::keys().piece(Piece::King, self.king);
        for sq in self.attackers {
            key ^= G::keys().piece(Piece::Attacker, sq);
        }
        for sq in self.defenders {
            key ^= G::keys().piece(Piece::Defender, sq);
        }
        if self.side == Side::Defenders {
            key ^= G::keys().defenders_to_move;
        }
        key
    }

    /// Checks that `mv` is a legal move here on a board whose corners and throne are
    /// Copenhagen's (only the king stops on them), by the board alone (no history, game not
    /// over): a cheap test for moves of the classic boards, such as a transposition table's.
    /// Other rules: [`Board::check_move_under`].
    pub fn check_move(&self, mv: Move<G>) -> Result<(), MoveError<G>> {
        let piece = self.check_path(mv)?;
        if piece != Piece::King && mv.to().is_restricted() {
            return Err(MoveError::Restricted(mv.to()));
        }
        Ok(())
    }

    /// Checks that `mv` is a legal move here under `rulebook`'s rules (its special squares and
    /// speed limits), by the board alone (no history, game not over).
    pub fn check_move_under(
        &self,
        mv: Move<G>,
        rulebook: &Rulebook<G>,
    ) -> Result<(), MoveError<G>> {
        let terrain = rulebook.terrain();
        // On the classic squares the rule-free check is the same, and cheaper; a refusal
        // still gets the rules' reason below.
        if terrain.classic_moves && self.check_move(mv).is_ok() {
            return Ok(());
        }
        let piece = self.check_path(mv)?;
        if terrain
            .targets(piece, mv.from(), self.occupied())
            .contains(mv.to())
        {
            return Ok(());
        }
        let piece_name = piece.name();
        Err(if terrain.no_stop(piece).contains(mv.to()) {
            MoveError::NoStop {
                mv,
                piece: piece_name,
            }
        } else {
            MoveError::Forbidden {
                mv,
                piece: piece_name,
            }
        })
    }

    /// The piece that makes `mv`, if it is the mover's and slides there straight over empty
    /// squares.
    fn check_path(&self, mv: Move<G>) -> Result<Piece, MoveError<G>> {
        let (from, to) = (mv.from(), mv.to());
        let piece = match self.piece_at(from) {
            Some(p) if p.side() == self.side => p,
            _ => {
                return Err(MoveError::NoPiece {
                    side: self.side,
                    from,
                });
            }
        };
        if from.file() != to.file() && from.rank() != to.rank() {
            return Err(MoveError::NotStraight(mv));
        }
        let occupied = self.occupied();
        let path = Bitboard::between(from, to).with(to);
        if let Some(at) = (path & occupied).first().map(|first| {
            // The blocker nearest to `from`.
            if to > from {
                first
            } else {
                (path & occupied).last().unwrap_or(first)
            }
        }) {
            return Err(MoveError::Blocked { mv, at });
        }
        Ok(piece)
    }

    /// Plays `mv`, which must be legal, and returns the pieces it captured.
    #[inline]
    pub fn play(&mut self, mv: Move<G>, rulebook: &Rulebook<G>) -> Bitboard<G> {
        let mover = self.side;
        self.shift_piece(mv);
        let captured = captures::captured_by(self, mv, mover, rulebook);
        if captured.any() {
            let victim = match mover {
                Side::Attackers => {
                    self.defenders ^= captured;
                    Piece::Defender
                }
                Side::Defenders => {
                    self.attackers ^= captured;
                    Piece::Attacker
                }
            };
            for sq in captured {
                self.key ^= G::keys().piece(victim, sq);
            }
        }
        self.side = mover.opponent();
        captured
    }

    /// Plays `mv`, which must be legal and capture nothing (the caller knows: perft's last
    /// plies, which tell the captures of all a node's moves at once), without looking for
    /// captures.
    #[inline]
    pub(crate) fn play_quiet(&mut self, mv: Move<G>) {
        self.shift_piece(mv);
        self.side = self.side.opponent();
    }

    /// Moves the piece of `mv` to its square, the side to move unchanged, the key updated
    /// for the move and the turn.
    #[inline(always)]
    fn shift_piece(&mut self, mv: Move<G>) {
        let (from, to) = (mv.from(), mv.to());
        let mover = self.side;
        let piece = if from == self.king {
            self.king = to;
            Piece::King
        } else {
            let moved = Bitboard::from_square(from).with(to);
            match mover {
                Side::Attackers => {
                    self.attackers ^= moved;
                    Piece::Attacker
                }
                Side::Defenders => {
                    self.defenders ^= moved;
                    Piece::Defender
                }
            }
        };
        self.key ^=
            G::keys().piece(piece, from) ^ G::keys().piece(piece, to) ^ G::keys().defenders_to_move;
    }

    /// The squares attackers must all hold to capture the king where he stands, when he is
    /// captured by surrounding (a strong or middleweight king); `None` where he cannot be
    /// captured so (a strong king on the edge) or is captured like a man instead. (Under
    /// Fetlar beside the throne this includes the throne, which no attacker can hold.)
    pub fn king_capture_squares(&self, rulebook: &Rulebook<G>) -> Option<Bitboard<G>> {
        let terrain = rulebook.terrain();
        let around = Bitboard::from_square(self.king).neighbours();
        let surrounded = match rulebook.rules().king {
            KingStrength::Strong => true,
            KingStrength::Weak => false,
            KingStrength::StrongNearThrone => terrain.throne_area.contains(self.king),
            KingStrength::StrongOnThrone => terrain.throne.contains(self.king),
            KingStrength::Middleweight => {
                let hostile = terrain.hostile_to(Piece::King, self.occupied());
                return Some(around & !hostile);
            }
        };
        if !surrounded || self.king.is_edge() {
            return None;
        }
        Some(around & !terrain.hostile_to(Piece::King, self.occupied()))
    }

    /// Whether the king, where he stands, is captured like a man: between two attackers or an
    /// attacker and a square hostile to him (a weak king, or one away from the throne where
    /// the rules make him strong only there).
    pub fn king_captured_like_a_man(&self, rulebook: &Rulebook<G>) -> bool {
        match rulebook.rules().king {
            KingStrength::Weak => true,
            KingStrength::StrongNearThrone => !rulebook.terrain().throne_area.contains(self.king),
            KingStrength::StrongOnThrone => !rulebook.terrain().throne.contains(self.king),
            KingStrength::Strong | KingStrength::Middleweight => false,
        }
    }

    /// Whether an attacker just landed on `to` captured the king.
    pub fn king_captured(&self, to: Square<G>, rulebook: &Rulebook<G>) -> bool {
        let around = Bitboard::from_square(self.king).neighbours();
        if !around.contains(to) {
            return false;
        }
        if let Some(needed) = self.king_capture_squares(rulebook) {
            return (needed & !self.attackers).is_empty();
        }
        if !self.king_captured_like_a_man(rulebook) {
            // A strong king on the edge.
            return false;
        }
        // Like a man: the square beyond him, seen from the attacker, is hostile to him.
        let hostile = self.attackers | rulebook.terrain().hostile_to(Piece::King, self.occupied());
        let beyond = Direction::ALL
            .into_iter()
            .find(|&d| to.step(d) == Some(self.king))
            .and_then(|d| self.king.step(d));
        beyond.is_some_and(|sq| hostile.contains(sq))
    }

    /// No defender and not the king can reach the edge through squares free of attackers.
    pub fn encircled(&self) -> bool {
        let defenders = self.pieces(Side::Defenders);
        if (defenders & Bitboard::EDGE).any() {
            return false;
        }
        !defenders.flood_reaches(!self.attackers, Bitboard::EDGE)
    }

    /// The defenders' way out of this board, if they have one: a path from a defender to the
    /// edge through squares free of attackers, which proves the board not [encircled]
    /// (Board::encircled) and, as long as an attackers' move lands off it and leaves its
    /// defender standing, every board one such move later too ([`WayOut::still_open`]). Found
    /// once for a node, it spares most of its children the flood. `None` where there is none,
    /// or where the shortest is longer than [`WayOut::MAX_STEPS`].
    #[doc(hidden)]
    pub fn way_out(&self) -> Option<WayOut<G>> {
        let through = !self.attackers;
        // layers[i]: the squares at most i steps from a defender through squares free of
        // attackers.
        let mut layers = arrayvec::ArrayVec::<Bitboard<G>, WAY_OUT_STEPS>::new();
        let mut reached = self.pieces(Side::Defenders);
        while !(reached & Bitboard::EDGE).any() {
            layers.try_push(reached).ok()?;
            let next = reached | (reached.neighbours() & through);
            if next == reached {
                return None;
            }
            reached = next;
        }
        // Back from an edge square, a step into the layer before each time.
        let mut square = (reached & Bitboard::EDGE).first()?;
        let mut path = Bitboard::from_square(square);
        for &layer in layers.iter().rev() {
            if !layer.contains(square) {
                square = (Bitboard::from_square(square).neighbours() & layer).first()?;
                path = path.with(square);
            }
        }
        Some(WayOut {
            path,
            defender: square,
        })
    }
}

/// [`WayOut::MAX_STEPS`], outside the generic type so that an array can be that long.
const WAY_OUT_STEPS: usize = 24;

/// A path from a defender to the edge through squares free of attackers: see
/// [`Board::way_out`].
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WayOut<G: Geometry> {
    /// The path's squares, its defender's and its edge square's included.
    path: Bitboard<G>,
    /// The defender it starts from.
    defender: Square<G>,
}

impl<G: Geometry> WayOut<G> {
    /// The longest way out looked for: past it, the flood answers for every child.
    pub const MAX_STEPS: usize = WAY_OUT_STEPS;

    /// The path's squares: an attackers' move that lands on none of them and captures nothing
    /// keeps the way out.
    #[inline]
    pub(crate) fn path(&self) -> Bitboard<G> {
        self.path
    }

    /// Whether `child`, the board one attackers' move landing on `to` after the board of this
    /// way out, keeps it: then `child` is not encircled. The move took no square of the path,
    /// so the path is still free of attackers, and it did not capture its defender.
    #[inline]
    pub fn still_open(&self, child: &Board<G>, to: Square<G>) -> bool {
        !self.path.contains(to) && child.pieces(Side::Defenders).contains(self.defender)
    }
}

impl<G: Geometry> fmt::Debug for Board<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", super::notation::to_fen(self))
    }
}

/// A board in a game: the rules, and every earlier board since the start so that the
/// rulebook can judge the game and moves can be taken back.
#[derive(Clone, Debug)]
pub struct Position<G: Geometry> {
    board: Board<G>,
    rulebook: Rulebook<G>,
    /// Plies since the last capture (or since the start).
    quiet_plies: u16,
    history: Vec<Undo<G>>,
    /// The keys and arrangement keys of the boards in `history`, as the rulebook reads them.
    keys: Vec<Key>,
    arrangements: Vec<Key>,
}

#[derive(Clone, Copy, Debug)]
struct Undo<G: Geometry> {
    board: Board<G>,
    quiet_plies: u16,
    mv: Move<G>,
}

impl Position<Eleven> {
    /// The Copenhagen start position under `rules`, or a [`WidthError`] if they are not for
    /// 11x11 boards.
    pub fn start(rules: Rules) -> Result<Position<Eleven>, WidthError> {
        Position::checked(Board::start(), rules)
    }
}

impl<G: Geometry> Position<G> {
    /// `board` under `rules`, or a [`WidthError`] if they are for boards of another size: the
    /// constructor for rules that come from outside.
    pub fn checked(board: Board<G>, rules: Rules) -> Result<Self, WidthError> {
        rules.fit::<G>()?;
        Ok(Position::new(board, rules))
    }

    /// `board` under `rules`, which the caller knows to be for boards of `G`; where they come
    /// from outside, [`Position::checked`].
    pub fn new(board: Board<G>, rules: Rules) -> Self {
        Position {
            board,
            rulebook: Rulebook::new(rules),
            quiet_plies: 0,
            history: Vec::with_capacity(256),
            keys: Vec::with_capacity(256),
            arrangements: Vec::with_capacity(256),
        }
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board<G> {
        &self.board
    }

    /// The rules of the game.
    pub fn rules(&self) -> &Rules {
        self.rulebook.rules()
    }

    /// The rules compiled for this board.
    pub fn rulebook(&self) -> &Rulebook<G> {
        &self.rulebook
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.board.side
    }

    /// The Zobrist key of the board and the side to move.
    pub fn key(&self) -> Key {
        self.board.key
    }

    /// The board this game was set up from, before its first move.
    pub fn initial_board(&self) -> &Board<G> {
        self.history.first().map_or(&self.board, |u| &u.board)
    }

    /// Moves played since the position this game was set up from.
    pub fn plies(&self) -> usize {
        self.history.len()
    }

    /// Plies since the last capture.
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move<G>> {
        self.history.last().map(|u| u.mv)
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl Iterator<Item = Move<G>> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// What the rulebook reads of the game before the current board.
    pub fn history(&self) -> History<'_> {
        let from = self.keys.len() - self.quiet_plies as usize;
        History::new(&self.keys[from..], &self.arrangements[from..], self.plies())
    }

    /// How many times the current position (board and side to move) has occurred.
    pub fn occurrences(&self) -> usize {
        self.rulebook
            .occurrences(&self.board, &self.history())
            .count as usize
    }

    /// Plays `mv` without checking it; returns the captures.
    pub fn play(&mut self, mv: Move<G>) -> Bitboard<G> {
        self.history.push(Undo {
            board: self.board,
            quiet_plies: self.quiet_plies,
            mv,
        });
        self.keys.push(self.board.key);
        self.arrangements.push(self.board.arrangement_key());
        let captured = self.board.play(mv, &self.rulebook);
        self.quiet_plies = if captured.any() {
            0
        } else {
            self.quiet_plies.saturating_add(1)
        };
        captured
    }

    /// Plays `mv` after checking that it is legal and that the game is not over.
    pub fn try_play(&mut self, mv: Move<G>) -> Result<Bitboard<G>, MoveError<G>> {
        if let Some(outcome) = self.outcome() {
            return Err(MoveError::GameOver(outcome));
        }
        self.check(mv)?;
        Ok(self.play(mv))
    }

    /// Whether the side to move may play `mv` here, the game's end aside: by the board, then
    /// by the rules that look back. The legal list holds exactly the moves this allows.
    pub fn check(&self, mv: Move<G>) -> Result<(), MoveError<G>> {
        self.board.check_move_under(mv, &self.rulebook)?;
        if self.repeats_forbidden_board(mv) {
            return Err(MoveError::Repeats(mv));
        }
        Ok(())
    }

    /// Takes the last move back.
    pub fn undo(&mut self) -> Option<Move<G>> {
        let undo = self.history.pop()?;
        self.keys.pop();
        self.arrangements.pop();
        self.board = undo.board;
        self.quiet_plies = undo.quiet_plies;
        Some(undo.mv)
    }

    /// How hnefatafl-copenhagen's own engine and server read `DefendersMayNotRepeat`: they
    /// refuse a defenders' move when the board with the piece moved, before its captures are
    /// taken off, was seen earlier (observed: `play: you already reached that position` for a
    /// capturing move). The rules here allow such a capture; a bot on that server avoids it.
    pub fn recreates_board_before_captures(&self, mv: Move<G>) -> bool {
        let side = self.board.side;
        if !self.rulebook.repeats_forbidden_for(side) {
            return false;
        }
        let Some(piece) = self.board.piece_at(mv.from()) else {
            return false;
        };
        let placement = self.board.placement_key()
            ^ G::keys().piece(piece, mv.from())
            ^ G::keys().piece(piece, mv.to());
        self.history().placements::<G>(side).any(|p| p == placement)
    }

    /// Under `DefendersMayNotRepeat`: whether the defenders' `mv` recreates an earlier board.
    pub fn repeats_forbidden_board(&self, mv: Move<G>) -> bool {
        if !self.rulebook.repeats_forbidden_for(self.board.side) {
            return false;
        }
        self.rulebook
            .play_allowed(&self.board, mv, &self.history())
            .is_none()
    }

    /// The legal moves, history included (empty when the game is over).
    pub fn legal_moves(&self, list: &mut MoveList<G>) {
        self.outcome_and_moves(list);
    }

    /// How many legal moves the side to move has, history included, the game's end aside:
    /// counted set-wise where no rule looks back at the history to forbid one.
    pub fn legal_move_count(&self) -> usize {
        if self
            .rulebook
            .repeats_forbidden_for(self.board.side_to_move())
        {
            return self.moves_looking_back().len();
        }
        self.board.count_moves(&self.rulebook) as usize
    }

    /// Legal move `n` (below [`Position::legal_move_count`]) in the order of
    /// [`Position::legal_moves`], the game's end aside, found without listing the moves where
    /// no rule looks back at the history: how a random player picks a move.
    pub fn nth_legal_move(&self, n: usize) -> Option<Move<G>> {
        if self
            .rulebook
            .repeats_forbidden_for(self.board.side_to_move())
        {
            return self.moves_looking_back().get(n).copied();
        }
        self.board.nth_move(&self.rulebook, n)
    }

    /// The moves the board allows less those the rules that look back forbid, listed: where
    /// such a rule applies, counting and picking by number need the list.
    fn moves_looking_back(&self) -> MoveList<G> {
        let mut list = MoveList::new();
        self.board.generate_moves(&self.rulebook, &mut list);
        self.rulebook
            .retain_allowed(&self.board, &self.history(), &mut list);
        list
    }

    /// [`Position::outcome`], with the legal moves into `list` from the same generation.
    pub fn outcome_and_moves(&self, list: &mut MoveList<G>) -> Option<Outcome> {
        let landing = self.last_move().map(|m| m.to());
        self.rulebook
            .outcome_and_moves(&self.board, landing, &self.history(), list)
    }

    /// Whether the game is over, and how, as the rulebook judges it.
    pub fn outcome(&self) -> Option<Outcome> {
        let landing = self.last_move().map(|m| m.to());
        self.rulebook.outcome(&self.board, landing, &self.history())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every attackers' move of random games: a child that keeps its parent's way out is not
    /// encircled, and a board has a way out exactly when it is not encircled.
    fn way_out_agrees_with_the_flood<G: Geometry>(preset: crate::board::Preset, seed: u64) {
        use crate::splitmix::SplitMix64;
        let rulebook = Rulebook::<G>::new(Rules::preset(preset));
        let mut rng = SplitMix64::new(seed);
        let (mut kept, mut flooded) = (0, 0);
        for _ in 0..20 {
            let mut board = Board::<G>::from_position(preset.start_fen()).unwrap();
            for _ in 0..300 {
                let mut list = MoveList::new();
                board.generate_moves(&rulebook, &mut list);
                if list.is_empty() {
                    break;
                }
                let way_out = board.way_out();
                if way_out.is_some() || !board.encircled() {
                    // Only a way out longer than the steps looked for goes unfound.
                    assert_eq!(way_out.is_some(), !board.encircled(), "{board:?}");
                }
                if board.side_to_move() == Side::Attackers {
                    for &mv in &list {
                        let mut child = board;
                        child.play(mv, &rulebook);
                        if way_out.is_some_and(|w| w.still_open(&child, mv.to())) {
                            assert!(!child.encircled(), "{board:?} {mv:?}");
                            kept += 1;
                        } else {
                            flooded += 1;
                        }
                        assert_eq!(
                            rulebook.mover_win_past(&child, mv, way_out.as_ref()),
                            rulebook.mover_win(&child, mv)
                        );
                    }
                }
                let mv = list[rng.below(list.len())];
                board.play(mv, &rulebook);
                if rulebook.mover_win(&board, mv).is_some() {
                    break;
                }
            }
        }
        assert!(
            kept > 10 * flooded,
            "{kept} children kept the way out, {flooded} did not"
        );
    }

    #[test]
    fn a_way_out_spares_the_flood_and_answers_as_it_does() {
        use crate::board::{Preset, Seven, Thirteen};
        way_out_agrees_with_the_flood::<Eleven>(Preset::Copenhagen, 1);
        way_out_agrees_with_the_flood::<Seven>(Preset::Brandubh, 2);
        way_out_agrees_with_the_flood::<Thirteen>(Preset::Copenhagen13, 3);
    }

    #[test]
    fn the_move_that_closes_the_ring_takes_the_way_out() {
        // King c4 and defender c3 in a ring b3 b4 c2 d3 c5, closed by d9-d4.
        let sqs = |names: &[&str]| -> Bitboard<Eleven> {
            names.iter().map(|n| Square::parse(n).unwrap()).collect()
        };
        let board = Board::<Eleven>::new(
            sqs(&["b3", "b4", "c2", "d3", "c5", "d9"]),
            sqs(&["c3"]),
            Square::parse("c4").unwrap(),
            Side::Attackers,
        )
        .unwrap();
        let rulebook = Rulebook::<Eleven>::new(Rules::default());
        let way_out = board.way_out().expect("d4 is open");
        let mv = Move::new(Square::parse("d9").unwrap(), Square::parse("d4").unwrap());
        let mut child = board;
        child.play(mv, &rulebook);
        assert!(!way_out.still_open(&child, mv.to()));
        assert_eq!(
            rulebook.mover_win_past(&child, mv, Some(&way_out)),
            Some(Outcome::win(
                Side::Attackers,
                crate::board::Reason::Encirclement
            ))
        );
        assert_eq!(child.way_out(), None);
    }

    #[test]
    fn rules_of_another_width_are_refused_in_every_build() {
        use crate::board::{Preset, Seven};
        let brandubh = Rules::preset(Preset::Brandubh);
        let refused = WidthError {
            rules: 7,
            board: 11,
            preset: Preset::Brandubh,
        };
        assert_eq!(Position::start(brandubh).unwrap_err(), refused);
        assert_eq!(Rulebook::<Eleven>::checked(brandubh).unwrap_err(), refused);
        let seven = super::Board::<Seven>::from_fen(Preset::Brandubh.start_fen()).unwrap();
        assert!(super::Position::checked(seven, brandubh).is_ok());
        let copenhagen = super::Position::checked(seven, Rules::default()).unwrap_err();
        assert!(
            copenhagen.to_string().contains("rules of 11x11 boards"),
            "{copenhagen}"
        );
    }
    use crate::board::notation::parse_move;
    use crate::board::{Board, MoveError, Position, Square};

    #[test]
    fn a_capture_can_recreate_the_board_before_its_captures() {
        // From a game against hnefatafl-copenhagen's AI under hnefatafl-org rules: the king's
        // e3-k3 takes k2, and the board with the king on k3 and k2 still standing was seen
        // before. Legal here; refused by that program.
        let moves = "h11h8 d6d3 k7i7 e7b7 d11d6 e5b5 k8k9 f7c7 a8a9 c7c6 e11c11 e6e9 e1e6 \
                     d3d6 a4e4 d6d4 k5j5 f6e6 f2e2 e6e3 a5a4 e9c9 f10f9 e3a3 e2a2 a3k3 a2k2 \
                     k3a3 k2a2 a3e3 a2k2";
        let mut pos =
            Position::start(Rules::preset(super::super::rules::Preset::HnefataflOrg)).unwrap();
        for m in moves.split_whitespace() {
            pos.try_play(parse_move(m).unwrap()).unwrap();
        }
        let capture = parse_move("e3k3").unwrap();
        assert!(!pos.repeats_forbidden_board(capture));
        assert!(pos.recreates_board_before_captures(capture));
        assert!(!pos.recreates_board_before_captures(parse_move("e3e5").unwrap()));
        let mut after = pos.clone();
        assert_eq!(after.try_play(capture).unwrap().count(), 1);
    }

    #[test]
    fn start_position() {
        let b = Board::start();
        assert_eq!(b.attackers().count(), 24);
        assert_eq!(b.defenders().count(), 12);
        assert_eq!(b.king(), Square::throne());
        assert_eq!(b.side_to_move(), Side::Attackers);
        assert_eq!(b.key(), b.compute_key());
    }

    #[test]
    fn check_move_errors() {
        let b = Board::start();
        let m = |s: &str| parse_move(s).unwrap();
        assert_eq!(b.check_move(m("d1d3")), Ok(()));
        assert!(matches!(
            b.check_move(m("e5e3")),
            Err(MoveError::NoPiece { .. })
        ));
        assert!(matches!(
            b.check_move(m("d1e2")),
            Err(MoveError::NotStraight(_))
        ));
        assert!(matches!(
            b.check_move(m("a4a6")),
            Err(MoveError::Blocked { at, .. }) if at.to_string() == "a5"
        ));
        assert!(matches!(
            b.check_move(m("d11a11")),
            Err(MoveError::Restricted(_))
        ));
    }

    #[test]
    fn undo_restores() {
        let mut p = Position::start(Rules::default()).unwrap();
        let before = *p.board();
        p.try_play(parse_move("d1d3").unwrap()).unwrap();
        assert_ne!(*p.board(), before);
        assert_eq!(p.undo().map(|m| m.to_string()), Some("d1d3".to_string()));
        assert_eq!(*p.board(), before);
        assert_eq!(p.undo(), None);
    }

    /// Random games on every preset: the count and the picks by number are the legal list's
    /// length and members, with the defenders' no-repeat rule among them.
    #[test]
    fn legal_moves_by_number_are_the_legal_list() {
        use crate::board::{Eleven, Nine, Preset, Seven, Thirteen};
        fn walk<G: Geometry>(preset: Preset) {
            let rules = Rules::preset(preset);
            let board = super::Board::<G>::from_fen(preset.start_fen()).unwrap();
            let mut rng = crate::splitmix::SplitMix64::new(11);
            for _game in 0..6 {
                let mut p = super::Position::checked(board, rules).unwrap();
                let mut list = MoveList::new();
                for _ply in 0..150 {
                    if p.outcome_and_moves(&mut list).is_some() {
                        break;
                    }
                    assert_eq!(p.legal_move_count(), list.len(), "{preset}");
                    for (n, &mv) in list.iter().enumerate() {
                        assert_eq!(p.nth_legal_move(n), Some(mv), "{preset}");
                    }
                    assert_eq!(p.nth_legal_move(list.len()), None);
                    p.play(list[rng.below(list.len())]);
                }
            }
        }
        for preset in Preset::ALL {
            match preset.width() {
                7 => walk::<Seven>(preset),
                9 => walk::<Nine>(preset),
                11 => walk::<Eleven>(preset),
                _ => walk::<Thirteen>(preset),
            }
        }
    }
}
