//! Runs spread over processes and machines: the shards of a run and their headers, Slurm's
//! queue, and a training generation planned as a chain of Slurm jobs.

pub mod generation;
pub mod shard;
pub mod slurm;
