//! A referee: reads moves from standard input, one a line, and answers each with the game's
//! state or why the move is refused, as a server that judges games of people would.
//!
//!     echo "d1-d3 e5-e2 a1-a2" | tr ' ' '\n' | cargo run -p hnefi-rules --example referee -- copenhagen

use hnefi_rules::Game;
use std::io::BufRead;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rules = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "copenhagen".into());
    let mut game = Game::new(&rules, None)?;
    println!("{rules}, {} to move", game.side_to_move());
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let mv = line.trim();
        if mv.is_empty() {
            continue;
        }
        match game.play(mv) {
            Ok(()) => match game.outcome() {
                Some(outcome) => {
                    println!("{mv}: {outcome:?}");
                    break;
                }
                None => println!("{mv}: {} to move", game.side_to_move()),
            },
            Err(refused) => println!("{mv}: refused: {refused}"),
        }
    }
    println!("{}", game.to_record());
    Ok(())
}
