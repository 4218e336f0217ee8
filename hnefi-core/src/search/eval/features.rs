//! The evaluation's features: what it sees of a position, as counts of numbered features.
//! The evaluation is a weighted sum of them ([`super::evaluate`]), and the tuner fits the
//! weights to game results from the same counts, so the two can never disagree.
//!
//! Every feature is counted from the attackers' point of view: a positive weight favours the
//! attackers. Square features are folded by the board's eight symmetries, and the corner
//! patterns by the four corners and the diagonal through each.

use super::super::params::{LONE_KING_SQUEEZE_DISTANCE, PHASE_PIECES, SQUEEZE_EDGE_SQUARES};
use crate::board::geometry::{MAX_SQUARES, Word};
use crate::board::rules::Escape;
use crate::board::square::Direction;
use crate::board::{Bitboard, Board, Custodial, Rulebook, Square};
use crate::board::{Geometry, Piece, Side};

/// A named run of feature numbers, for people and for the tuner's report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Its name, for people.
    pub name: &'static str,
    /// Its first feature.
    pub start: usize,
    /// How many features it has.
    pub len: usize,
}

const fn after(g: Group) -> usize {
    g.start + g.len
}

/// Squares up to the board's symmetries: a triangle of 21 of the 121.
pub const FOLDED_SQUARES: usize = 21;
/// Squares of a corner pattern, and the patterns of three states each (3^8).
const PATTERN_SQUARES: usize = 8;
/// The patterns of a corner: 3^8, three states for each of its eight squares.
pub const PATTERNS: usize = 6561;

/// An attacker on a folded square.
pub const ATTACKER_SQ: Group = Group {
    name: "attacker squares",
    start: 0,
    len: FOLDED_SQUARES,
};
/// A defender on a folded square.
pub const DEFENDER_SQ: Group = Group {
    name: "defender squares",
    start: after(ATTACKER_SQ),
    len: FOLDED_SQUARES,
};
/// The king on a folded square.
pub const KING_SQ: Group = Group {
    name: "king square",
    start: after(DEFENDER_SQ),
    len: FOLDED_SQUARES,
};
/// One-hot: king moves to the nearest corner, 1 (an open line) to 4 (four or more).
pub const CORNER_DISTANCE: Group = Group {
    name: "corner distance",
    start: after(KING_SQ),
    len: 4,
};
/// One-hot: how many corners the king reaches in at most two moves, 0 to 4.
pub const CORNER_ROUTES: Group = Group {
    name: "corner routes",
    start: after(CORNER_DISTANCE),
    len: 5,
};
/// One-hot: squares the king reaches in one move that see two corners (a fork), 0, 1, 2+.
pub const FORKS: Group = Group {
    name: "king forks",
    start: after(CORNER_ROUTES),
    len: 3,
};
/// The number of squares the king can move to.
pub const KING_FREEDOM: Group = Group {
    name: "king freedom",
    start: after(FORKS),
    len: 1,
};
/// One-hot: board edges the king reaches in one move, 0 to 4.
pub const KING_EDGES: Group = Group {
    name: "king edges",
    start: after(KING_FREEDOM),
    len: 5,
};
/// Edge squares the defenders reach without crossing an attacker.
pub const OPEN_EDGE: Group = Group {
    name: "open edge",
    start: after(KING_EDGES),
    len: 1,
};
/// 1 when the defenders cannot reach the edge at all: the ring is closed.
pub const RING_CLOSED: Group = Group {
    name: "ring closed",
    start: after(OPEN_EDGE),
    len: 1,
};
/// One-hot: attackers beside the king, 0 to 4.
pub const KING_PRESSURE: Group = Group {
    name: "king pressure",
    start: after(RING_CLOSED),
    len: 5,
};
/// Pieces the other side can capture with one move (capped at 3), split by whether that side
/// is to move: attackers hanging with the defenders to move, with the attackers to move,
/// then defenders hanging with the attackers to move, with the defenders to move.
pub const HANGING: Group = Group {
    name: "hanging pieces",
    start: after(KING_PRESSURE),
    len: 4,
};
/// Legal moves of the attackers, then of the defenders.
pub const MOBILITY: Group = Group {
    name: "mobility",
    start: after(HANGING),
    len: 2,
};
/// 1 when the attackers are to move.
pub const TEMPO: Group = Group {
    name: "tempo",
    start: after(MOBILITY),
    len: 1,
};
/// Always 1: with the phase blend, a term of the material left.
pub const BIAS: Group = Group {
    name: "bias",
    start: after(TEMPO),
    len: 1,
};
/// The contents of the eight squares next to each corner (a1's: b1 c1 a2 b2 c2 a3 b3 c3),
/// empty, attacker, or defender or king, as a pattern number shared by all corners.
pub const CORNER_PATTERN: Group = Group {
    name: "corner patterns",
    start: after(BIAS),
    len: PATTERNS,
};

