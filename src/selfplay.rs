//! Games between two in-process engines through the engine API. The quick way to compare two settings of Hnefi; matches against other programs go
//! through the protocols.

use crate::board::{Move, Outcome, Position, Reason, Rules, Side};
use crate::search::{Engine, Limits, Options};

/// How a game between two engines ended.
#[derive(Clone, Debug)]
pub struct GameEnd {
    /// The rules' outcome, or a draw by the length limit.
    pub outcome: Outcome,
    pub moves: Vec<Move>,
}

/// Plays one game from `opening`: `engines[0]` and `limits[0]` play the attackers.
pub fn play_game(
    opening: &[Move],
    rules: Rules,
    engines: [&mut Engine; 2],
    limits: [&Limits; 2],
    max_plies: usize,
) -> Result<GameEnd, String> {
    let mut pos = Position::start(rules);
    for &mv in opening {
        pos.try_play(mv)
            .map_err(|e| format!("opening move {mv}: {e}"))?;
    }
    let [attackers, defenders] = engines;
    attackers.clear();
    defenders.clear();
    loop {
        if let Some(outcome) = pos.outcome() {
            return Ok(GameEnd {
                outcome,
                moves: pos.moves().collect(),
            });
        }
        if pos.plies() >= max_plies {
            return Ok(GameEnd {
                outcome: Outcome::draw(Reason::MoveLimit),
                moves: pos.moves().collect(),
            });
        }
        let (engine, limits) = match pos.side_to_move() {
            Side::Attackers => (&mut *attackers, limits[0]),
            Side::Defenders => (&mut *defenders, limits[1]),
        };
        let result = engine.search(&pos, limits.clone());
        let mv = result
            .best
            .ok_or("the engine found no move in a live game")?;
        pos.try_play(mv)
            .map_err(|e| format!("the engine played an illegal move {mv}: {e}"))?;
    }
}

/// Results of a match of engine A against engine B, from A's side.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// [as attackers, as defenders] x [wins, draws, losses]
    pub by_side: [[u32; 3]; 2],
}

impl Tally {
    pub fn add(&mut self, a_side: Side, winner: Option<Side>) {
        let col = match winner {
            Some(w) if w == a_side => 0,
            None => 1,
            Some(_) => 2,
        };
        self.by_side[a_side.index()][col] += 1;
    }

    pub fn totals(&self) -> [u32; 3] {
        let [a, d] = self.by_side;
        [a[0] + d[0], a[1] + d[1], a[2] + d[2]]
    }
}

/// Plays each opening twice with colours swapped: A with `limits_a`, B with `limits_b`.
pub fn match_games(
    openings: &[Vec<Move>],
    games: usize,
    rules: Rules,
    limits_a: &Limits,
    limits_b: &Limits,
    mut each: impl FnMut(usize, &GameEnd, Side),
) -> Result<Tally, String> {
    let mut a = Engine::new(Options::default());
    let mut b = Engine::new(Options::default());
    let mut tally = Tally::default();
    for g in 0..games {
        let opening = &openings[(g / 2) % openings.len().max(1)];
        let a_side = if g % 2 == 0 {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let end = if a_side == Side::Attackers {
            play_game(opening, rules, [&mut a, &mut b], [limits_a, limits_b], 400)?
        } else {
            play_game(opening, rules, [&mut b, &mut a], [limits_b, limits_a], 400)?
        };
        tally.add(a_side, end.outcome.winner);
        each(g, &end, a_side);
    }
    Ok(tally)
}
