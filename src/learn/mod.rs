//! Learning the evaluation: training samples, their sources, and the fit.

pub mod sample;
pub mod tune;