/// Squares the defenders reach without crossing an attacker, their own included: the room
/// the attackers' ring leaves them.
pub const DEFENDER_ROOM: Group = Group {
    name: "defender room",
    start: after(CORNER_PATTERN),
    len: 1,
};
/// One-hot: defenders beside the king, 0 to 4.
pub const KING_GUARDS: Group = Group {
    name: "king guards",
    start: after(DEFENDER_ROOM),
    len: 5,
};

/// One-hot: attackers within two squares of the king (its 5x5 box), 0 to 8 or more: the
/// net closing on a king in the open, where capture needs four.
pub const KING_CROWD: Group = Group {
    name: "king crowd",
    start: after(KING_GUARDS),
    len: 9,
};
/// Squares the king reaches in at most two moves: how far the net has shut it in.
pub const KING_REACH2: Group = Group {
    name: "king two-move reach",
    start: after(KING_CROWD),
    len: 1,
};
/// Pairs of attackers touching diagonally: links of a wall no piece passes orthogonally.
pub const ATTACKER_LINKS: Group = Group {
    name: "attacker links",
    start: after(KING_REACH2),
    len: 1,
};
/// The squares, then the edge squares, the defenders reach without crossing an attacker or
/// a square beside one: the ring as it will be once its gaps are shut, which gives the
/// attackers a gradient long before [`RING_CLOSED`] does.
pub const SOFT_ROOM: Group = Group {
    name: "soft room",
    start: after(ATTACKER_LINKS),
    len: 2,
};

/// When the defenders reach no square beside a corner, so that only captures can let the
/// king out, or when the king stands alone three moves or more from every corner: the
/// squares they cannot reach, then those they cannot reach softly (as [`SOFT_ROOM`]). A lone
/// king is taken by shutting him in; without this the attackers circled him until the move
/// limit, and counting it nearer the corners drew them away from guarding them. Self-play rarely
/// shows either, so the fit cannot find these weights; they are set by hand and kept by
/// matches.
pub const SQUEEZE: Group = Group {
    name: "squeeze",
    start: after(SOFT_ROOM),
    len: 2,
};

/// Groups whose weights the tuner leaves as they are: see [`SQUEEZE`].
pub const HAND_SET: [Group; 1] = [SQUEEZE];

/// Every group, in feature order.
pub const GROUPS: [Group; 23] = [
    ATTACKER_SQ,
    DEFENDER_SQ,
    KING_SQ,
    CORNER_DISTANCE,
    CORNER_ROUTES,
    FORKS,
    KING_FREEDOM,
    KING_EDGES,
    OPEN_EDGE,
    RING_CLOSED,
    KING_PRESSURE,
    HANGING,
    MOBILITY,
    TEMPO,
    BIAS,
    CORNER_PATTERN,
    DEFENDER_ROOM,
    KING_GUARDS,
    KING_CROWD,
    KING_REACH2,
    ATTACKER_LINKS,
    SOFT_ROOM,
    SQUEEZE,
];

/// The number of features.
pub const FEATURES: usize = after(SQUEEZE);

/// Per board size: each square's place among the folded squares and its 5x5 box.
pub struct FeatureTables<G: Geometry> {
    fold: [u8; MAX_SQUARES],
    box2: [Bitboard<G>; MAX_SQUARES],
}

impl<G: Geometry> FeatureTables<G> {
    /// The tables of `G`.
    pub fn new() -> Self {
        let side = G::SIDE as usize;
        let mut fold = [0u8; MAX_SQUARES];
        let mut box2 = [Bitboard::EMPTY; MAX_SQUARES];
        for sq in Bitboard::<G>::ALL {
            let (f, r) = (sq.file() as usize, sq.rank() as usize);
            fold[sq.index()] = fold_coords(f.min(side - 1 - f), r.min(side - 1 - r), side);
            let mut b = Bitboard::from_square(sq);
            for _ in 0..2 {
                b = b | b.shift(Direction::East) | b.shift(Direction::West);
            }
            for _ in 0..2 {
                b = b | b.shift(Direction::North) | b.shift(Direction::South);
            }
            box2[sq.index()] = b;
        }
        FeatureTables { fold, box2 }
    }

    #[inline(always)]
    /// The folded place of `sq` (see [`FOLDED_SQUARES`]).
    pub fn fold(&self, sq: Square<G>) -> usize {
        self.fold[sq.index()] as usize
    }
}

impl<G: Geometry> Default for FeatureTables<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// The folded place of a square `d` files and `e` ranks in from the nearest edges, on a board
/// of `side`: the lower-left quarter's triangle of 11x11 (21 places), other sides' distances
/// scaled onto it, so that an edge is an edge and the centre the centre on every board and
/// the weights of one board are a start for another's.
const fn fold_coords(d: usize, e: usize, side: usize) -> u8 {
    let half = side.div_ceil(2) - 1;
    let (f, r) = ((d * 5 + half / 2) / half, (e * 5 + half / 2) / half);
    let (a, b) = if f >= r { (f, r) } else { (r, f) };
    (a * (a + 1) / 2 + b) as u8
}

