//! [`Game`]: a game of any size under any rules, held without generics, for hosts (a GUI, a
//! server, a Python binding) that learn the board's size only when they read the rules.

use crate::board::notation::{record_move, to_fen, to_opentafl};
use crate::board::opentafl::rules_string;
use crate::board::sizes::{AnySize, PerSize};
use crate::board::variant::{NamedRules, RulesNameError};
use crate::board::{Board, Move, MoveError, MoveList, Position, RecordMove, Square};
use crate::board::{Geometry, Outcome, Piece, Preset, Rules, Side, SizeError, WidthError, side_of};
use crate::each_size;
use crate::games::otg::{self, OtgError};
use crate::games::record::{self, GameRecord, RecordError, Verdict};

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
        reason: Refusal,
    },
    /// The game is over: no move may be played.
    #[error("the game is over ({0}): no move may be played")]
    Over(Outcome),
    /// No move has been played since the start: there is none to take back.
    #[error("no move to undo")]
    NothingToUndo,
    /// A move given as square indices names a square that is not on the board.
    #[error(
        "squares {from} to {to}: a square index is rank * {side} + file, from 0 to {last} \
         on this board",
        last = usize::from(*side) * usize::from(*side) - 1
    )]
    Index {
        /// The square the move would leave.
        from: usize,
        /// The square it would stop on.
        to: usize,
        /// The board's side.
        side: u8,
    },
    /// A record line of the community format that cannot be read.
    #[error("record: {0}")]
    Record(#[from] RecordError),
    /// Text of several record lines, where one game was asked for.
    #[error(
        "the text holds {0} record lines: a record is one game a line, so read each line on its \
         own"
    )]
    Lines(usize),
    /// The record names other rules than the caller gave.
    #[error(
        "the record names the rules '{named}', not '{given}': leave the rules out, or give the \
         record's"
    )]
    RulesDiffer {
        /// The rules the record's fifth field names.
        named: String,
        /// The rules the caller gave.
        given: String,
    },
    /// An OpenTafl `.otg` file that cannot be read.
    #[error("otg: {0}")]
    Otg(#[from] OtgError),
    /// A move of a record or `.otg` file that cannot be played where it stands.
    #[error("move {ply} ({text}): {reason}")]
    Replay {
        /// The move's number in the game, from 1.
        ply: usize,
        /// The move as the game writes it.
        text: String,
        /// Why it cannot be played.
        reason: ReplayRefusal,
    },
}

/// Why a move cannot be played where it stands: in a record or `.otg` file
/// ([`GameError::Replay`]), and for [`Game::play`], which reports the first as
/// [`GameError::Over`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayRefusal {
    /// The game had ended before it.
    #[error("the game was over before it ({0})")]
    After(Outcome),
    /// It is not legal where it stands.
    #[error(transparent)]
    Illegal(Refusal),
}

/// Why a [`Game`] refused a move, as the command line names it: the text is no move, or the
/// board or the rules forbid it to the side to move. Squares are named as in the notation
/// (`d1`), since a game's size is known only at run time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The text is no move on this board: the notation's reason.
    #[error("{0}")]
    Unreadable(String),
    /// The move's first square holds no piece of the side to move.
    #[error("not legal for the {side} here: there is no piece of the {side} on {from}")]
    NoPiece {
        /// The side to move.
        side: Side,
        /// The first square.
        from: String,
    },
    /// The move's two squares are one.
    #[error("{square} and {square} are the same square")]
    SameSquare {
        /// The square.
        square: String,
    },
    /// The move goes along neither a rank nor a file.
    #[error("not legal for the {side} here: it does not move along a rank or file")]
    NotStraight {
        /// The side to move.
        side: Side,
    },
    /// A piece stands in the way.
    #[error("not legal for the {side} here: it is blocked by the piece on {at}")]
    Blocked {
        /// The side to move.
        side: Side,
        /// Where the piece in the way stands.
        at: String,
    },
    /// The rules let this piece not stop on the move's last square (the throne or a corner
    /// for all but the king, or a square of the variant's).
    #[error("not legal for the {side} here: the rules let no {piece} stop on {square}")]
    NoStop {
        /// The side to move.
        side: Side,
        /// The piece, in words.
        piece: &'static str,
        /// The square.
        square: String,
    },
    /// The rules of the variant forbid this piece the move: a special square it may not cross
    /// or re-enter, or its speed limit.
    #[error(
        "not legal for the {side} here: the rules forbid the {piece} this move (a special \
         square it may not cross or enter, or its speed limit)"
    )]
    Forbidden {
        /// The side to move.
        side: Side,
        /// The piece, in words.
        piece: &'static str,
    },
    /// The board allows the move, but it would repeat a position the rules forbid.
    #[error("not legal for the {side} here: it would repeat a position, which these rules forbid")]
    Repeats {
        /// The side to move.
        side: Side,
    },
}

/// The positions of a game, one type a size: what a [`Game`] holds, for an engine that
/// searches it with code compiled for its size ([`Game::held`]).
pub struct Positions;

impl PerSize for Positions {
    type Of<G: Geometry> = Position<G>;
}

/// How many planes of `side * side` bytes [`Game::planes`] writes: attackers, defenders, king
/// and the side to move.
pub const PLANES: usize = 4;

