//! The fast move generator and counter checked against a second, deliberately simple one:
//! an 11x11 array, moves found by walking, captures and game ends by their plain definitions.

use crate::common;

use hnefi_rules::board::notation::parse_fen;
use hnefi_rules::board::{Board, Eleven, Piece, Rulebook, Rules, START_FEN, Side, Square};
use hnefi_rules::perft::{perft, perft_parallel};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Attacker,
    Defender,
    King,
}

#[derive(Clone)]
struct Slow {
    cells: [[Cell; 11]; 11], // [rank][file]
    attackers_to_move: bool,
}

type At = (i32, i32); // (file, rank)

const DIRS: [At; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn on_board((f, r): At) -> bool {
    (0..11).contains(&f) && (0..11).contains(&r)
}
fn is_corner((f, r): At) -> bool {
    (f == 0 || f == 10) && (r == 0 || r == 10)
}
fn is_throne(a: At) -> bool {
    a == (5, 5)
}
fn is_edge((f, r): At) -> bool {
    f == 0 || r == 0 || f == 10 || r == 10
}
fn add((f, r): At, (df, dr): At) -> At {
    (f + df, r + dr)
}

impl Slow {
    fn from_board(b: &Board<Eleven>) -> Slow {
        let mut cells = [[Cell::Empty; 11]; 11];
        for sq in Square::all() {
            cells[sq.rank() as usize][sq.file() as usize] = match b.piece_at(sq) {
                None => Cell::Empty,
                Some(Piece::Attacker) => Cell::Attacker,
                Some(Piece::Defender) => Cell::Defender,
                Some(Piece::King) => Cell::King,
            };
        }
        Slow {
            cells,
            attackers_to_move: b.side_to_move() == Side::Attackers,
        }
    }

    fn at(&self, (f, r): At) -> Cell {
        self.cells[r as usize][f as usize]
    }
    fn set(&mut self, (f, r): At, c: Cell) {
        self.cells[r as usize][f as usize] = c;
    }
    fn king(&self) -> At {
        for r in 0..11 {
            for f in 0..11 {
                if self.at((f, r)) == Cell::King {
                    return (f, r);
                }
            }
        }
        unreachable!("a king")
    }
    fn mine(&self, c: Cell, attackers: bool) -> bool {
        if attackers {
            c == Cell::Attacker
        } else {
            c == Cell::Defender || c == Cell::King
        }
    }

    fn moves(&self) -> Vec<(At, At)> {
        let mut out = Vec::new();
        for r in 0..11 {
            for f in 0..11 {
                let from = (f, r);
                let c = self.at(from);
                if !self.mine(c, self.attackers_to_move) {
                    continue;
                }
                for d in DIRS {
                    let mut to = add(from, d);
                    while on_board(to) && self.at(to) == Cell::Empty {
                        if c == Cell::King || !(is_corner(to) || is_throne(to)) {
                            out.push((from, to));
                        }
                        to = add(to, d);
                    }
                }
            }
        }
        out
    }

    /// Whether `a` closes a capture against a piece of the side `victim_attacker`.
    fn anvil(&self, a: At, victim_attacker: bool) -> bool {
        if !on_board(a) {
            return false;
        }
        if self.mine(self.at(a), !victim_attacker) {
            return true;
        }
        if is_corner(a) {
            return true;
        }
        is_throne(a) && (victim_attacker || self.at(a) == Cell::Empty)
    }

    fn play(&mut self, (from, to): (At, At)) -> Vec<At> {
        let attackers = self.attackers_to_move;
        let piece = self.at(from);
        self.set(from, Cell::Empty);
        self.set(to, piece);
        let enemy_soldier = if attackers {
            Cell::Defender
        } else {
            Cell::Attacker
        };
        let mut taken = Vec::new();
        for d in DIRS {
            let n = add(to, d);
            if on_board(n) && self.at(n) == enemy_soldier && self.anvil(add(n, d), !attackers) {
                taken.push(n);
            }
        }
        // Shieldwall: every maximal run of enemies on each edge, of two or more, each with one of
        // ours in front, bracketed at both ends by ours or a corner, one bracket being `to`.
        let edges: [(At, At, At); 4] = [
            ((0, 0), (1, 0), (0, 1)),
            ((0, 10), (1, 0), (0, -1)),
            ((0, 0), (0, 1), (1, 0)),
            ((10, 0), (0, 1), (-1, 0)),
        ];
        for (start, along, inward) in edges {
            let line: Vec<At> = (0..11)
                .map(|i| (start.0 + along.0 * i, start.1 + along.1 * i))
                .collect();
            let mut i = 0;
            while i < 11 {
                if !self.mine(self.at(line[i]), !attackers) {
                    i += 1;
                    continue;
                }
                let mut j = i;
                while j + 1 < 11 && self.mine(self.at(line[j + 1]), !attackers) {
                    j += 1;
                }
                let run = &line[i..=j];
                let closes = |k: i32| {
                    (0..11).contains(&k) && {
                        let s = line[k as usize];
                        self.mine(self.at(s), attackers) || is_corner(s)
                    }
                };
                let (before, after) = (i as i32 - 1, j as i32 + 1);
                let lands = (before >= 0 && line[before as usize] == to)
                    || (after < 11 && line[after as usize] == to);
                if run.len() >= 2
                    && closes(before)
                    && closes(after)
                    && lands
                    && run
                        .iter()
                        .all(|&s| self.mine(self.at(add(s, inward)), attackers))
                {
                    taken.extend(run.iter().filter(|&&s| self.at(s) != Cell::King));
                }
                i = j + 1;
            }
        }
        taken.sort();
        taken.dedup();
        for &t in &taken {
            self.set(t, Cell::Empty);
        }
        self.attackers_to_move = !attackers;
        taken
    }

    fn flood(&self, seeds: &[At], through: impl Fn(At) -> bool) -> Vec<Vec<bool>> {
        let mut seen = vec![vec![false; 11]; 11];
        let mut stack: Vec<At> = seeds.to_vec();
        while let Some(a) = stack.pop() {
            if seen[a.1 as usize][a.0 as usize] {
                continue;
            }
            seen[a.1 as usize][a.0 as usize] = true;
            for d in DIRS {
                let n = add(a, d);
                if on_board(n) && !seen[n.1 as usize][n.0 as usize] && through(n) {
                    stack.push(n);
                }
            }
        }
        seen
    }

    fn all(&self, c: Cell) -> Vec<At> {
        (0..121)
            .map(|i| (i % 11, i / 11))
            .filter(|&a| self.at(a) == c)
            .collect()
    }

    fn encircled(&self) -> bool {
        let mut seeds = self.all(Cell::Defender);
        seeds.push(self.king());
        let reach = self.flood(&seeds, |a| self.at(a) != Cell::Attacker);
        !(0..121)
            .map(|i| (i % 11, i / 11))
            .any(|a| is_edge(a) && reach[a.1 as usize][a.0 as usize])
    }

    fn fort(&self) -> bool {
        let king = self.king();
        if !is_edge(king)
            || !DIRS
                .iter()
                .any(|&d| on_board(add(king, d)) && self.at(add(king, d)) == Cell::Empty)
        {
            return false;
        }
        // Attackers never grow in number: a capture needing more squares filled cannot come.
        let attackers = self.all(Cell::Attacker).len();
        let mut wall = self.all(Cell::Defender);
        loop {
            let reach = self.flood(&self.all(Cell::Attacker), |a| {
                !is_corner(a) && !wall.contains(&a)
            });
            let r = |a: At| on_board(a) && reach[a.1 as usize][a.0 as usize];
            if r(king) {
                return false;
            }
            let land = |a: At| r(a) && !is_throne(a);
            // The far side of a sandwich: a corner, the throne, or a second attacker.
            let partner = |a: At| {
                (attackers >= 2 && land(a)) || (on_board(a) && (is_corner(a) || is_throne(a)))
            };
            let threatened = |w: At| {
                let custodial = [((1, 0), (-1, 0)), ((0, 1), (0, -1))]
                    .iter()
                    .any(|&(p, q)| {
                        let (x, y) = (add(w, p), add(w, q));
                        (land(x) && partner(y)) || (land(y) && partner(x))
                    });
                if custodial {
                    return true;
                }
                // Any run of 2+ present defenders on an edge through w, fronts landable, ends
                // landable or corner, one end landable.
                let lines: Vec<(At, At)> = [
                    (w.1 == 0, (1, 0), (0, 1)),
                    (w.1 == 10, (1, 0), (0, -1)),
                    (w.0 == 0, (0, 1), (1, 0)),
                    (w.0 == 10, (0, 1), (-1, 0)),
                ]
                .iter()
                .filter(|x| x.0)
                .map(|x| (x.1, x.2))
                .collect();
                lines.iter().any(|&(along, inward)| {
                    let member =
                        |s: At| on_board(s) && self.at(s) == Cell::Defender && land(add(s, inward));
                    (-10..=0).any(|lo| {
                        (0..=10).any(|hi| {
                            if hi - lo < 1 {
                                return false;
                            }
                            let sq = |k: i32| (w.0 + along.0 * k, w.1 + along.1 * k);
                            let ends = [sq(lo - 1), sq(hi + 1)];
                            let filled = (hi - lo + 1) as usize
                                + ends.iter().filter(|&&e| !is_corner(e)).count();
                            (lo..=hi).all(|k| member(sq(k)))
                                && ends
                                    .iter()
                                    .all(|&e| land(e) || (on_board(e) && is_corner(e)))
                                && ends.iter().any(|&e| land(e))
                                && filled <= attackers
                        })
                    })
                })
            };
            let broken: Vec<At> = wall.iter().copied().filter(|&w| threatened(w)).collect();
            if broken.is_empty() {
                return true;
            }
            wall.retain(|w| !broken.contains(w));
        }
    }

    fn over_after(&self, (_, to): (At, At)) -> bool {
        let king = self.king();
        if self.attackers_to_move {
            // The defenders moved.
            is_corner(king) || self.fort()
        } else {
            let captured = !is_edge(king)
                && DIRS.iter().any(|&d| add(king, d) == to)
                && DIRS.iter().all(|&d| {
                    let n = add(king, d);
                    is_throne(n) || self.at(n) == Cell::Attacker
                });
            captured || self.encircled()
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut child = self.clone();
                child.play(m);
                if child.over_after(m) {
                    0
                } else {
                    child.perft(depth - 1)
                }
            })
            .sum()
    }
}

