//! Counts the leaves of the legal move tree of any board, depth by depth.
//!
//!     cargo run --release -p hnefi-rules --example perft -- [RULES] [DEPTH] [FEN]
//!
//! RULES is a preset's name (`brandubh`, `tablut`, `copenhagen`, `copenhagen-13`, ...) or an
//! OpenTafl rules string; without a FEN, the rules' start is counted.

use hnefi_rules::Game;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let rules = args.next().unwrap_or_else(|| "brandubh".into());
    let depth: u32 = args.next().map_or(Ok(3), |d| d.parse())?;
    let fen = args.next();
    let game = Game::new(&rules, fen.as_deref())?;
    println!(
        "{} ({}x{}): {}",
        rules,
        game.width(),
        game.width(),
        game.fen()
    );
    for d in 1..=depth {
        let started = Instant::now();
        let leaves = game.perft(d);
        println!(
            "perft {d}: {leaves} in {:.3} s",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
