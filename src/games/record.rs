//! Game records in the community format of `copenhagen.csv`: the core crate's reader and
//! writer, [`hnefi_core::games::record`], and the real games built into the binary.

pub use hnefi_core::games::record::*;

/// The real games of `data/copenhagen.csv`, built in so that the commands that read them by
/// default work from any folder, after `cargo install` too.
pub const REAL_GAMES: &str = include_str!("../../data/copenhagen.csv");
