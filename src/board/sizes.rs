//! The board sizes Hnefi plays, chosen at run time: the list of sides, the side of a position
//! text, and the one dispatch from a side to the code compiled for it ([`with_size!`]). Each
//! size is a [`Geometry`](super::Geometry) type (geometry.rs); this is where a side read from
//! a command, a file or a server becomes one of them, and where any other side is refused.

/// The sides of the boards Hnefi plays, a [`Geometry`](super::Geometry) each; [`with_size!`]
/// has an arm for each.
pub const SIDES: [u8; 4] = [7, 9, 11, 13];

/// Why a text or a number names no board Hnefi plays.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    #[error("a board of side {0}: Hnefi plays boards of side {sides}", sides = sides_text())]
    Unknown(usize),
    #[error(
        "cannot tell the board's size of '{0}': give a FEN (ranks between '/'), an OpenTafl \
         position (/ranks/) or an OpenTafl rules string (dim:N)"
    )]
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
        match $side {
            7 => Ok($run::<$crate::board::Seven>($($args),*)),
            9 => Ok($run::<$crate::board::Nine>($($args),*)),
            11 => Ok($run::<$crate::board::Eleven>($($args),*)),
            13 => Ok($run::<$crate::board::Thirteen>($($args),*)),
            side => Err($crate::board::sizes::SizeError::Unknown(side as usize)),
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