/// The suite's lines of Copenhagen positions; the presets' starts carry `; rules PRESET`.
fn is_copenhagen_line(line: &str) -> bool {
    !line.starts_with('#') && !line.trim().is_empty() && !line.contains("; rules ")
}

struct Entry {
    fen: String,
    counts: Vec<u64>,
    source: String,
}

fn suite() -> Vec<Entry> {
    let path = common::repo_file("positions/perft.epd");
    std::fs::read_to_string(path)
        .expect("positions/perft.epd")
        .lines()
        .filter(|l| is_copenhagen_line(l))
        .map(|l| {
            let fields: Vec<&str> = l.split(';').map(str::trim).collect();
            let counts = fields[1..]
                .iter()
                .filter_map(|f| f.strip_prefix('D'))
                .map(|f| {
                    f.split_whitespace()
                        .nth(1)
                        .expect("count")
                        .parse()
                        .expect("number")
                })
                .collect();
            Entry {
                fen: fields[0].to_string(),
                counts,
                source: fields.last().expect("source").to_string(),
            }
        })
        .collect()
}

#[test]
fn start_position_reference_numbers() {
    let b = Board::start();
    let rules = Rules::default();
    let expected = [116, 6788, 806344, 50456804, 6116568016];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(
            perft_parallel(&b, d as u32 + 1, &rules),
            n,
            "depth {}",
            d + 1
        );
    }
    let slow = Slow::from_board(&parse_fen(START_FEN).unwrap());
    assert_eq!(slow.perft(3), 806344);
}