/// A game of any board size under any rules: its position, the moves played, and the
/// judgement of its end, with moves in text (`d1-d3`, or `d1d3`).
///
/// ```
/// use hnefi_rules::Game;
///
/// let mut game = Game::new("brandubh", None)?;
/// assert_eq!(game.width(), 7);
/// let first = game.legal_moves()[0].clone();
/// game.play(&first)?;
/// assert_eq!(game.moves(), [first]);
/// game.undo()?;
/// assert!(game.moves().is_empty());
/// # Ok::<(), hnefi_rules::GameError>(())
/// ```
pub struct Game {
    position: AnySize<Positions>,
    /// The rules as named: what a record's fifth field writes.
    named: NamedRules,
    /// The result a record or `.otg` file gave, until a move is played or taken back.
    recorded: Option<Recorded>,
    /// The players an `.otg` file names (attackers, defenders), written back by
    /// [`Game::to_otg`].
    players: Option<(String, String)>,
}

/// How a record says its game ended, which may be a resignation or a loss on time that the
/// moves alone do not show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Recorded {
    result: Verdict,
    timeout: bool,
}

/// An independent copy: the same start, moves, rules and history, without replaying them.
impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            position: each_size!(&self.position, p => hold(p.clone())),
            named: self.named.clone(),
            recorded: self.recorded,
            players: self.players.clone(),
        }
    }
}

/// The board as text, the last rank at the top (see [`crate::board::Board`]'s
/// `Display`): `a`, `d`, `k` the pieces, `+` an empty corner or throne, `.` other squares.
impl std::fmt::Display for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        each_size!(&self.position, p => write!(f, "{}", p.board()))
    }
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("rules", &self.named.name)
            .field("fen", &self.fen())
            .field("moves", &self.moves())
            .finish()
    }
}

impl Game {
    /// A game under `rules` (a preset's name such as `copenhagen` or `brandubh`, or an
    /// OpenTafl rules string), from `fen` (a FEN or an OpenTafl position of the rules' board
    /// size) or else from the rules' start.
    ///
    /// ```
    /// use hnefi_rules::{Game, GameError};
    ///
    /// let tablut = Game::new("tablut", None)?;
    /// assert_eq!(tablut.width(), 9);
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

    /// A game read from one line of the community's record format (the format of Hnefi's
    /// `data/copenhagen.csv`: `moves,attacker_captures,defender_captures,result`, moves such
    /// as `g3-e3xe2`, and optionally the rules and the start as fifth and sixth fields), every
    /// move replayed and checked under the rules. The rules are the line's fifth field, else
    /// `rules` (a preset's name or an OpenTafl rules string), else Copenhagen; `rules` that
    /// differ from the line's are refused. The captures a record claims are not checked: the
    /// rules make their own. The result it gives, which may be a resignation or a loss on time
    /// the moves do not show, is kept for [`Game::to_record`] until a move is played or taken
    /// back.
    ///
    /// ```
    /// use hnefi_rules::{Game, GameError};
    ///
    /// let line = "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Ongoing";
    /// let game = Game::from_record(line, None)?;
    /// assert_eq!(game.moves().len(), 5);
    /// assert_eq!(game.to_record(), line);
    /// // A move that is not legal where it stands is refused, with its number.
    /// let refused = Game::from_record("d1-d3 d3-d1 a4-a5,0,0,Ongoing", None).unwrap_err();
    /// assert!(refused.to_string().starts_with("move 2 (d3-d1)"), "{refused}");
    /// # Ok::<(), GameError>(())
    /// ```
    pub fn from_record(text: &str, rules: Option<&str>) -> Result<Game, GameError> {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let line = match lines.as_slice() {
            [] => "",
            [line] => line,
            more => return Err(GameError::Lines(more.len())),
        };
        let given = rules.map(str::parse::<NamedRules>).transpose()?;
        let named = match (record::rules_field(line), given) {
            (Some(field), given) => {
                let named: NamedRules = field.parse()?;
                if let Some(given) = given
                    && (given.rules != named.rules || given.start != named.start)
                {
                    return Err(GameError::RulesDiffer {
                        named: named.name,
                        given: given.name,
                    });
                }
                named
            }
            (None, Some(given)) => given,
            (None, None) => NamedRules::default(),
        };
        crate::with_size!(named.rules.width, read_record(line, named))?
    }

    /// The game as one line of the community's record format ([`Game::from_record`] reads
    /// it back): the moves since the start with the captures they made, the captures of each
    /// side, and the result: the one the game was read with while no move has been played or
    /// taken back since, else the game's own (`Black` the attackers won, `White` the
    /// defenders, `Draw`, or `Ongoing`). Rules other than Copenhagen follow as a fifth field,
    /// and a start other than the rules' as a sixth.
    ///
    /// ```
    /// use hnefi_rules::Game;
    ///
    /// let mut game = Game::new("brandubh", None)?;
    /// game.play("c4-c6")?;
    /// assert_eq!(game.to_record(), "c4-c6,0,0,Ongoing,brandubh");
    /// let back = Game::from_record(&game.to_record(), None)?;
    /// assert_eq!((back.fen(), back.moves()), (game.fen(), game.moves()));
    /// # Ok::<(), hnefi_rules::GameError>(())
    /// ```
    pub fn to_record(&self) -> String {
        let (result, timeout) = self.result();
        each_size!(&self.position, p => {
            let moves: Vec<_> = p.moves().collect();
            record::write_game(p.initial_board(), &moves, &self.named, result, timeout)
        })
    }

