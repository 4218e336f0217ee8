//! `hnefi convert`: training samples from text lines to the binary format and back.

use super::CliError;
use super::common::progress_bar;
use clap::Args;
use hnefi::board::Geometry;
use hnefi::files::Replacement;
use hnefi::learn::{
    self,
    convert::{ConvertError, SampleFormat, probe_all},
};
use hnefi::search::size::{Size, SizedTask, run_sized};
use std::path::PathBuf;

#[derive(Args)]
pub struct ConvertArgs {
    /// Sample files, all of one kind: text lines (FEN;SCORE;RESULT;GAME[;BESTMOVE], as `hnefi datagen`
    /// writes them) or the binary format (docs/training.md), all of one board size.
    #[arg(required = true)]
    pub input: Vec<PathBuf>,
    /// The file to write: binary from text lines, text lines from binary. It is replaced only
    /// once every input has been read whole: on an error it stays as it was.
    #[arg(short, long)]
    pub output: PathBuf,
}

pub fn convert(args: ConvertArgs) -> Result<(), CliError> {
    let (format, width) = probe_all(&args.input).map_err(|e| from_convert(e, &args.output))?;
    run_sized(width, Convert(args, format))?
}

/// The error of a conversion writing to `output`.
fn from_convert(e: ConvertError, output: &std::path::Path) -> CliError {
    match e {
        ConvertError::Write(source) => CliError::write(output)(source),
        ConvertError::Data(e) => e.into(),
        mixed @ ConvertError::Mixed { .. } => CliError::Convert(mixed),
    }
}

/// [`convert_on`] the board of the given side.
struct Convert(ConvertArgs, SampleFormat);

impl SizedTask for Convert {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        convert_on::<G>(self.0, self.1)
    }
}

fn convert_on<G: Geometry>(args: ConvertArgs, from: SampleFormat) -> Result<(), CliError> {
    let total: u64 = args
        .input
        .iter()
        .map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .sum();
    let bar = progress_bar(total, "bytes");
    let out = Replacement::create(&args.output).map_err(CliError::write(&args.output))?;
    let (out, count) =
        learn::convert::convert::<G, _>(&args.input, from, out, |bytes| bar.inc(bytes))
            .map_err(|e| from_convert(e, &args.output))?;
    out.commit().map_err(CliError::write(&args.output))?;
    bar.finish_and_clear();
    note!(
        "convert: {count} positions of {w}x{w} boards, {from} to {} in {}",
        from.other(),
        args.output.display(),
        w = G::SIDE
    );
    Ok(())
}
