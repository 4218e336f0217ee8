//! Runs spread over processes and machines: the shards of a run and their headers, Slurm's
//! queue, a match's shards (their pairs files and the SPRT watch over them, and their
//! summaries merged), and a training generation planned as a chain of Slurm jobs.
//!
//! Built on [`crate::tournament`], which plays one shard and knows nothing of the others:
//! the dependency goes one way.

pub mod generation;
pub mod merge;
pub mod pairs;
pub mod shard;
pub mod slurm;