/// Where the features go: summed with weights by the evaluation, kept by the tuner.
pub trait Sink<G: Geometry> {
    /// Adds `count` of `feature`.
    fn add(&mut self, feature: usize, count: i32);

    /// One count of `group.start + fold(sq)` for each square of `squares`, for the square
    /// groups ([`ATTACKER_SQ`], [`DEFENDER_SQ`], [`KING_SQ`]).
    #[inline(always)]
    fn add_squares(&mut self, group: Group, squares: Bitboard<G>, tables: &FeatureTables<G>) {
        squares.for_each_square(|sq| self.add(group.start + tables.fold(sq), 1));
    }
}

/// A pattern and its mirror image in the corner's diagonal are one feature: the smaller of
/// the two numbers. The mirror swaps b1/a2, c1/a3 and c2/b3.
const CANONICAL: [u16; PATTERNS] = {
    const MIRROR: [usize; PATTERN_SQUARES] = [2, 5, 0, 3, 6, 1, 4, 7];
    let mut t = [0u16; PATTERNS];
    let mut p = 0;
    while p < PATTERNS {
        let mut digits = [0usize; PATTERN_SQUARES];
        let mut q = p;
        let mut i = 0;
        while i < PATTERN_SQUARES {
            digits[i] = q % 3;
            q /= 3;
            i += 1;
        }
        let mut m = 0;
        let mut i = PATTERN_SQUARES;
        while i > 0 {
            i -= 1;
            m = m * 3 + digits[MIRROR[i]];
        }
        t[p] = if m < p { m as u16 } else { p as u16 };
        p += 1;
    }
    t
};

/// The pattern number of each corner's three rows of three squares, by the row's attackers
/// (bits 0-2, from the file nearer a) and defenders (bits
/// 3-5): its part of the pattern number, so that a corner's number is the sum of three
/// lookups. `[side][row][bits]`, side 1 for the corners on file k, whose rows read backwards.
/// The corner square itself counts nothing.
const ROW_DIGITS: [[[u16; 64]; 3]; 2] = {
    let mut t = [[[0u16; 64]; 3]; 2];
    let mut side = 0;
    while side < 2 {
        let mut row = 0;
        while row < 3 {
            let mut bits = 0;
            while bits < 64 {
                let mut value = 0u16;
                let mut j = 0;
                while j < 3 {
                    // Bit j is file j of the three, counted from file a; the pattern counts
                    // files from the corner.
                    let f = if side == 1 { 2 - j } else { j };
                    let state = ((bits >> j) & 1) + (((bits >> (j + 3)) & 1) << 1);
                    if state != 0 && !(row == 0 && f == 0) {
                        let digit = if row == 0 { f - 1 } else { 3 * row + f - 1 };
                        let mut power = 1u16;
                        let mut k = 0;
                        while k < digit {
                            power *= 3;
                            k += 1;
                        }
                        value += state as u16 * power;
                    }
                    j += 1;
                }
                t[side][row][bits] = value;
                bits += 1;
            }
            row += 1;
        }
        side += 1;
    }
    t
};

/// The pattern numbers at the four corners (a1, then the last file's, then the last rank's),
/// mirrored ones made one.
#[inline]
pub fn corner_patterns<G: Geometry>(board: &Board<G>) -> [usize; 4] {
    // Helpers always inlined, so that every shift below is by a constant: on 13x13's three
    // words a shift by a variable is a loop, and the compiler left these closures calls.
    /// The three squares of `rank` from `file` on, attackers in bits 0-2 and defenders in 3-5.
    #[inline(always)]
    fn row<G: Geometry>(attackers: G::Word, defenders: G::Word, rank: usize, file: usize) -> usize {
        let at = (rank * G::SIDE as usize + file) as u32;
        ((attackers >> at).low_u64() & 7 | ((defenders >> at).low_u64() & 7) << 3) as usize
    }
    #[inline(always)]
    fn corner<G: Geometry>(
        (attackers, defenders): (G::Word, G::Word),
        side: usize,
        file: usize,
        ranks: [usize; 3],
    ) -> usize {
        let digits = &ROW_DIGITS[side];
        let p = digits[0][row::<G>(attackers, defenders, ranks[0], file)]
            + digits[1][row::<G>(attackers, defenders, ranks[1], file)]
            + digits[2][row::<G>(attackers, defenders, ranks[2], file)];
        CANONICAL[p as usize] as usize
    }
    let pieces = (board.attackers().0, board.pieces(Side::Defenders).0);
    let last = G::SIDE as usize - 1;
    let (low, high) = ([0, 1, 2], [last, last - 1, last - 2]);
    [
        corner::<G>(pieces, 0, 0, low),
        corner::<G>(pieces, 1, last - 2, low),
        corner::<G>(pieces, 0, 0, high),
        corner::<G>(pieces, 1, last - 2, high),
    ]
}

