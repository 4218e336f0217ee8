//! Games as files: the records of `copenhagen.csv`'s format that matches, self-play and
//! reports read and write.

pub mod record;
