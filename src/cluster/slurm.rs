//! What Hnefi asks of Slurm's client commands: whether a job is still queued, and cancelling
//! one.

/// Why Slurm could not be asked or told.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SlurmError {
    #[error("cannot cancel job {job} (scancel {job}): {why}; cancel it by hand")]
    Cancel { job: String, why: String },
    #[error("cannot ask Slurm about job {job} (squeue --jobs {job}): {why}")]
    Queue { job: String, why: String },
}

/// Whether Slurm still holds `job` pending or running: once it does not, no more output comes.
pub fn in_queue(job: &str) -> Result<bool, SlurmError> {
    let failed = |why: String| SlurmError::Queue {
        job: job.to_string(),
        why,
    };
    let out = std::process::Command::new("squeue")
        .args(["--noheader", "--format=%i", "--jobs", job])
        .output()
        .map_err(|e| failed(e.to_string()))?;
    if out.status.success() {
        return Ok(!out.stdout.iter().all(u8::is_ascii_whitespace));
    }
    let why = String::from_utf8_lossy(&out.stderr).trim().to_string();
    // A job ended long ago has left the controller's memory too.
    if why.contains("Invalid job id") {
        return Ok(false);
    }
    Err(failed(why))
}

/// Stops `job` (the rest of a decided match's array).
pub fn cancel(job: &str) -> Result<(), SlurmError> {
    let failed = |why: String| SlurmError::Cancel {
        job: job.to_string(),
        why,
    };
    let status = std::process::Command::new("scancel")
        .arg(job)
        .status()
        .map_err(|e| failed(e.to_string()))?;
    if !status.success() {
        return Err(failed(status.to_string()));
    }
    Ok(())
}