/// What the king's routes to the escape squares look like: the corners, or on boards won at
/// the edge, the four edges. The four goals are the four corners or the four edges.
pub struct KingRoutes<G: Geometry> {
    /// Squares the king can move to.
    pub reach: Bitboard<G>,
    /// King moves to the nearest escape square, 1 to 4 (4 meaning four or more).
    pub distance: usize,
    /// Goals reached in at most two moves.
    pub routes: u32,
    /// Squares of `reach` that see two goals along open lines.
    pub forks: u32,
    /// Squares the king can reach in at most two moves.
    pub reach2: Bitboard<G>,
}

/// The squares that see each corner (a1, then the last file's, then the last rank's) along
/// an open line, the corners themselves left out: four slides for all corners at once, each
/// kept to the edge its corner lies on.
#[inline(always)]
pub fn corner_sight<G: Geometry>(occupied: Bitboard<G>) -> [Bitboard<G>; 4] {
    let empty = !occupied;
    let corners = Bitboard::<G>::CORNERS;
    let north = corners.slide(Direction::North, empty);
    let south = corners.slide(Direction::South, empty);
    let east = corners.slide(Direction::East, empty);
    let west = corners.slide(Direction::West, empty);
    [
        (north & Bitboard::FILE_A) | (east & Bitboard::RANK_1),
        (north & Bitboard::FILE_LAST) | (west & Bitboard::RANK_1),
        (south & Bitboard::FILE_A) | (east & Bitboard::RANK_LAST),
        (south & Bitboard::FILE_LAST) | (west & Bitboard::RANK_LAST),
    ]
}

/// The four edges, and the squares that see an empty square of each along an open line.
#[inline]
fn edge_sight<G: Geometry>(occupied: Bitboard<G>) -> ([Bitboard<G>; 4], [Bitboard<G>; 4]) {
    let empty = !occupied;
    let edges = [
        Bitboard::RANK_1,
        Bitboard::RANK_LAST,
        Bitboard::FILE_A,
        Bitboard::FILE_LAST,
    ];
    let inwards = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];
    let sight = [0, 1, 2, 3].map(|i| (edges[i] & empty).slide(inwards[i], empty));
    (edges, sight)
}

/// The four corners one by one, in the order of [`corner_sight`].
#[inline(always)]
fn corners<G: Geometry>() -> [Bitboard<G>; 4] {
    let (side, last) = (G::SIDE as usize, G::SQUARES - 1);
    [0, side - 1, last + 1 - side, last].map(|i| Bitboard(G::Word::bit(i)))
}

/// The four goals of the king (the corners, or the edges where the king wins at the edge)
/// and the squares that see each along an open line.
#[inline(always)]
fn goal_sight<G: Geometry>(
    occupied: Bitboard<G>,
    rulebook: &Rulebook<G>,
) -> ([Bitboard<G>; 4], [Bitboard<G>; 4]) {
    match rulebook.rules().escape {
        Escape::Corners => (corners(), corner_sight(occupied)),
        Escape::Edge => edge_sight(occupied),
    }
}

/// The squares from which the king would see an escape square along an open line.
#[inline]
pub fn escape_sight<G: Geometry>(occupied: Bitboard<G>, rulebook: &Rulebook<G>) -> Bitboard<G> {
    let sights = match rulebook.rules().escape {
        Escape::Corners => corner_sight(occupied),
        Escape::Edge => edge_sight(occupied).1,
    };
    sights[0] | sights[1] | sights[2] | sights[3]
}

impl<G: Geometry> KingRoutes<G> {
    #[inline]
    /// The king's routes on `board`.
    pub fn of(board: &Board<G>, rulebook: &Rulebook<G>) -> KingRoutes<G> {
        if rulebook.terrain().classic_escape {
            Self::routes::<true>(board, rulebook)
        } else {
            Self::routes::<false>(board, rulebook)
        }
    }

    /// Whether the king, whose moves on `board` are `reach` (his rook targets), is at most
    /// `moves` king moves from an escape square: [`KingRoutes::of`]'s distance at most
    /// `moves`, without the squares two moves away where one or two moves are asked about.
    pub fn within(
        board: &Board<G>,
        rulebook: &Rulebook<G>,
        reach: Bitboard<G>,
        moves: usize,
    ) -> bool {
        if moves >= 3 {
            return Self::of(board, rulebook).distance <= moves;
        }
        let occupied = board.occupied();
        let (escape, sights) = if rulebook.terrain().classic_escape {
            (Bitboard::CORNERS, corner_sight(occupied))
        } else {
            (rulebook.terrain().escape, goal_sight(occupied, rulebook).1)
        };
        moves >= 1
            && ((reach & escape).any()
                || (moves >= 2 && sights.iter().any(|&seen| (reach & seen).any())))
    }

