//! OpenTafl's saved games (`.otg`): the core crate's reader and writer,
//! [`hnefi_core::games::otg`], under the name the report has always used.

pub use hnefi_core::games::otg::*;
