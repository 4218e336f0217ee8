//! One game of the engine against itself, a fixed number of nodes a move, printed move by
//! move with the result.
//!
//!     cargo run --release -p hnefi-core --example selfplay -- [RULES] [NODES] [MAX_PLIES]

use hnefi_core::{Engine, Game, Limits};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let rules = args.next().unwrap_or_else(|| "brandubh".into());
    let nodes: u64 = args.next().map_or(Ok(2_000), |n| n.parse())?;
    let max_plies: usize = args.next().map_or(Ok(200), |n| n.parse())?;
    let mut game = Game::new(&rules, None)?;
    let mut engine = Engine::new(Default::default())?;
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let answer = engine.analyse(&game, Limits::nodes(nodes))?;
        let Some(best) = answer.best else { break };
        println!(
            "{:3}. {:?} {best} ({})",
            game.moves().len() + 1,
            game.side_to_move(),
            answer.score_cp
        );
        game.play(&best)?;
    }
    match game.outcome() {
        Some(end) => println!("{:?} by {:?}", end.winner, end.reason),
        None => println!("no result after {max_plies} plies"),
    }
    println!("{}", game.fen());
    Ok(())
}
