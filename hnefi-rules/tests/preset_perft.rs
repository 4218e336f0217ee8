//! Perft of every preset's start on its own board, counted by a second, deliberately simple
//! generator that reads the `Rules` values itself (plain loops over a square array, moves by
//! walking, captures and game ends by their definitions), against Hnefi's `perft` and the
//! counts in `positions/perft.epd`.

use hnefi_rules::board::geometry::Geometry;
use hnefi_rules::board::position::Board;
use hnefi_rules::board::rules::{Escape, Kinds, KingStrength, Special};
use hnefi_rules::board::{Piece, Preset, Rules, Side};
use hnefi_rules::perft::perft;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Man(Piece),
}

#[derive(Clone)]
struct Simple {
    n: i32,
    /// `cells[rank * n + file]`.
    cells: Vec<Cell>,
    attackers_to_move: bool,
    rules: Rules,
}

type At = (i32, i32); // (file, rank)

const DIRS: [At; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn add((f, r): At, (df, dr): At) -> At {
    (f + df, r + dr)
}

fn side_of(piece: Piece) -> Side {
    match piece {
        Piece::Attacker => Side::Attackers,
        _ => Side::Defenders,
    }
}

impl Simple {
    fn new<G: Geometry>(board: &Board<G>, rules: Rules) -> Simple {
        let n = G::SIDE as i32;
        let mut cells = vec![Cell::Empty; (n * n) as usize];
        for (i, cell) in cells.iter_mut().enumerate() {
            let sq = hnefi_rules::board::square::Square::<G>::from_index(i as u8);
            if let Some(piece) = board.piece_at(sq) {
                *cell = Cell::Man(piece);
            }
        }
        Simple {
            n,
            cells,
            attackers_to_move: board.side_to_move() == Side::Attackers,
            rules,
        }
    }

    fn on_board(&self, (f, r): At) -> bool {
        (0..self.n).contains(&f) && (0..self.n).contains(&r)
    }
    fn index(&self, (f, r): At) -> usize {
        (r * self.n + f) as usize
    }
    fn at(&self, a: At) -> Cell {
        self.cells[self.index(a)]
    }
    fn piece(&self, a: At) -> Option<Piece> {
        match self.at(a) {
            Cell::Man(p) => Some(p),
            Cell::Empty => None,
        }
    }
    fn is_edge(&self, (f, r): At) -> bool {
        f == 0 || r == 0 || f == self.n - 1 || r == self.n - 1
    }
    fn squares(&self) -> Vec<At> {
        (0..self.n * self.n)
            .map(|i| (i % self.n, i / self.n))
            .collect()
    }
    fn king(&self) -> At {
        self.squares()
            .into_iter()
            .find(|&a| self.piece(a) == Some(Piece::King))
            .expect("a king")
    }
    fn mover(&self) -> Side {
        if self.attackers_to_move {
            Side::Attackers
        } else {
            Side::Defenders
        }
    }

    /// The special square `a` is, if any, as the rules list them.
    fn special(&self, a: At) -> Option<(usize, &Special)> {
        let i = self.index(a);
        let r = &self.rules;
        [&r.corners, &r.throne, &r.attacker_forts, &r.defender_forts]
            .into_iter()
            .enumerate()
            .find(|(_, s)| s.squares.contains(i))
    }

    /// Whether `piece`, which started on `from`, may enter `a` at all (re-entry) and then
    /// cross it or stop on it.
    fn may(&self, piece: Piece, from: At, a: At, list: fn(&Special) -> Kinds) -> bool {
        let Some((kind, special)) = self.special(a) else {
            return true;
        };
        let same_kind = self.special(from).is_some_and(|(k, _)| k == kind);
        (special.reenter.contains(piece) || same_kind) && list(special).contains(piece)
    }

    fn moves(&self) -> Vec<(At, At)> {
        let mut out = Vec::new();
        for from in self.squares() {
            let Some(piece) = self.piece(from) else {
                continue;
            };
            if side_of(piece) != self.mover() {
                continue;
            }
            let limit = self.rules.speed[piece as usize] as i32;
            for d in DIRS {
                let mut to = add(from, d);
                let mut steps = 1;
                while self.on_board(to)
                    && self.at(to) == Cell::Empty
                    && (limit == 0 || steps <= limit)
                    && self.may(piece, from, to, |s| s.pass)
                {
                    if self.may(piece, from, to, |s| s.stop) {
                        out.push((from, to));
                    }
                    to = add(to, d);
                    steps += 1;
                }
            }
        }
        out
    }

    /// Whether `a` is hostile to `victim`: an enemy piece (the king only where he is an
    /// anvil), else the special square's own hostility.
    fn hostile(&self, a: At, victim: Piece) -> bool {
        if !self.on_board(a) {
            return false;
        }
        if let Some(p) = self.piece(a)
            && side_of(p) != side_of(victim)
            && (p != Piece::King || self.rules.king_anvil)
        {
            return true;
        }
        match self.special(a) {
            None => false,
            Some((1, throne)) if self.at(a) == Cell::Empty => throne.hostile_empty.contains(victim),
            Some((_, special)) => special.hostile.contains(victim),
        }
    }

    /// The mover's pieces that close a capture or stand in front of a shieldwall.
    fn hammer(&self, a: At, mover: Side) -> bool {
        self.on_board(a)
            && self.piece(a).is_some_and(|p| {
                side_of(p) == mover && (p != Piece::King || self.rules.king_hammer)
            })
    }

    fn play(&mut self, (from, to): (At, At)) {
        let piece = self.piece(from).expect("a piece");
        let mover = self.mover();
        let (i, j) = (self.index(from), self.index(to));
        self.cells[i] = Cell::Empty;
        self.cells[j] = Cell::Man(piece);
        let mut taken = Vec::new();
        if piece != Piece::King || self.rules.king_hammer {
            for d in DIRS {
                let victim_at = add(to, d);
                if !self.on_board(victim_at) {
                    continue;
                }
                if let Some(victim) = self.piece(victim_at)
                    && victim != Piece::King
                    && side_of(victim) != mover
                    && self.hostile(add(victim_at, d), victim)
                {
                    taken.push(victim_at);
                }
            }
            if self.rules.shieldwall && self.is_edge(to) {
                taken.extend(self.shieldwall(to, mover));
            }
        }
        if self.rules.linnaean && mover == Side::Attackers {
            taken.extend(self.linnaean(to));
        }
        for a in taken {
            let k = self.index(a);
            self.cells[k] = Cell::Empty;
        }
        self.attackers_to_move = !self.attackers_to_move;
    }

    /// Rows of two or more enemies along the edge from `to`, each with a hammer on its inner
    /// side, closed at the far end by a hammer or (strong shieldwall) one of the rules' corners.
    fn shieldwall(&self, to: At, mover: Side) -> Vec<At> {
        let mut taken = Vec::new();
        let last = self.n - 1;
        for along in DIRS {
            // The edge `to` lies on that runs along `along`, and the way inward from it.
            let inward = match along {
                (_, 0) if to.1 == 0 => (0, 1),
                (_, 0) if to.1 == last => (0, -1),
                (0, _) if to.0 == 0 => (1, 0),
                (0, _) if to.0 == last => (-1, 0),
                _ => continue,
            };
            let mut row = Vec::new();
            let mut a = add(to, along);
            while self.on_board(a)
                && self.piece(a).is_some_and(|p| side_of(p) != mover)
                && self.hammer(add(a, inward), mover)
            {
                row.push(a);
                a = add(a, along);
            }
            let corner = self.special(a).is_some_and(|(k, _)| k == 0);
            let closed = self.on_board(a)
                && (self.hammer(a, mover) || (self.rules.shieldwall_corners && corner));
            if closed && row.len() >= 2 {
                taken.extend(
                    row.into_iter()
                        .filter(|&s| self.piece(s) != Some(Piece::King)),
                );
            }
        }
        taken
    }

    /// Tablut's Linnaean capture: the attacker lands two squares out from the throne with the
    /// king on it and a defender between, the throne's three other sides held by attackers.
    fn linnaean(&self, to: At) -> Vec<At> {
        let c = self.n / 2;
        let throne = (c, c);
        if self.piece(throne) != Some(Piece::King) {
            return Vec::new();
        }
        for d in DIRS {
            let between = add(throne, d);
            if add(between, d) != to || self.piece(between) != Some(Piece::Defender) {
                continue;
            }
            let held = DIRS
                .iter()
                .filter(|&&e| e != d)
                .all(|&e| self.piece(add(throne, e)) == Some(Piece::Attacker));
            if held {
                return vec![between];
            }
        }
        Vec::new()
    }

    fn king_captured(&self, to: At) -> bool {
        let king = self.king();
        if !DIRS.iter().any(|&d| add(king, d) == to) {
            return false;
        }
        let throne = |a: At| self.rules.throne.squares.contains(self.index(a));
        let around: Vec<At> = DIRS
            .iter()
            .map(|&d| add(king, d))
            .filter(|&a| self.on_board(a))
            .collect();
        let surrounded = around.iter().all(|&a| self.hostile(a, Piece::King));
        match self.rules.king {
            KingStrength::Middleweight => surrounded,
            strength => {
                let strong = match strength {
                    KingStrength::Strong => true,
                    KingStrength::StrongNearThrone => {
                        throne(king) || around.iter().any(|&a| throne(a))
                    }
                    KingStrength::StrongOnThrone => throne(king),
                    _ => false,
                };
                if strong {
                    around.len() == 4 && surrounded
                } else {
                    let beyond = add(king, (king.0 - to.0, king.1 - to.1));
                    self.hostile(beyond, Piece::King)
                }
            }
        }
    }

    fn encircled(&self) -> bool {
        let mut seen = vec![false; self.cells.len()];
        let mut stack: Vec<At> = self
            .squares()
            .into_iter()
            .filter(|&a| self.piece(a).is_some_and(|p| side_of(p) == Side::Defenders))
            .collect();
        while let Some(a) = stack.pop() {
            if seen[self.index(a)] {
                continue;
            }
            seen[self.index(a)] = true;
            if self.is_edge(a) {
                return false;
            }
            for d in DIRS {
                let b = add(a, d);
                if self.on_board(b) && self.piece(b) != Some(Piece::Attacker) {
                    stack.push(b);
                }
            }
        }
        true
    }

    /// Whether the move just played, landing on `to`, won the game for its player.
    fn won(&self, to: At) -> bool {
        if self.attackers_to_move {
            // The defenders moved.
            let king = self.king();
            let escaped = match self.rules.escape {
                Escape::Edge => self.is_edge(king),
                Escape::Corners => self.rules.corners.squares.contains(self.index(king)),
            };
            assert!(
                escaped || !self.rules.exit_fort || !self.is_edge(king),
                "exit forts are not modelled here: no start reaches one this soon"
            );
            escaped
        } else {
            self.king_captured(to) || (self.rules.encirclement && self.encircled())
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
                if child.won(m.1) {
                    0
                } else {
                    child.perft(depth - 1)
                }
            })
            .sum()
    }
}