    /// A game read from the text of an OpenTafl saved game (`.otg`): its tags, then numbered
    /// lines of moves (`7. a8-b8xb7 Kf6-f10`) with bracketed commentary between them. The
    /// rules are its `rules` tag's rules string (one Hnefi cannot play falls back to Hnefi's
    /// preset of its board size, with a warning to the log), else Copenhagen; the start is
    /// the rules string's `start:`, else the rules'. Side variations are left out: the main
    /// line is the game, every move replayed and checked. The `result` tag is kept for
    /// [`Game::to_otg`] and [`Game::to_record`] until a move is played or taken back, and the
    /// `attackers` and `defenders` tags for [`Game::to_otg`].
    ///
    /// ```
    /// use hnefi_rules::Game;
    ///
    /// let mut game = Game::new("copenhagen", None)?;
    /// game.play("d1-d3")?;
    /// game.play("f4-c4")?;
    /// let text = game.to_otg();
    /// assert!(text.starts_with("[rules:dim:11 name:Copenhagen"), "{text}");
    /// assert!(text.ends_with("\n1. d1-d3 f4-c4\n"), "{text}");
    /// let back = Game::from_otg(&text)?;
    /// assert_eq!((back.fen(), back.moves()), (game.fen(), game.moves()));
    /// assert_eq!(back.rules_name(), "copenhagen");
    /// # Ok::<(), hnefi_rules::GameError>(())
    /// ```
    pub fn from_otg(text: &str) -> Result<Game, GameError> {
        let named = otg::rules_of(text)?.unwrap_or_default();
        crate::with_size!(named.rules.width, read_otg(text, named))?
    }

    /// The game as OpenTafl saves it (`.otg`), which [`Game::from_otg`] reads back: the tags
    /// `rules` (an OpenTafl rules string with the start), `attackers` and `defenders` where the
    /// game was read with them, and `result` (`1` the attackers won, `-1` the defenders, `0` a
    /// draw, empty while the game goes on; as in [`Game::to_record`], the one the game was
    /// read with until a move is played or taken back); then a numbered line a turn, each
    /// move with the squares it captured. Rules OpenTafl has no key for are written as its
    /// nearest (see [`rules_string`](crate::board::opentafl::rules_string)), and so read back.
    pub fn to_otg(&self) -> String {
        let (result, _) = self.result();
        let players = self.players.as_ref().map(|(a, d)| (a.as_str(), d.as_str()));
        each_size!(&self.position, p => {
            let start = *p.initial_board();
            let mut replay = Position::new(start, *p.rules());
            let moves: Vec<_> = p
                .moves()
                .map(|mv| RecordMove { mv, captures: replay.play(mv) })
                .collect();
            otg::write(p.rules(), &start, &moves, result, players)
        })
    }

    /// The result a record writes, and whether the game was lost on time.
    fn result(&self) -> (Verdict, bool) {
        match self.recorded {
            Some(recorded) => (recorded.result, recorded.timeout),
            None => (Verdict::from(self.outcome()), false),
        }
    }

    /// The rules' name: the preset's (`copenhagen`), or the OpenTafl rules string as given.
    pub fn rules_name(&self) -> &str {
        &self.named.name
    }

