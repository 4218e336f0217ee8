//! The board sizes Hnefi plays: the one table that declares them
//! ([`size_table!`](crate::size_table)), and what is made from it at run time: the list of
//! sides, the side of a position text, the one dispatch from a side to the code compiled for
//! it ([`with_size!`](crate::with_size)), and the one way to hold a value of a size known only
//! at run time ([`AnySize`], used through [`each_size!`](crate::each_size)). Each size becomes
//! a [`Geometry`](super::Geometry) type (geometry.rs) and a variant of [`AnySize`] from its
//! row here; the engine's crate adds its hand evaluation and networks from a table of its own,
//! one row for each of these. Adding a size is one row, plus what its words need (past
//! 13x13's 169 squares, `Limbs`, `MAX_SQUARES` and the rules' square sets grow).

/// The table of board sizes, handed to the macro `$callback` (a path in brackets) after the
/// tokens `$extra`, in brackets: every list of sizes in Hnefi is made from these rows (the
/// engine's table of hand weights and networks, the engine crate's, has a row for each of them,
/// checked when it compiles).
///
/// A row: the size's type, its side, its doc line, its geometry (bits a square takes in a
/// packed move, the machine word of a bitboard, the const function that makes that word of
/// [`Limbs`](super::geometry::Limbs)), the preset a host means when it names only the size,
/// and OpenTafl's default preset for it.
#[doc(hidden)]
#[macro_export]
macro_rules! size_table {
    ([$($callback:tt)*] $($extra:tt)*) => {
        $($callback)*! { [$($extra)*]
            Seven 7 "7x7: Brandubh and the other small boards."
                (7, u64, to_u64) Brandubh Brandub,
            Nine 9 "9x9: Tablut and its kin."
                (7, u128, to_u128) Tablut Tablut,
            Eleven 11 "11x11: Copenhagen and Fetlar Hnefatafl."
                (7, u128, to_u128) Copenhagen Copenhagen,
            Thirteen 13 "13x13: hnefatafl.org's large board."
                (8, Wide, to_wide) Copenhagen13 Copenhagen13,
        }
    };
}

macro_rules! side_list {
    ([] $($name:ident $side:literal $doc:literal $geometry:tt $preset:ident $opentafl:ident),*
        $(,)?) => {
        [$($side),*]
    };
}

/// How many sizes Hnefi plays.
pub const SIZE_COUNT: usize = crate::size_table!([side_list]).len();

/// The sides of the boards Hnefi plays, smallest first, a [`Geometry`](super::Geometry) each.
pub const SIDES: [u8; SIZE_COUNT] = crate::size_table!([side_list]);

/// The side of the largest board Hnefi plays.
pub const LARGEST: u8 = SIDES[SIZE_COUNT - 1];

/// Why a text or a number names no board Hnefi plays.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    #[error("a board of side {0}: Hnefi plays boards of side {sides}", sides = sides_text())]
    /// A side Hnefi does not play.
    Unknown(usize),
    #[error(
        "cannot tell the board's size of '{0}': give a FEN (ranks between '/'), an OpenTafl \
         position (/ranks/) or an OpenTafl rules string (dim:N)"
    )]
    /// A text whose side cannot be told.
    Unreadable(String),
}

/// The sides in words, for messages: "7, 9, 11 and 13".
pub fn sides_text() -> String {
    let words: Vec<String> = SIDES.iter().map(u8::to_string).collect();
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// `side` if it is one of [`SIDES`].
pub fn check(side: usize) -> Result<u8, SizeError> {
    SIDES
        .into_iter()
        .find(|&s| s as usize == side)
        .ok_or(SizeError::Unknown(side))
}

/// The side of the board a position text is written for: a FEN (`3a3/.../3a3 d`, maybe
/// followed by `;` and more, as a record line is), an OpenTafl position (`/3t3/.../`, rank 1
/// first) or an OpenTafl rules string (its `dim:`, else its `start:`).
pub fn side_of(text: &str) -> Result<u8, SizeError> {
    let unreadable = || SizeError::Unreadable(text.chars().take(40).collect());
    let mut fields = text.split_whitespace();
    if let Some(dim) = fields.clone().find_map(|f| f.strip_prefix("dim:")) {
        return check(dim.parse().map_err(|_| unreadable())?);
    }
    let placement = match fields.clone().find_map(|f| f.strip_prefix("start:")) {
        Some(start) => start,
        None => fields
            .next()
            .and_then(|f| f.split(';').next())
            .ok_or_else(unreadable)?,
    };
    let placement = placement.trim_matches('/');
    if placement.is_empty() || !placement.contains('/') {
        return Err(unreadable());
    }
    check(placement.split('/').count())
}

/// Runs `$run::<G>($args)` with `G` the geometry of boards of `$side`, and gives its value, or
/// a [`SizeError`] for a side Hnefi does not play: the one place a side known only at run time
/// picks the code compiled for it.
#[macro_export]
macro_rules! with_size {
    ($side:expr, $run:ident ( $($args:expr),* )) => {
        $crate::size_table!([$crate::__with_size] $side, $run ($($args),*))
    };
}

/// [`with_size!`]'s arms, one a row of [`size_table!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __with_size {
    ([$side:expr, $run:ident $args:tt]
     $($name:ident $s:literal $doc:literal $geometry:tt $preset:ident $opentafl:ident),*
       $(,)?) => {
        match $side {
            $($s => Ok($run::<$crate::$name> $args),)*
            side => Err($crate::SizeError::Unknown(side as usize)),
        }
    };
}

