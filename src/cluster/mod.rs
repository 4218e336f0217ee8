//! Runs spread over processes and machines: the shards of a run and their headers.

pub mod shard;
