//! `hnefi cluster generation`: the command line of [`hnefi::cluster::generation`], which
//! writes a training generation's run directory and submits its Slurm jobs.

use super::CliError;
use clap::{Args, Subcommand};
use hnefi::cluster::generation::{self, GenerationArgs};

#[derive(Args)]
pub struct ClusterArgs {
    #[command(subcommand)]
    pub command: ClusterCommand,
}

#[derive(Subcommand)]
pub enum ClusterCommand {
    /// A training generation as one submission: a datagen array, then the merge and training,
    /// then an SPRT match array of the new net against the current one and its decision, all
    /// in one run directory. Prints the sbatch lines, or with --submit runs them.
    Generation(Box<GenerationArgs>),
}

pub fn cluster(args: ClusterArgs) -> Result<(), CliError> {
    match args.command {
        ClusterCommand::Generation(args) => {
            let run = generation::write(&args)?;
            if !args.submit {
                return out!("{}", run.submit_script);
            }
            let mut printed = Ok(());
            run.submit(|step, id| {
                if printed.is_ok() {
                    printed = outln!("{step} {id}");
                }
            })?;
            printed
        }
    }
}