    /// The board's width, squares along an edge: 7, 9, 11 or 13.
    pub fn width(&self) -> u8 {
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

    /// The legal moves as pairs of square indices `(from, to)`, a square `rank * side + file`
    /// (`a1` is 0, `b1` 1), in the order of [`Game::legal_moves`]: the same moves without their
    /// text, for hosts that count in indices (a network's policy, an action space).
    ///
    /// ```
    /// use hnefi_rules::Game;
    ///
    /// let mut game = Game::new("copenhagen", None)?;
    /// let moves = game.legal_move_indices();
    /// assert_eq!(moves.len(), game.legal_moves().len());
    /// // d1-d3: file d is 3, ranks 1 and 3 are rows 0 and 2 of 11 squares.
    /// assert!(moves.contains(&(3, 2 * 11 + 3)));
    /// game.play_indices(3, 25)?;
    /// assert_eq!(game.moves(), ["d1-d3"]);
    /// # Ok::<(), hnefi_rules::GameError>(())
    /// ```
    pub fn legal_move_indices(&self) -> Vec<(usize, usize)> {
        each_size!(&self.position, p => legal(p)
            .iter()
            .map(|m| (m.from().index(), m.to().index()))
            .collect())
    }

    /// The squares of `mv` (`d1-d3` or `d1d3`) on this board as indices `(from, to)`, as
    /// [`Game::legal_move_indices`] gives them: read, not judged, so that an illegal move has
    /// its indices too; a [`GameError::Move`] if it names no move of this board.
    ///
    /// ```
    /// use hnefi_rules::Game;
    ///
    /// let game = Game::new("brandubh", None)?;
    /// assert_eq!(game.move_indices("d1-d2")?, (3, 10));
    /// assert_eq!(game.move_text(3, 10).as_deref(), Some("d1-d2"));
    /// assert!(game.move_indices("d1-d9").is_err(), "no rank 9 on 7x7");
    /// # Ok::<(), hnefi_rules::GameError>(())
    /// ```
    pub fn move_indices(&self, mv: &str) -> Result<(usize, usize), GameError> {
        fn read<G: Geometry>(_: &Position<G>, text: &str) -> Result<(usize, usize), GameError> {
            let mv = read_move::<G>(text)?;
            Ok((mv.from().index(), mv.to().index()))
        }
        each_size!(&self.position, p => read(p, mv))
    }

    /// The text (`d1-d3`) of the move from square index `from` to `to` on this board, whether
    /// legal or not (every pair of squares, as an action space counts them, one square to
    /// itself too); `None` when a square is off the board.
    pub fn move_text(&self, from: usize, to: usize) -> Option<String> {
        fn name<G: Geometry>(_: &Position<G>, from: usize, to: usize) -> Option<String> {
            let square = |i: usize| Square::<G>::new(u8::try_from(i).ok()?);
            Some(format!("{}-{}", square(from)?, square(to)?))
        }
        each_size!(&self.position, p => name(p, from, to))
    }

    /// Plays the move from square index `from` to `to` (see [`Game::legal_move_indices`]), or
    /// refuses it with the game unchanged, as [`Game::play`] does.
    pub fn play_indices(&mut self, from: usize, to: usize) -> Result<(), GameError> {
        each_size!(&mut self.position, p => play_indices(p, from, to))?;
        self.recorded = None;
        Ok(())
    }

    /// Plays `mv` (`d1-d3` or `d1d3`, captures not written), or refuses it with the game
    /// unchanged: a move that cannot be read, is not legal here, or comes after the end.
    pub fn play(&mut self, mv: &str) -> Result<(), GameError> {
        each_size!(&mut self.position, p => play(p, mv))?;
        self.recorded = None;
        Ok(())
    }

    /// Takes back the last move played.
    pub fn undo(&mut self) -> Result<(), GameError> {
        each_size!(&mut self.position, p => p.undo().map(drop).ok_or(GameError::NothingToUndo))?;
        self.recorded = None;
        Ok(())
    }

    /// The moves played since the start, as `d1-d3`.
    pub fn moves(&self) -> Vec<String> {
        each_size!(&self.position, p => p.moves().map(text).collect())
    }

    /// How the game ended (the winner, `None` for a draw, and why), or `None` while it goes
    /// on.
    ///
    /// ```
    /// use hnefi_rules::{Game, Reason, Side};
    ///
    /// // The king one step from the corner a1, the defenders to move.
    /// let mut game = Game::new("copenhagen", Some("11/11/11/11/11/11/11/11/11/1k9/9aa d"))?;
    /// assert_eq!(game.outcome(), None);
    /// game.play("b2-a2")?;
    /// game.play("k1-k2")?;
    /// game.play("a2-a1")?;
    /// let end = game.outcome().expect("the king reached a corner");
    /// assert_eq!((end.winner, end.reason), (Some(Side::Defenders), Reason::KingEscaped));
    /// # Ok::<(), hnefi_rules::GameError>(())
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
    /// use hnefi_rules::Game;
    ///
    /// let game = Game::new("copenhagen", None)?;
    /// assert_eq!(game.perft(1), 116);
    /// assert_eq!(game.perft(2), 6_788);
    /// # Ok::<(), hnefi_rules::GameError>(())
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        each_size!(&self.position, p => crate::perft::perft(p.board(), depth, p.rules()))
    }

    /// The position as [`PLANES`] planes of `side * side` bytes, the form a network or an
    /// array library takes: 1 where an attacker, a defender (the king not among them), the
    /// king stands, then a plane of 1s when the attackers are to move and of 0s when the
    /// defenders are; square `a1` first in each, then along the rank (`rank * side + file`).
    ///
    /// ```
    /// use hnefi_rules::{Game, PLANES};
    ///
    /// let game = Game::new("brandubh", None)?;
    /// let planes = game.planes();
    /// assert_eq!(planes.len(), PLANES * 49);
    /// assert_eq!(planes[2 * 49 + 24], 1, "the king on the throne, d4");
    /// assert!(planes[3 * 49..].iter().all(|&b| b == 0), "Brandubh's defenders move first");
    /// # Ok::<(), hnefi_rules::GameError>(())
    /// ```
    pub fn planes(&self) -> Vec<u8> {
        let squares = usize::from(self.width()).pow(2);
        let mut bytes = vec![0; PLANES * squares];
        each_size!(&self.position, p => write_planes(p, &mut bytes));
        bytes
    }

    /// The position, held as the [`AnySize`] of its size: for an engine, which runs the code
    /// compiled for that size on it with [`each_size!`](crate::each_size).
    pub fn held(&self) -> &AnySize<Positions> {
        &self.position
    }

    /// This game's rules with `position` in place of its own (of the same size): how a
    /// [`Batch`](crate::Batch) shows one of its games.
    pub(crate) fn with_position(&self, position: AnySize<Positions>) -> Game {
        Game {
            position,
            named: self.named.clone(),
            recorded: None,
            players: None,
        }
    }
}