#[test]
fn suite_matches_the_simple_generator() {
    let rules = Rules::default();
    let entries = suite();
    assert!(entries.len() >= 10);
    for e in &entries {
        let board = parse_fen(&e.fen).unwrap();
        let slow = Slow::from_board(&board);
        for (d, &expected) in e.counts.iter().enumerate() {
            let depth = d as u32 + 1;
            let fast = perft_parallel(&board, depth, &rules);
            assert_eq!(fast, expected, "{}: depth {depth} fast", e.source);
            if depth <= 3 || expected < 30_000_000 {
                assert_eq!(
                    slow.perft(depth),
                    expected,
                    "{}: depth {depth} simple",
                    e.source
                );
            }
        }
    }
}

#[test]
fn random_games_match_move_by_move() {
    // Play pseudo-random games with both generators side by side: same moves, same captures,
    // same game ends, every ply.
    let rules = Rules::default();
    let mut seed = 0x2545F4914F6CDD1Du64;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for _ in 0..300 {
        let mut board = Board::start();
        let mut slow = Slow::from_board(&board);
        for _ in 0..200 {
            let mut list = hnefi_rules::board::MoveList::new();
            board.generate_moves(&hnefi_rules::board::Rulebook::default(), &mut list);
            let mut fast_moves: Vec<(At, At)> = list
                .iter()
                .map(|m| {
                    let (f, t) = (m.from(), m.to());
                    (
                        (f.file() as i32, f.rank() as i32),
                        (t.file() as i32, t.rank() as i32),
                    )
                })
                .collect();
            let mut slow_moves = slow.moves();
            fast_moves.sort();
            slow_moves.sort();
            assert_eq!(fast_moves, slow_moves);
            assert_eq!(
                board.count_moves(&hnefi_rules::board::Rulebook::default()) as usize,
                slow_moves.len()
            );
            if list.is_empty() {
                break;
            }
            let mv = list[rand(list.len())];
            let captured = board.play(mv, &hnefi_rules::board::Rulebook::new(rules));
            let i = fast_moves
                .iter()
                .position(|&(f, t)| {
                    (f.0, f.1, t.0, t.1)
                        == (
                            mv.from().file() as i32,
                            mv.from().rank() as i32,
                            mv.to().file() as i32,
                            mv.to().rank() as i32,
                        )
                })
                .expect("same move");
            let m = fast_moves[i];
            let slow_taken = slow.play(m);
            assert_eq!(captured.count() as usize, slow_taken.len());
            assert_eq!(board.key(), board.compute_key());
            let over = Rulebook::new(rules).mover_win(&board, mv).is_some();
            assert_eq!(over, slow.over_after(m), "{board:?}");
            if over {
                break;
            }
        }
    }
}