    /// With `CORNERS` (the terrain's `classic_escape`) the goals are the four corners as
    /// constants, which the evaluation's hot path folds into its masks.
    #[inline(always)]
    fn routes<const CORNERS: bool>(board: &Board<G>, rulebook: &Rulebook<G>) -> KingRoutes<G> {
        let occupied = board.occupied();
        let reach = Bitboard::rook_targets(board.king(), occupied);
        let (escape, (goals, sights)) = if CORNERS {
            (Bitboard::CORNERS, (corners(), corner_sight(occupied)))
        } else {
            (rulebook.terrain().escape, goal_sight(occupied, rulebook))
        };
        let mut sight = Bitboard::EMPTY;
        let mut twice = Bitboard::EMPTY;
        let mut routes = 0;
        for (goal, seen) in goals.into_iter().zip(sights) {
            twice |= sight & seen;
            sight |= seen;
            routes += ((reach & goal).any() || (reach & seen).any()) as u32;
        }
        let empty = !occupied;
        let mut reach2 = reach;
        for dir in Direction::ALL {
            reach2 |= reach.slide(dir, empty);
        }
        let distance = if (reach & escape).any() {
            1
        } else if (reach & sight).any() {
            2
        } else if (reach2 & sight).any() {
            3
        } else {
            4
        };
        KingRoutes {
            reach,
            distance,
            routes,
            forks: (reach & twice).count(),
            reach2,
        }
    }
}

/// Moves of the pieces `soldiers` through `empty` onto `landable`: their number and the
/// squares they reach.
#[inline(always)]
fn reach<G: Geometry>(
    soldiers: Bitboard<G>,
    empty: Bitboard<G>,
    landable: Bitboard<G>,
) -> (u32, Bitboard<G>) {
    let mut count = 0;
    let mut all = Bitboard::EMPTY;
    for dir in Direction::ALL {
        let to = soldiers.slide(dir, empty) & landable;
        count += to.count();
        all |= to;
    }
    (count, all)
}

/// Victims of `mover` that a piece reaching `reach` captures with one move.
#[inline(always)]
fn hanging<G: Geometry>(
    board: &Board<G>,
    mover: Side,
    rulebook: &Rulebook<G>,
    reach: Bitboard<G>,
    empty: Bitboard<G>,
) -> i32 {
    let landings = Custodial::of(board, mover, rulebook).landings(empty);
    let mut victims = Bitboard::EMPTY;
    for dir in Direction::ALL {
        victims |= (landings[dir.index()] & reach).shift(dir);
    }
    victims.count().min(3) as i32
}

/// The doors of `escape`: the squares beside the escape squares, the last step of every
/// escape. While the defenders reach none of them, the squeeze counts.
pub fn doors<G: Geometry>(escape: Bitboard<G>) -> Bitboard<G> {
    escape.neighbours() & !escape
}

/// The phase: soldiers left, capped, so that the weights blend from the opening's (all
/// [`PHASE_PIECES`] on the board) to the ending's (none).
#[inline]
pub fn phase<G: Geometry>(board: &Board<G>) -> i32 {
    ((board.attackers().count() + board.defenders().count()) as i32).min(PHASE_PIECES)
}

/// Counts every feature of `board` into `sink`.
#[inline]
pub fn extract<G: Geometry>(
    board: &Board<G>,
    rulebook: &Rulebook<G>,
    tables: &FeatureTables<G>,
    sink: &mut impl Sink<G>,
) {
    if rulebook.terrain().classic_escape {
        extract_on::<G, true>(board, rulebook, tables, sink)
    } else {
        extract_on::<G, false>(board, rulebook, tables, sink)
    }
}