/// A game of `G` under `named`, from `fen` or from the rules' start.
fn start<G: Geometry>(named: &NamedRules, fen: Option<&str>) -> Result<Game, GameError> {
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
        position: hold(position),
        named: named.clone(),
        recorded: None,
        players: None,
    })
}

fn hold<G: Geometry>(position: Position<G>) -> AnySize<Positions> {
    G::hold::<Positions>(position)
}

/// The start of `named` on the board of `G`.
fn rules_start<G: Geometry>(named: &NamedRules) -> Result<Board<G>, GameError> {
    named.start_board::<G>().map_err(|e| GameError::Position {
        text: named.start.clone(),
        reason: e.to_string(),
    })
}

/// The game of the record `line` on the board of `G`, under `named`.
fn read_record<G: Geometry>(line: &str, named: NamedRules) -> Result<Game, GameError> {
    let record = GameRecord::<G>::parse(line)?;
    let start = match record.start {
        Some(start) => start,
        None => rules_start(&named)?,
    };
    let position = replay(start, named.rules, &record.moves)?;
    Ok(Game {
        position: hold(position),
        named,
        recorded: Some(Recorded {
            result: record.result,
            timeout: record.timeout,
        }),
        players: None,
    })
}

/// The game of the `.otg` file's `text` on the board of `G`, under `named`.
fn read_otg<G: Geometry>(text: &str, named: NamedRules) -> Result<Game, GameError> {
    let parsed = otg::parse_any::<G>(text)?;
    let start = match parsed.start {
        Some(start) => start,
        None => rules_start(&named)?,
    };
    let named = by_preset(named, &start);
    let position = replay(start, named.rules, &parsed.moves)?;
    let players = match (parsed.tag("attackers"), parsed.tag("defenders")) {
        (None, None) => None,
        (a, d) => Some((a.unwrap_or("").to_string(), d.unwrap_or("").to_string())),
    };
    Ok(Game {
        position: hold(position),
        named,
        recorded: Some(Recorded {
            result: parsed.verdict(),
            timeout: false,
        }),
        players,
    })
}

/// The preset an `.otg` file's rules string means, if it means one: rules equal to the
/// preset's, or the very rules string [`Game::to_otg`] writes for the preset from `start`
/// (which for rules OpenTafl has no key for, Copenhagen's among them, reads as OpenTafl's
/// nearest); the preset it names first. So a record of it writes `copenhagen` rather than
/// the rules string, and the game is replayed under the rules it was played by.
fn by_preset<G: Geometry>(named: NamedRules, start: &Board<G>) -> NamedRules {
    let text = named.name.trim();
    let start = to_opentafl(start);
    std::iter::once(named.rules.preset)
        .chain(Preset::ALL)
        .find(|&preset| {
            let rules = Rules::preset(preset);
            rules.width == G::SIDE && (rules == named.rules || rules_string(&rules, &start) == text)
        })
        .map_or(named, NamedRules::preset)
}

