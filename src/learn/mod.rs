//! Learning the evaluation: training samples, their sources, and the fit.

pub mod convert;
pub mod data;
pub mod datagen;
pub mod games;
pub mod network;
pub mod packed;
pub mod policy;
pub mod sample;
pub mod train;
pub mod tune;
