//! The match runner (issue 6, under construction): so far the statistics.

pub mod stats;