/// The game of `moves` from `start` under `rules`, each move checked as [`Game::play`] checks
/// it.
fn replay<G: Geometry>(
    start: Board<G>,
    rules: Rules,
    moves: &[RecordMove<G>],
) -> Result<Position<G>, GameError> {
    let mut position = Position::checked(start, rules)?;
    for (i, m) in moves.iter().enumerate() {
        check(&position, m.mv).map_err(|reason| GameError::Replay {
            ply: i + 1,
            text: record_move(m.mv, m.captures),
            reason,
        })?;
        position.play(m.mv);
    }
    Ok(position)
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

/// Whether `mv` may be played here. The legal list is the one judge: it knows the repetition
/// rules that forbid a move which the board alone allows.
fn check<G: Geometry>(position: &Position<G>, mv: Move<G>) -> Result<(), ReplayRefusal> {
    if let Some(end) = position.outcome() {
        return Err(ReplayRefusal::After(end));
    }
    if !legal(position).contains(&mv) {
        return Err(ReplayRefusal::Illegal(illegal_reason(position, mv)));
    }
    Ok(())
}

/// Why `mv`, not among the legal moves, is refused: the board's own reason (no piece there, a
/// blocked path, a square it may not stop on), as the command line gives it; a move the board
/// allows is one the rules that look back forbid.
fn illegal_reason<G: Geometry>(position: &Position<G>, mv: Move<G>) -> Refusal {
    let side = position.side_to_move();
    match position.board().check_move_under(mv, position.rulebook()) {
        Err(MoveError::NoPiece { from, .. }) => Refusal::NoPiece {
            side,
            from: from.to_string(),
        },
        Err(MoveError::NotStraight(_)) => Refusal::NotStraight { side },
        Err(MoveError::Blocked { at, .. }) => Refusal::Blocked {
            side,
            at: at.to_string(),
        },
        // The rulebook's check names the piece; the board's own (throne and corners) does not.
        Err(MoveError::Restricted(square)) => Refusal::NoStop {
            side,
            piece: position
                .board()
                .piece_at(mv.from())
                .map_or("piece", Piece::name),
            square: square.to_string(),
        },
        Err(MoveError::NoStop { mv, piece }) => Refusal::NoStop {
            side,
            piece,
            square: mv.to().to_string(),
        },
        Err(MoveError::Forbidden { piece, .. }) => Refusal::Forbidden { side, piece },
        // The list is the judge: a move the board allows but the list lacks is one the rules
        // that look back forbid (the game's end was checked before).
        Err(MoveError::Repeats(_) | MoveError::GameOver(_)) | Ok(()) => Refusal::Repeats { side },
    }
}

/// `text` read as a move of `G`'s board, or the notation's reason why not.
fn read_move<G: Geometry>(text: &str) -> Result<Move<G>, GameError> {
    Move::<G>::parse(text).map_err(|e| {
        // The notation's error names the move itself; the error around it does too.
        let why = e.to_string();
        let prefix = format!("move '{text}': ");
        GameError::Move {
            text: text.to_string(),
            reason: Refusal::Unreadable(
                why.strip_prefix(&prefix)
                    .map_or(why.clone(), str::to_string),
            ),
        }
    })
}

fn play<G: Geometry>(position: &mut Position<G>, text: &str) -> Result<(), GameError> {
    let refused = |reason: Refusal| GameError::Move {
        text: text.to_string(),
        reason,
    };
    if let Some(end) = position.outcome() {
        return Err(GameError::Over(end));
    }
    let mv = read_move::<G>(text)?;
    check(position, mv).map_err(|refusal| match refusal {
        ReplayRefusal::After(end) => GameError::Over(end),
        ReplayRefusal::Illegal(why) => refused(why),
    })?;
    position.play(mv);
    Ok(())
}

pub(crate) fn play_indices<G: Geometry>(
    position: &mut Position<G>,
    from: usize,
    to: usize,
) -> Result<(), GameError> {
    if from >= G::SQUARES || to >= G::SQUARES {
        return Err(GameError::Index {
            from,
            to,
            side: G::SIDE,
        });
    }
    if let Some(end) = position.outcome() {
        return Err(GameError::Over(end));
    }
    let found = legal(position)
        .iter()
        .copied()
        .find(|m| m.from().index() == from && m.to().index() == to);
    match found {
        Some(mv) => {
            position.play(mv);
            Ok(())
        }
        None => {
            // Both are on the board: checked above.
            let square = |i: usize| Square::<G>::from_index(i as u8);
            let reason = if from == to {
                Refusal::SameSquare {
                    square: square(from).to_string(),
                }
            } else {
                illegal_reason(position, Move::new(square(from), square(to)))
            };
            Err(GameError::Move {
                text: format!("{}-{}", square(from), square(to)),
                reason,
            })
        }
    }
}

/// Writes `position` as [`Game::planes`] describes into `out`, `PLANES * G::SQUARES` bytes:
/// the one writer of the planes, for a game and for a [`Batch`](super::Batch).
pub(crate) fn write_planes<G: Geometry>(position: &Position<G>, out: &mut [u8]) {
    let (pieces, to_move) = out.split_at_mut(3 * G::SQUARES);
    pieces.fill(0);
    let board = position.board();
    let king = crate::board::Bitboard::from_square(board.king());
    for (plane, squares) in [board.attackers(), board.defenders(), king]
        .into_iter()
        .enumerate()
    {
        for square in squares {
            pieces[plane * G::SQUARES + square.index()] = 1;
        }
    }
    to_move.fill(u8::from(position.side_to_move() == Side::Attackers));
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
    fn a_refusal_names_its_reason() {
        let mut game = Game::new("copenhagen", None).unwrap();
        let side = Side::Attackers;
        let reason = |game: &mut Game, mv: &str| match game.play(mv) {
            Err(GameError::Move { reason, .. }) => reason,
            other => panic!("{mv}: {other:?}"),
        };
        let s = |s: &str| s.to_string();
        assert_eq!(
            reason(&mut game, "e5-e2"),
            Refusal::NoPiece {
                side,
                from: s("e5")
            }
        );
        assert_eq!(reason(&mut game, "d1-e2"), Refusal::NotStraight { side });
        assert_eq!(
            reason(&mut game, "a4-a9"),
            Refusal::Blocked { side, at: s("a5") }
        );
        assert_eq!(
            reason(&mut game, "d1-a1"),
            Refusal::NoStop {
                side,
                piece: "attacker",
                square: s("a1")
            }
        );
        assert!(matches!(
            reason(&mut game, "z9-z10"),
            Refusal::Unreadable(_)
        ));
        assert_eq!(
            game.play("d1-a1").unwrap_err().to_string(),
            "move 'd1-a1': not legal for the attackers here: the rules let no attacker stop on a1; \
             `legal_moves()` lists the legal ones"
        );
        assert_eq!(
            game.play_indices(3, 3),
            Err(GameError::Move {
                text: s("d1-d1"),
                reason: Refusal::SameSquare { square: s("d1") }
            })
        );
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
    fn a_refusal_says_why_as_the_command_line_does() {
        let mut game = Game::new("copenhagen", None).unwrap();
        let why = |game: &mut Game, mv: &str| game.play(mv).unwrap_err().to_string();
        assert_eq!(
            why(&mut game, "a1a2"),
            "move 'a1a2': not legal for the attackers here: there is no piece of the \
             attackers on a1; `legal_moves()` lists the legal ones"
        );
        assert!(
            why(&mut game, "e1e9").contains("it is blocked by the piece on e5"),
            "{}",
            why(&mut game, "e1e9")
        );
        assert!(
            why(&mut game, "zz99").starts_with("move 'zz99': file 'z'"),
            "{}",
            why(&mut game, "zz99")
        );
        assert!(!why(&mut game, "zz99").contains("move 'zz99': move"));
    }

    #[test]
    fn the_planes_hold_every_piece_once_and_the_side_to_move() {
        let mut game = Game::new("copenhagen-13", None).unwrap();
        let planes = game.planes();
        let plane = |p: usize| &planes[p * 169..(p + 1) * 169];
        let pieces = |p: usize| plane(p).iter().map(|&b| usize::from(b)).sum::<usize>();
        assert_eq!(planes.len(), PLANES * 169);
        assert_eq!((pieces(0), pieces(1), pieces(2)), (32, 16, 1));
        assert_eq!(plane(2)[84], 1, "the king on the throne, g7");
        assert_eq!(pieces(3), 169, "the attackers to move");
        let first = game.legal_moves()[0].clone();
        game.play(&first).unwrap();
        assert!(
            game.planes()[3 * 169..].iter().all(|&b| b == 0),
            "the defenders to move"
        );
    }

    #[test]
    fn indices_are_the_legal_moves_without_their_text() {
        for preset in crate::board::Preset::ALL {
            let mut game = Game::new(preset.name(), None).unwrap();
            let n = usize::from(game.width());
            let square = |i: usize| format!("{}{}", char::from(b'a' + (i % n) as u8), i / n + 1);
            for _ in 0..6 {
                let text: Vec<String> = game
                    .legal_move_indices()
                    .iter()
                    .map(|&(from, to)| format!("{}-{}", square(from), square(to)))
                    .collect();
                assert_eq!(text, game.legal_moves(), "{preset}");
                let (from, to) = game.legal_move_indices()[text.len() / 2];
                game.play_indices(from, to).unwrap();
            }
        }
        let mut game = Game::new("copenhagen", None).unwrap();
        let before = game.clone();
        assert_eq!(
            game.play_indices(3, 121).unwrap_err().to_string(),
            "squares 3 to 121: a square index is rank * 11 + file, from 0 to 120 on this board"
        );
        assert_eq!(
            game.play_indices(0, 1).unwrap_err().to_string(),
            "move 'a1-b1': not legal for the attackers here: there is no piece of the attackers on a1; `legal_moves()` lists the legal ones"
        );
        assert!(game.play_indices(3, 3).is_err());
        assert_eq!(game.moves(), before.moves());
    }

    #[test]
    fn a_clone_goes_its_own_way() {
        let mut game = Game::new("tablut", None).unwrap();
        let first = game.legal_moves()[0].clone();
        game.play(&first).unwrap();
        let mut copy = game.clone();
        let second = copy.legal_moves()[0].clone();
        copy.play(&second).unwrap();
        assert_eq!(game.moves(), std::slice::from_ref(&first));
        assert_eq!(copy.moves(), [first, second]);
        copy.undo().unwrap();
        assert_eq!(copy.fen(), game.fen());
        assert_eq!(copy.to_record(), game.to_record());
    }

    #[test]
    fn records_read_and_write_back() {
        // A real game's opening, then one lost on time and one from another start.
        for line in [
            "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Ongoing",
            "d1-d3 e5-e2 timeout,0,0,Black",
            "c4-c6 d6-f6,0,0,Draw,brandubh",
        ] {
            let game = Game::from_record(line, None).unwrap();
            assert_eq!(game.to_record(), line);
        }
        let mut game = Game::from_record("d1-d3 e5-e2 timeout,0,0,Black\n\n", None).unwrap();
        assert_eq!(game.rules_name(), "copenhagen");
        // Played on, the game's result is its own again.
        game.play("a4-a2").unwrap();
        assert_eq!(game.to_record(), "d1-d3 e5-e2 a4-a2,0,0,Ongoing");
        // The rules of the line, or the caller's where the line names none.
        let brandubh = Game::from_record("c4-c6,0,0,Ongoing", Some("brandubh")).unwrap();
        assert_eq!((brandubh.width(), brandubh.rules_name()), (7, "brandubh"));
        assert_eq!(brandubh.to_record(), "c4-c6,0,0,Ongoing,brandubh");
        let named = Game::from_record("c4-c6,0,0,Ongoing,brandubh", Some("brandubh"));
        assert!(named.is_ok());
        // From another start: the sixth field.
        let mut game = Game::new("copenhagen", Some(&brandubh_fen_as_11())).unwrap();
        game.play("a1-a2").unwrap();
        let line = game.to_record();
        assert!(line.starts_with("a1-a2,0,0,Ongoing,copenhagen,"), "{line}");
        let back = Game::from_record(&line, None).unwrap();
        assert_eq!((back.fen(), back.to_record()), (game.fen(), line));
        // An empty game is a record too.
        let empty = Game::new("copenhagen", None).unwrap();
        assert_eq!(empty.to_record(), ",0,0,Ongoing");
        assert_eq!(
            Game::from_record(",0,0,Ongoing", None)
                .unwrap()
                .moves()
                .len(),
            0
        );
    }

    /// An 11x11 position with an attacker on a1 and the king in the middle.
    fn brandubh_fen_as_11() -> String {
        "11/11/11/11/11/5k5/11/11/11/11/a10 a".to_string()
    }

    #[test]
    fn bad_records_say_what_is_wrong() {
        let e = |line: &str, rules: Option<&str>| {
            Game::from_record(line, rules).unwrap_err().to_string()
        };
        assert_eq!(
            e("d1-d3,0,0", None),
            "record: expected 4 comma-separated fields (moves, captures, captures, result), or \
             5 with the rules, or 6 with the start; found 3"
        );
        assert!(e("d1-z3,0,0,Ongoing", None).starts_with("record: move 1: "));
        assert_eq!(
            e("d1-d3,0,0,Maybe", None),
            "record: unknown result 'Maybe' (known: Black, White, Draw, Ongoing)"
        );
        assert_eq!(
            e("d1-d3 d3-d1,0,0,Ongoing", None),
            "move 2 (d3-d1): not legal for the defenders here: there is no piece of the defenders on d3"
        );
        assert_eq!(
            e("d1-d3,0,0,Ongoing\nd1-d3,0,0,Ongoing", None),
            "the text holds 2 record lines: a record is one game a line, so read each line on \
             its own"
        );
        assert_eq!(
            e("c4-c6,0,0,Ongoing,brandubh", Some("tablut")),
            "the record names the rules 'brandubh', not 'tablut': leave the rules out, or give \
             the record's"
        );
        assert!(e("d1-d3,0,0,Ongoing", Some("chess")).contains("unknown rules preset 'chess'"));
        assert!(matches!(
            Game::from_record("d1-d3,0,0,Ongoing,chess", None),
            Err(GameError::Rules(_))
        ));
        // A move after the end.
        let won = "11/11/11/11/11/11/11/11/11/1k9/9aa d";
        let mut game = Game::new("copenhagen", Some(won)).unwrap();
        for mv in ["b2-a2", "k1-k2", "a2-a1"] {
            game.play(mv).unwrap();
        }
        let line = game.to_record().replacen(",", " k2-k3,", 1);
        assert!(
            e(&line, None).starts_with("move 4 (k2-k3): the game was over before it"),
            "{}",
            e(&line, None)
        );
    }

    #[test]
    fn otg_files_read_and_write_back() {
        let text = "[date:2015.01.07]
[result:-1]
[attackers:Tim]
[defenders:Schachus]
[rules:dim:11 atkf:y sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/]

1. d1-d3 h6-h9
[A standard opening.]
2. k4-i4 e5-e2+
2a.1.1a. d5-f5 Ke6-e7
";
        let game = Game::from_otg(text).unwrap();
        assert_eq!(game.moves(), ["d1-d3", "h6-h9", "k4-i4", "e5-e2"]);
        let written = game.to_otg();
        assert!(written.contains("[attackers:Tim]\n[defenders:Schachus]\n[result:-1]\n"));
        assert!(
            written.ends_with("\n1. d1-d3 h6-h9\n2. k4-i4 e5-e2\n"),
            "{written}"
        );
        let back = Game::from_otg(&written).unwrap();
        assert_eq!((back.fen(), back.moves()), (game.fen(), game.moves()));
        assert_eq!(back.to_otg(), written);
        // Rules that are no preset's are written as their rules string.
        let record = back.to_record();
        assert!(
            record.contains(",0,0,White,dim:11 name:Copenhagen sw:s efe:y start:/"),
            "{record}"
        );
        assert_eq!(
            Game::from_record(&record, None).unwrap().to_record(),
            record
        );
        // Every preset, from its start and after a few moves, and a game without moves.
        for preset in crate::board::Preset::ALL {
            let mut game = Game::new(preset.name(), None).unwrap();
            for _ in 0..5 {
                let back = Game::from_otg(&game.to_otg()).unwrap();
                assert_eq!(
                    (back.fen(), back.moves()),
                    (game.fen(), game.moves()),
                    "{preset}"
                );
                // Rules OpenTafl has no key for are written as its nearest (Copenhagen's
                // repetition, Fetlar's throne hostile to the defenders but not the king), yet
                // the string Hnefi writes for a preset reads back as that preset; where two
                // presets write the same string (the Copenhagen rules of 2017, of
                // hnefatafl.org and of today), as the one the string names.
                assert_eq!(back.to_otg(), game.to_otg(), "{preset}");
                use crate::board::Preset::{Copenhagen, Copenhagen2017, HnefataflOrg};
                let read_as = match preset {
                    Copenhagen2017 | HnefataflOrg => Copenhagen,
                    other => other,
                };
                assert_eq!(back.rules_name(), read_as.name());
                assert_eq!(*back.rules(), Rules::preset(read_as), "{preset}");
                let mv = game.legal_moves()[0].clone();
                game.play(&mv).unwrap();
            }
        }
        let e = |t: &str| Game::from_otg(t).unwrap_err().to_string();
        assert_eq!(
            e("1. d1-d3 d3-d1\n"),
            "move 2 (d3-d1): not legal for the defenders here: there is no piece of the defenders on d3"
        );
        assert_eq!(
            e("1. d1-d3\nhello\n"),
            "otg: line 2: 'hello' is not a move number like '12.'"
        );
        assert!(e("[rules:dim:8 start:/8/]\n1. a1-a2\n").contains("8"));
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
        assert_eq!(Game::new(opentafl, None).unwrap().width(), 7);
    }
}
