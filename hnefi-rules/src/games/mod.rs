//! Games as text: the community's record lines (the format of the real games in Hnefi's
//! `data/copenhagen.csv`, which self-play and match records write too) and OpenTafl's saved
//! games (`.otg`). [`Game::from_record`](crate::Game::from_record) and
//! [`Game::from_otg`](crate::Game::from_otg) read them for a host of any board size; the
//! generic readers and writers here serve code compiled for one size.

pub mod otg;
pub mod record;