/// Each preset's start line in `positions/perft.epd`: its FEN, preset and counts.
fn preset_lines() -> Vec<(String, Preset, Vec<u64>)> {
    let path = crate::common::repo_file("positions/perft.epd");
    let text = std::fs::read_to_string(path).expect("positions/perft.epd");
    text.lines()
        .filter(|l| !l.starts_with('#') && l.contains("; rules "))
        .map(|l| {
            let fields: Vec<&str> = l.split(';').map(str::trim).collect();
            let preset = fields[1]
                .strip_prefix("rules ")
                .expect("rules PRESET")
                .parse()
                .expect("a preset");
            let counts = fields
                .iter()
                .filter_map(|f| f.strip_prefix('D'))
                .map(|f| f.split_whitespace().nth(1).unwrap().parse().unwrap())
                .collect();
            (fields[0].to_string(), preset, counts)
        })
        .collect()
}

/// Both generators to the depths a debug build counts in seconds, and the file's counts.
fn check<G: Geometry>(fen: &str, preset: Preset, counts: &[u64], max_depth: u32) {
    let rules = Rules::preset(preset);
    let board = Board::<G>::from_fen(fen).unwrap();
    let simple = Simple::new(&board, rules);
    for depth in 1..=max_depth.min(counts.len() as u32) {
        let expected = counts[depth as usize - 1];
        assert_eq!(perft(&board, depth, &rules), expected, "{preset} D{depth}");
        assert_eq!(simple.perft(depth), expected, "{preset} D{depth}: simple");
    }
}

#[test]
fn every_preset_start_is_in_the_suite_with_its_counts() {
    let lines = preset_lines();
    for preset in Preset::ALL {
        let (fen, _, counts) = lines
            .iter()
            .find(|(_, p, _)| *p == preset)
            .unwrap_or_else(|| panic!("{preset}: no line in positions/perft.epd"));
        assert_eq!(fen, preset.start_fen(), "{preset}");
        assert!(counts.len() >= 3, "{preset}: depths 1 to 3 at least");
    }
    assert_eq!(lines.len(), Preset::ALL.len(), "one line per preset");
}

#[test]
fn the_simple_generator_counts_every_preset_start_alike() {
    for (fen, preset, counts) in preset_lines() {
        // 7x7 is small enough to count one ply deeper.
        let depth = if preset.width() == 7 { 4 } else { 3 };
        hnefi_rules::with_size!(preset.width(), check(&fen, preset, &counts, depth)).unwrap();
    }
}
