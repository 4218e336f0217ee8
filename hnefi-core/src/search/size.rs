//! The board sizes the engine plays, each with what the search needs of it besides the board:
//! its hand evaluation's weights and tables (its built-in network is a row of the table in
//! `nnue/embedded.rs`, [`super::nnue::embedded`]). Everything above the board is generic over
//! a [`Size`] and compiled once per size, so that nothing asks the size at run time; a game's
//! size is chosen once, where a protocol or a tool starts it, through [`run_sized`].

use super::eval::{HandEval, weights};
use crate::board::Geometry;
use std::sync::LazyLock;

/// The engine's table of board sizes, handed to the macro `$callback` (a path in brackets)
/// after the tokens `$extra`, in brackets: one row for each row of the rules' size table
/// (`hnefi_rules::size_table!`, checked below), giving the size's type, its hand evaluation's
/// weights (a const of `search::eval::weights`) and its built-in networks (files of
/// `search/nnue/`, each with the rules it plays; the first is the size's default).
macro_rules! engine_table {
    ([$($callback:tt)*] $($extra:tt)*) => {
        $($callback)*! { [$($extra)*]
            Seven SEVEN ["brandubh.nnue" => |_| true],
            // 9x9 and 13x13 play the 11x11 hand weights, until a fit of their own wins
            // (docs/training.md). Tablut's network beat the hand evaluation on tablut and sea
            // battle and lost on Foteviken Tablut, whose attackers keep to their camps: boards
            // with camps have their own (NET.md).
            Nine ELEVEN
                ["tablut.nnue" => |rules| rules.attacker_forts.squares.is_empty(),
                 "foteviken.nnue" => |rules| !rules.attacker_forts.squares.is_empty()],
            // The default network, which `Eval nnue` runs unless `EvalFile` names another.
            Eleven ELEVEN ["default.nnue" => |_| true],
            Thirteen ELEVEN ["copenhagen13.nnue" => |_| true],
        }
    };
}
pub(crate) use engine_table;

/// A board size the search plays: its [`Geometry`] and its hand evaluation.
pub trait Size: Geometry {
    /// The hand evaluation of this size.
    fn hand() -> &'static HandEval<Self>;
}

macro_rules! sizes {
    ([] $($name:ident $hand:ident $nets:tt),* $(,)?) => {
        $(
            impl Size for crate::board::$name {
                #[inline(always)]
                fn hand() -> &'static HandEval<Self> {
                    static HAND: LazyLock<HandEval<crate::board::$name>> =
                        LazyLock::new(|| HandEval::new(weights::$hand));
                    &HAND
                }
            }
        )*

        /// The engine's sizes, smallest first: the rules' sizes, each with a row here.
        const ENGINE_SIDES: &[u8] = &[$(<crate::board::$name as Geometry>::SIDE),*];
    };
}

// The sizes' hand evaluations, one a row of the engine's table.
engine_table!([sizes]);

// Every size the rules play has its row in the engine's table, in the same order.
const _: () = {
    let rules = &crate::board::SIDES;
    assert!(ENGINE_SIDES.len() == rules.len());
    let mut i = 0;
    while i < rules.len() {
        assert!(ENGINE_SIDES[i] == rules[i]);
        i += 1;
    }
};

/// Code compiled once for each board size and run for a size learned at run time: a tool's
/// command on the board its input names, or a host's game made once its size is known. The
/// tools dispatch through [`run_sized`] rather than on the size themselves.
pub trait SizedTask {
    /// What the task returns.
    type Output;
    /// Runs the task on boards of `G`.
    fn run<G: Size>(self) -> Self::Output;
}

macro_rules! run_sized_arms {
    ([$side:expr, $task:expr] $($name:ident $hand:ident $nets:tt),* $(,)?) => {
        match $side {
            $(side if side == <crate::board::$name as Geometry>::SIDE =>
                Ok($task.run::<crate::board::$name>()),)*
            side => Err(crate::board::SizeError::Unknown(usize::from(side))),
        }
    };
}

/// Runs `task` compiled for the board of side `side`, or says that Hnefi plays no such board.
pub fn run_sized<T: SizedTask>(side: u8, task: T) -> Result<T::Output, crate::board::SizeError> {
    engine_table!([run_sized_arms] side, task)
}

/// The board of the default rules (Copenhagen, 11x11): the size that code which must name one,
/// such as the tools' tests and what reads `data/copenhagen.csv`, names.
pub type Standard = crate::board::Eleven;

#[cfg(test)]
mod tests {
    use super::*;

    struct Side;
    impl SizedTask for Side {
        type Output = u8;
        fn run<G: Size>(self) -> u8 {
            G::SIDE
        }
    }

    #[test]
    fn run_sized_runs_the_size_asked_and_refuses_others() {
        for side in crate::board::SIDES {
            assert_eq!(run_sized(side, Side), Ok(side));
        }
        assert_eq!(
            run_sized(10, Side),
            Err(crate::board::SizeError::Unknown(10))
        );
    }
}
