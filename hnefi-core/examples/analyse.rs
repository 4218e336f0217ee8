//! Analyses a position for a given time and prints each deeper line as the search finds it,
//! then the best move.
//!
//!     cargo run --release -p hnefi-core --example analyse -- [RULES] [MILLISECONDS] [FEN]
//!
//! Scores are in centipawns from the attackers' view.

use hnefi_core::{Engine, Game, Limits};
use std::time::Duration;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let rules = args.next().unwrap_or_else(|| "copenhagen".into());
    let millis: u64 = args.next().map_or(Ok(300), |m| m.parse())?;
    let fen = args.next();
    let game = Game::new(&rules, fen.as_deref())?;
    println!("{}", game.fen());
    let mut engine = Engine::new(Default::default())?;
    let limits = Limits::time(Duration::from_millis(millis));
    let answer = engine.analyse_with(&game, limits, |line| {
        println!(
            "depth {:2}  score {:6}  nodes {:9}  pv {}",
            line.depth,
            line.score_cp,
            line.nodes,
            line.pv.join(" ")
        );
    })?;
    match answer.best {
        Some(best) => println!("best {best} (score {})", answer.score_cp),
        None => println!("the game is over: {:?}", game.outcome()),
    }
    Ok(())
}