/// [`extract`], with the corners and the restricted squares as constants when `CLASSIC`
/// (the terrain's `classic_escape`): 11x11's hot path, as fast as before rules had terrain.
#[inline(always)]
fn extract_on<G: Geometry, const CLASSIC: bool>(
    board: &Board<G>,
    rulebook: &Rulebook<G>,
    tables: &FeatureTables<G>,
    sink: &mut impl Sink<G>,
) {
    let attackers = board.attackers();
    let defenders = board.defenders();
    let king = board.king();
    let occupied = board.occupied();
    let empty = !occupied;
    let terrain = rulebook.terrain();

    sink.add_squares(ATTACKER_SQ, attackers, tables);
    sink.add_squares(DEFENDER_SQ, defenders, tables);
    sink.add_squares(KING_SQ, Bitboard::from_square(king), tables);

    let routes = KingRoutes::routes::<CLASSIC>(board, rulebook);
    sink.add(CORNER_DISTANCE.start + routes.distance - 1, 1);
    sink.add(CORNER_ROUTES.start + routes.routes as usize, 1);
    sink.add(FORKS.start + routes.forks.min(2) as usize, 1);
    sink.add(KING_FREEDOM.start, routes.reach.count() as i32);
    let edges = [
        Bitboard::RANK_1,
        Bitboard::RANK_LAST,
        Bitboard::FILE_A,
        Bitboard::FILE_LAST,
    ];
    let edges = edges.iter().filter(|&&e| (routes.reach & e).any()).count();
    sink.add(KING_EDGES.start + edges, 1);

    // The soft room lies inside the room, so the room's fill starts from it and needs only the
    // few steps past squares beside attackers.
    let soft = board
        .pieces(Side::Defenders)
        .flood(!(attackers | attackers.neighbours()));
    let region = soft.flood(!attackers);
    let open_edge = (region & Bitboard::EDGE).count() as i32;
    sink.add(OPEN_EDGE.start, open_edge);
    sink.add(RING_CLOSED.start, (open_edge == 0) as i32);

    sink.add(DEFENDER_ROOM.start, region.count() as i32);
    let beside_king = Bitboard::from_square(king).neighbours();
    sink.add(
        KING_PRESSURE.start + (attackers & beside_king).count() as usize,
        1,
    );
    sink.add(
        KING_GUARDS.start + (defenders & beside_king).count() as usize,
        1,
    );
    let crowd = (attackers & tables.box2[king.index()]).count().min(8);
    sink.add(KING_CROWD.start + crowd as usize, 1);
    sink.add(KING_REACH2.start, routes.reach2.count() as i32);
    let north = attackers.shift(Direction::North);
    let links = (north.shift(Direction::East) & attackers).count()
        + (north.shift(Direction::West) & attackers).count();
    sink.add(ATTACKER_LINKS.start, links as i32);
    sink.add(SOFT_ROOM.start, soft.count() as i32);
    sink.add(SOFT_ROOM.start + 1, (soft & Bitboard::EDGE).count() as i32);
    // The doors: the squares beside the escape squares, the last step of every escape.
    let escape = if CLASSIC {
        Bitboard::CORNERS
    } else {
        terrain.escape
    };
    let doors = doors(escape);
    let sealed = (region & doors).is_empty();
    if sealed || (defenders.is_empty() && routes.distance >= LONE_KING_SQUEEZE_DISTANCE) {
        let squares = G::SQUARES as i32;
        let rules = rulebook.rules();
        // Not the lone king's squeeze with a door open: the lone king's ending (`endgame`)
        // counts his room there.
        let cut_edge = if sealed && (rules.exit_fort || rules.encirclement) {
            SQUEEZE_EDGE_SQUARES * (Bitboard::EDGE & !escape & !region).count() as i32
        } else {
            0
        };
        sink.add(SQUEEZE.start, squares - region.count() as i32 + cut_edge);
        sink.add(SQUEEZE.start + 1, squares - soft.count() as i32);
    }

    let no_stop = if CLASSIC {
        Bitboard::RESTRICTED
    } else {
        terrain.no_stop(Piece::Attacker)
    };
    let landable = empty & !no_stop;
    let (att_moves, att_reach) = reach(attackers, empty, landable);
    let (def_moves, def_reach) = reach(defenders, empty, landable);
    let def_moves = def_moves + routes.reach.count();
    let def_reach = if rulebook.rules().king_hammer {
        def_reach | routes.reach
    } else {
        def_reach
    };
    let attackers_to_move = board.side_to_move() == Side::Attackers;
    let att_hanging = hanging(board, Side::Defenders, rulebook, def_reach, empty);
    let def_hanging = hanging(board, Side::Attackers, rulebook, att_reach, empty);
    let (att_slot, def_slot) = if attackers_to_move { (1, 2) } else { (0, 3) };
    sink.add(HANGING.start + att_slot, att_hanging);
    sink.add(HANGING.start + def_slot, def_hanging);
    sink.add(MOBILITY.start, att_moves as i32);
    sink.add(MOBILITY.start + 1, def_moves as i32);

    sink.add(TEMPO.start, attackers_to_move as i32);
    sink.add(BIAS.start, 1);
    for p in corner_patterns(board) {
        sink.add(CORNER_PATTERN.start + p, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_fen;
    use crate::board::{Bitboard, Board, Eleven, Rulebook, Square};
    use crate::search::size::Size;

    #[test]
    fn groups_tile_the_features() {
        let mut next = 0;
        for g in GROUPS {
            assert_eq!(g.start, next, "{}", g.name);
            next += g.len;
        }
        assert_eq!(next, FEATURES);
    }

    #[test]
    fn fold_respects_the_symmetries() {
        let mut seen = [false; FOLDED_SQUARES];
        for sq in Square::all() {
            let (f, r) = (sq.file(), sq.rank());
            let image = |f: u8, r: u8| {
                Eleven::hand()
                    .features
                    .fold(Square::from_coords(f, r).unwrap())
            };
            for (g, s) in [(10 - f, r), (f, 10 - r), (r, f), (10 - r, 10 - f)] {
                assert_eq!(Eleven::hand().features.fold(sq), image(g, s));
            }
            seen[Eleven::hand().features.fold(sq)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn corner_patterns_are_symmetric() {
        // One attacker on b3 next to each corner, or on c2: the same pattern everywhere.
        let b3 = parse_fen("11/11/1a7a1/11/11/5k5/11/11/1a7a1/11/11 a").unwrap();
        let c2 = parse_fen("11/2a5a2/11/11/11/5k5/11/11/11/2a5a2/11 a").unwrap();
        let p = corner_patterns(&b3);
        assert!(p.iter().all(|&x| x == p[0]), "{p:?}");
        // b3 is a pattern square of a1 (b1 c1 a2 b2 c2 a3 b3 c3), c2 its diagonal mirror.
        assert_eq!(corner_patterns(&c2), p);
        assert_ne!(p[0], 0);
        assert_eq!(corner_patterns(&Board::start()), [0; 4]);
    }

    /// The pattern squares of each corner, in the order of a1's b1 c1 a2 b2 c2 a3 b3 c3,
    /// mirrored for the others so that a pattern means the same shape at every corner.
    const CORNER_SQUARES: [[u8; PATTERN_SQUARES]; 4] = {
        const A1: [(u8, u8); PATTERN_SQUARES] = [
            (1, 0),
            (2, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
        ];
        let (size, last) = (11, 10);
        let mut t = [[0u8; PATTERN_SQUARES]; 4];
        let mut c = 0;
        while c < 4 {
            let mut i = 0;
            while i < PATTERN_SQUARES {
                let (f, r) = A1[i];
                let f = if c & 1 == 1 { last - f } else { f };
                let r = if c & 2 == 2 { last - r } else { r };
                t[c][i] = r * size + f;
                i += 1;
            }
            c += 1;
        }
        t
    };

    /// The patterns read square by square, in the order of [`CORNER_SQUARES`].
    fn corner_patterns_by_square(board: &Board<Eleven>) -> [usize; 4] {
        let attackers = board.attackers().0;
        let defenders = board.pieces(Side::Defenders).0;
        CORNER_SQUARES.map(|squares| {
            let mut p = 0;
            for &sq in squares.iter().rev() {
                let state = ((attackers >> sq) & 1) | (((defenders >> sq) & 1) << 1);
                p = p * 3 + state as usize;
            }
            CANONICAL[p] as usize
        })
    }

    #[test]
    fn corner_patterns_read_by_rows_match_those_read_by_squares() {
        let mut rng = crate::splitmix::SplitMix64::new(7);
        // Random boards, a third of the squares attackers and a third defenders.
        for _ in 0..20_000 {
            let mut attackers = 0u128;
            let mut defenders = 0u128;
            for sq in 0..121u32 {
                match rng.next_u64() % 3 {
                    1 => attackers |= 1 << sq,
                    2 => defenders |= 1 << sq,
                    _ => {}
                }
            }
            let free = !Bitboard::<Eleven>::RESTRICTED.0;
            let board = Board::<Eleven>::new(
                crate::board::bitboard::Bitboard(attackers & free),
                crate::board::bitboard::Bitboard(defenders & free),
                Square::from_index(60),
                Side::Attackers,
            )
            .unwrap();
            assert_eq!(corner_patterns(&board), corner_patterns_by_square(&board));
        }
    }

    /// `within` answers as the distance does, for every number of moves, on random games
    /// of boards won in the corners and at the edge.
    #[test]
    fn within_agrees_with_the_distance() {
        use crate::board::rules::Preset;
        use crate::board::walk::random_boards;
        use crate::board::{Nine, Seven};
        fn check<G: Geometry>(preset: Preset) {
            random_boards::<G>(preset, 3, 10, 100, |board, rulebook| {
                let reach = Bitboard::rook_targets(board.king(), board.occupied());
                let distance = KingRoutes::of(board, rulebook).distance;
                for moves in 0..=5 {
                    assert_eq!(
                        KingRoutes::within(board, rulebook, reach, moves),
                        distance <= moves,
                        "{preset} {moves}"
                    );
                }
            });
        }
        check::<Eleven>(Preset::Copenhagen);
        check::<Nine>(Preset::Tablut);
        check::<Seven>(Preset::Brandubh);
    }

    #[test]
    fn corner_sight_matches_rook_targets() {
        for fen in [
            crate::board::START_FEN,
            "11/11/11/11/11/4a6/5k5/11/4d6/4a6/11 a",
            "3a3a3/2aa4a2/1a5d1a1/a2d1ad1da1/2d1d4da/8da1/5k2a2/aa1d4aa1/1a2d2d1a1/2a3d1a2/3a3a3 a",
        ] {
            let b = parse_fen(fen).unwrap();
            let sights = corner_sight(b.occupied());
            for (corner, seen) in Bitboard::CORNERS.zip(sights) {
                let targets = Bitboard::rook_targets(corner, b.occupied()) & !Bitboard::CORNERS;
                assert_eq!(seen, targets, "{fen}");
            }
        }
    }

    #[test]
    fn the_squeeze_counts_on_a_sealed_board_or_a_lone_king_far_from_corners() {
        use crate::board::rules::{Preset, Rules};
        struct Keep(Vec<(usize, i32)>);
        impl Sink<crate::board::Eleven> for Keep {
            fn add(&mut self, f: usize, n: i32) {
                self.0.push((f, n));
            }
        }
        let squeeze_under = |fen: &str, rulebook: &Rulebook<Eleven>| {
            let mut keep = Keep(Vec::new());
            extract(
                &parse_fen(fen).unwrap(),
                rulebook,
                &Eleven::hand().features,
                &mut keep,
            );
            let at = |i: usize| {
                keep.0
                    .iter()
                    .find(|&&(f, _)| f == SQUEEZE.start + i)
                    .map(|&(_, n)| n)
            };
            (at(0), at(1))
        };
        let squeeze = |fen: &str| squeeze_under(fen, &Rulebook::default());
        // Eight attackers on the corners' doors: the defenders reach neither them nor the
        // corners, and softly neither the three squares beside each corner's doors. The
        // attackers' eight edge squares count three squares more each.
        let sealed = "1a7a1/a9a/11/11/11/5k5/11/11/11/a9a/1a7a1 a";
        assert_eq!(squeeze(sealed), (Some(12 + 3 * 8), Some(24)));
        // The king and a soldier in a pocket on the edge, e1 f1 g1 e2 f2 g2: the doors are far,
        // the room is six squares, and 33 of the 36 edge squares are out of their reach.
        let pocket = "11/11/11/11/11/11/11/11/4aaa4/3a1dka3/3a3a3 a";
        assert_eq!(squeeze(pocket).0, Some(121 - 6 + 3 * 33));
        // An attacker on g1 cuts the pocket off from one edge square more: a square of room
        // less and one of edge more, so the squeeze rises by four.
        let narrower = "11/11/11/11/11/11/11/11/4aaa4/3a1dka3/3a2aa3 a";
        assert_eq!(squeeze(narrower).0, Some(121 - 5 + 3 * 34));
        // Under rules without exit forts or encirclement (Fetlar) the edge is no way out.
        let fetlar = Rulebook::new(Rules::preset(Preset::Fetlar));
        assert_eq!(squeeze_under(pocket, &fetlar).0, Some(121 - 6));
        // One door open, and the lone king two moves from k1 past it: no squeeze at all.
        let open = "1a7a1/a9a/11/11/11/5k5/11/11/11/a10/1a7a1 a";
        assert_eq!(squeeze(open), (None, None));
        // Shut between e6 and g6, the lone king is three moves from every corner, and is
        // squeezed with the door open: he reaches all but the nine attackers and the three
        // corners they shut, and softly neither the squares beside the attackers.
        let lone = "1a7a1/a9a/11/11/11/4aka4/11/11/11/a10/1a7a1 a";
        assert_eq!(
            KingRoutes::of(&parse_fen(lone).unwrap(), &Rulebook::default()).distance,
            3
        );
        assert_eq!(squeeze(lone), (Some(12), Some(30)));
        // With a soldier beside him, only a sealed board counts.
        let guarded = "1a7a1/a9a/11/11/11/4aka4/5d5/11/11/a10/1a7a1 a";
        assert_eq!(squeeze(guarded), (None, None));
    }

    #[test]
    fn counts_hanging_pieces_and_routes() {
        // A defender on e4 between an attacker on e3 and an empty e5 the attackers reach.
        let b = parse_fen("11/11/11/11/11/4a6/5k5/11/4d6/4a6/11 a").unwrap();
        struct Keep(Vec<(usize, i32)>);
        impl Sink<crate::board::Eleven> for Keep {
            fn add(&mut self, f: usize, n: i32) {
                self.0.push((f, n));
            }
        }
        let mut keep = Keep(Vec::new());
        extract(
            &b,
            &Rulebook::default(),
            &Eleven::hand().features,
            &mut keep,
        );
        let count = |g: Group, i: usize| {
            keep.0
                .iter()
                .filter(|&&(f, _)| f == g.start + i)
                .map(|&(_, n)| n)
                .sum::<i32>()
        };
        assert_eq!(count(HANGING, 2), 1, "defender hanging, attackers to move");
        assert_eq!(count(TEMPO, 0), 1);
        let routes = KingRoutes::of(&b, &Rulebook::default());
        assert_eq!(routes.distance, 2);
        assert_eq!(routes.routes, 4);
        assert_eq!(routes.forks, 4);
    }
}