/// A family of types with one member a board size, such as the positions of a game: what an
/// [`AnySize`] holds.
pub trait PerSize {
    /// The member for boards of `G`.
    type Of<G: super::Geometry>;
}

macro_rules! any_size {
    ([] $($name:ident $side:literal $doc:literal $geometry:tt $preset:ident $opentafl:ident),*
        $(,)?) => {
        /// A member of the family `F` for a board of a size known only at run time: the one
        /// way a game of any size is held. [`each_size!`](crate::each_size) runs code on it,
        /// compiled for its size; [`Geometry::hold`](super::Geometry::hold) makes one.
        pub enum AnySize<F: PerSize> {
            $(#[doc = $doc] $name(F::Of<super::$name>),)*
        }
    };
}

crate::size_table!([any_size]);

/// `$body` with `$x` bound to what the [`AnySize`] `$any` holds, whatever its size (`$any`
/// may be a value, a `&` or a `&mut`).
#[doc(hidden)]
#[macro_export]
macro_rules! each_size {
    ($any:expr, $x:ident => $body:expr) => {
        $crate::size_table!([$crate::__each_size] $any, $x => $body)
    };
}

/// [`each_size!`]'s arms, one a row of the size table.
#[doc(hidden)]
#[macro_export]
macro_rules! __each_size {
    ([$any:expr, $x:ident => $body:expr]
     $($name:ident $side:literal $doc:literal $geometry:tt $preset:ident $opentafl:ident),*
     $(,)?) => {
        match $any {
            $($crate::AnySize::$name($x) => $body,)*
        }
    };
}

/// Runs `size_loop(side, carry)`, then again for each side it hands the game to, with what it
/// carries over, until it hands it to none: the one loop across sizes for the protocols and
/// `hnefi connect`, which each run a loop compiled for one size (in it, `with_size!`) until a
/// command for another board ends it. An error of a loop ends them all.
pub fn across_sizes<C, E>(
    mut side: u8,
    mut carry: C,
    mut size_loop: impl FnMut(u8, C) -> Result<Option<(u8, C)>, E>,
) -> Result<(), E> {
    while let Some((next, carried)) = size_loop(side, carry)? {
        (side, carry) = (next, carried);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    /// A member a size that knows its size only by its type.
    struct Marks;
    impl PerSize for Marks {
        type Of<G: Geometry> = std::marker::PhantomData<G>;
    }

    fn held<G: Geometry>() -> AnySize<Marks> {
        G::hold::<Marks>(std::marker::PhantomData)
    }

    fn side_held<G: Geometry>(_: &std::marker::PhantomData<G>) -> u8 {
        G::SIDE
    }

    #[test]
    fn every_side_is_held_as_its_own_size() {
        for s in SIDES {
            let any = crate::with_size!(s, held()).unwrap();
            assert_eq!(crate::each_size!(&any, m => side_held(m)), s);
        }
    }

    #[test]
    fn side_of_reads_every_kind_of_position_text() {
        let eleven = crate::board::START_FEN;
        assert_eq!(side_of(eleven), Ok(11));
        assert_eq!(side_of("3a3/3a3/3d3/aadKdaa/3d3/3a3/3a3 d"), Ok(7));
        assert_eq!(side_of("3a3/3a3/3d3/aadKdaa/3d3/3a3/3a3"), Ok(7));
        // A record line: the FEN, then the rest after ';'.
        assert_eq!(side_of("3a3/3a3/3d3/aadKdaa/3d3/3a3/3a3 a;d4d6 0.5"), Ok(7));
        assert_eq!(side_of("3a3/3a3/3d3/aadKdaa/3d3/3a3/3a3;0.5"), Ok(7));
        assert_eq!(
            side_of("/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"),
            Ok(9)
        );
        assert_eq!(
            side_of(
                "dim:9 name:Tablut esc:e start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
            ),
            Ok(9)
        );
        assert_eq!(
            side_of("name:x start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"),
            Ok(7)
        );
        assert_eq!(side_of("dim:13 start:/"), Ok(13));
    }

    #[test]
    fn an_unknown_side_is_an_error_never_eleven() {
        assert_eq!(side_of("5/5/5/5/5 a"), Err(SizeError::Unknown(5)));
        assert_eq!(side_of("dim:15 start:/"), Err(SizeError::Unknown(15)));
        assert!(matches!(side_of("dim:x"), Err(SizeError::Unreadable(_))));
        assert!(matches!(side_of(""), Err(SizeError::Unreadable(_))));
        assert!(matches!(side_of("d4-d6"), Err(SizeError::Unreadable(_))));
        assert_eq!(check(10), Err(SizeError::Unknown(10)));
        fn side<G: Geometry>() -> u8 {
            G::SIDE
        }
        for s in SIDES {
            assert_eq!(with_size!(s, side()), Ok(s));
        }
        assert_eq!(with_size!(15u8, side()), Err(SizeError::Unknown(15)));
        // A loop hands the game on twice, then ends.
        let mut seen = vec![];
        let ended = across_sizes(11, 0, |side, handed| {
            seen.push((side, handed));
            Ok::<_, SizeError>((handed < 2).then(|| (SIDES[handed], handed + 1)))
        });
        assert_eq!(ended, Ok(()));
        assert_eq!(seen, [(11, 0), (7, 1), (9, 2)]);
        let message = SizeError::Unknown(15).to_string();
        assert!(message.contains("7, 9, 11 and 13"), "{message}");
    }
}