#[test]
fn forts_with_few_attackers_match_the_simple_reference() {
    // Walls of defenders around a king on the edge against 0 to 3 attackers, where counting
    // the attackers decides: both fort tests must agree on every board.
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut rand = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut forts = [0u32; 4];
    for _ in 0..20_000 {
        let edge: Vec<Square<Eleven>> = Square::all()
            .filter(|s| s.is_edge() && !s.is_corner())
            .collect();
        let king = edge[rand(edge.len() as u64) as usize];
        let mut defenders = hnefi_rules::board::Bitboard::EMPTY;
        for sq in Square::all() {
            let near = (sq.file() as i32 - king.file() as i32).abs() <= 2
                && (sq.rank() as i32 - king.rank() as i32).abs() <= 2;
            if near && sq != king && !sq.is_restricted() && rand(100) < 55 {
                defenders = defenders.with(sq);
            }
        }
        let n = rand(4) as usize;
        let mut attackers = hnefi_rules::board::Bitboard::EMPTY;
        while (attackers.count() as usize) < n {
            let sq = Square::all().nth(rand(121) as usize).unwrap();
            if sq != king && !sq.is_restricted() && !defenders.contains(sq) {
                attackers = attackers.with(sq);
            }
        }
        let board = Board::new(attackers, defenders, king, Side::Attackers).unwrap();
        let fast = hnefi_rules::board::fort::is_exit_fort(&board);
        assert_eq!(fast, Slow::from_board(&board).fort(), "{board:?}");
        forts[n] += fast as u32;
    }
    // Enough forts of each kind that the agreement means something.
    assert!(forts.iter().all(|&f| f > 100), "{forts:?}");
}

#[test]
fn perft_is_the_same_on_one_thread() {
    let e = &suite()[0];
    let board = parse_fen(&e.fen).unwrap();
    assert_eq!(perft(&board, 3, &Rules::default()), e.counts[2]);
}

/// Every preset's start on its own board, against its line in `positions/perft.epd`: through
/// the library to depth 3 (and 4 where it is under ten million leaves).
#[test]
fn every_preset_start_matches_the_variant_suite() {
    use hnefi_rules::board::{Preset, Rules};
    use hnefi_rules::perft::{Progress, divide_fen, total};
    let path = common::repo_file("positions/perft.epd");
    let text = std::fs::read_to_string(path).expect("positions/perft.epd");
    let mut presets = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains("; rules "))
    {
        let mut fields = line.split(';').map(str::trim).skip(1);
        let preset: Preset = fields.next().unwrap()["rules ".len()..].parse().unwrap();
        presets.push(preset);
        let rules = Rules::preset(preset);
        for field in fields.filter(|f| f.starts_with('D')) {
            let (depth, count) = field[1..].split_once(' ').unwrap();
            let (depth, count): (u32, u64) = (depth.parse().unwrap(), count.parse().unwrap());
            if depth > 4 || (depth == 4 && count > 10_000_000) {
                continue;
            }
            let divided = divide_fen(preset.start_fen(), depth, &rules, &Progress::default());
            assert_eq!(total(depth, &divided.unwrap()), count, "{preset} D{depth}");
        }
    }
    assert_eq!(presets.len(), Preset::ALL.len(), "every preset");
}

/// The classic boards' fast paths (masks as constants) and the general terrain count the same.
#[test]
fn fast_paths_and_the_general_terrain_agree() {
    use hnefi_rules::board::{Eleven, Preset};
    use hnefi_rules::perft::perft_with;
    let path = common::repo_file("positions/perft.epd");
    let text = std::fs::read_to_string(path).expect("positions/perft.epd");
    let boards: Vec<Board<Eleven>> = text
        .lines()
        .filter(|l| is_copenhagen_line(l))
        .map(|l| parse_fen(l.split(';').next().unwrap().trim()).unwrap())
        .collect();
    for preset in [Preset::Copenhagen, Preset::Fetlar] {
        let fast = Rulebook::new(Rules::preset(preset));
        assert!(fast.terrain().classic_moves && fast.terrain().classic_captures);
        let general = fast.without_fast_paths();
        for board in boards.iter().chain([&Board::start()]) {
            for depth in 1..=3 {
                assert_eq!(
                    perft_with(board, depth, &fast),
                    perft_with(board, depth, &general),
                    "{preset} {board:?} depth {depth}"
                );
            }
        }
    }
}
