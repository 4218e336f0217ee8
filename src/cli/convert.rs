//! `hnefi convert`: training samples from text lines to the binary format and back.

use super::CliError;
use super::common::progress_bar;
use clap::Args;
use hnefi::board::Geometry;
use hnefi::files::Replacement;
use hnefi::learn::packed::{self, PackedReader, PackedWriter};
use hnefi::learn::sample::Sample;
use hnefi::search::size::{Size, SizedTask, run_sized};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

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

/// What a sample file holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Text,
    Packed,
}

/// The kind of a sample file and the width of its boards: the binary header's, or the
/// number of ranks of its first line's FEN.
fn kind_and_width(path: &Path) -> Result<(Kind, u8), CliError> {
    let mut file = BufReader::new(File::open(path).map_err(CliError::read(path))?);
    let head = file.fill_buf().map_err(CliError::read(path))?;
    if head.starts_with(&packed::MAGIC) {
        let mut header = [0; packed::HEADER];
        let got = file.read(&mut header).map_err(CliError::read(path))?;
        return packed::width_of_header(&header[..got])
            .map(|w| (Kind::Packed, w))
            .ok_or_else(|| invalid(path, "the file is shorter than its 16-byte header"));
    }
    let mut line = String::new();
    loop {
        line.clear();
        if file.read_line(&mut line).map_err(CliError::read(path))? == 0 {
            return Err(invalid(path, "no samples in the file"));
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        return match hnefi::board::side_of(trimmed) {
            Ok(w) => Ok((Kind::Text, w)),
            Err(e) => Err(invalid(path, &format!("the first FEN: {e}"))),
        };
    }
}

fn invalid(path: &Path, reason: &str) -> CliError {
    CliError::Invalid {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

pub fn convert(args: ConvertArgs) -> Result<(), CliError> {
    let (kind, width) = kind_and_width(&args.input[0])?;
    for path in &args.input[1..] {
        let (k, w) = kind_and_width(path)?;
        if (k, w) != (kind, width) {
            return Err(invalid(
                path,
                &format!(
                    "{} of {w}x{w} boards, where {} holds {} of {width}x{width}: convert them apart",
                    describe(k),
                    args.input[0].display(),
                    describe(kind)
                ),
            ));
        }
    }
    run_sized(width, Convert(args, kind))?
}

fn describe(kind: Kind) -> &'static str {
    match kind {
        Kind::Text => "text lines",
        Kind::Packed => "binary samples",
    }
}

/// [`convert_on`] the board of the given side.
struct Convert(ConvertArgs, Kind);

impl SizedTask for Convert {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        convert_on::<G>(self.0, self.1)
    }
}

fn convert_on<G: Geometry>(args: ConvertArgs, kind: Kind) -> Result<(), CliError> {
    let out_err = |e| CliError::write(&args.output)(e);
    let total: u64 = args
        .input
        .iter()
        .map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .sum();
    let bar = progress_bar(total, "bytes");
    let out = Replacement::create(&args.output).map_err(out_err)?;
    let mut count = 0u64;
    let out = match kind {
        Kind::Text => {
            let mut writer = PackedWriter::<G, _>::new(out).map_err(out_err)?;
            for path in &args.input {
                let mut input = BufReader::new(File::open(path).map_err(CliError::read(path))?);
                let mut line = String::new();
                for number in 1.. {
                    line.clear();
                    let n = input.read_line(&mut line).map_err(CliError::read(path))?;
                    if n == 0 {
                        break;
                    }
                    bar.inc(n as u64);
                    let text = line.trim();
                    if text.is_empty() || text.starts_with('#') {
                        continue;
                    }
                    let sample: Sample<G> = text.parse().map_err(|e| CliError::Sample {
                        path: path.clone(),
                        line: number,
                        why: format!("{e}"),
                    })?;
                    writer.write(&sample).map_err(out_err)?;
                    count += 1;
                }
            }
            writer.finish().map_err(out_err)?
        }
        Kind::Packed => {
            let mut out = out;
            let record = packed::record_size(G::SIDE) as u64;
            for path in &args.input {
                let input = BufReader::new(File::open(path).map_err(CliError::read(path))?);
                let reader =
                    PackedReader::<G, _>::new(input).map_err(|e| invalid(path, &e.to_string()))?;
                for sample in reader {
                    let sample = sample.map_err(|e| invalid(path, &e.to_string()))?;
                    writeln!(out, "{sample}").map_err(out_err)?;
                    bar.inc(record);
                    count += 1;
                }
            }
            out
        }
    };
    out.commit().map_err(out_err)?;
    bar.finish_and_clear();
    note!(
        "convert: {count} positions of {w}x{w} boards, {} to {} in {}",
        describe(kind),
        describe(match kind {
            Kind::Text => Kind::Packed,
            Kind::Packed => Kind::Text,
        }),
        args.output.display(),
        w = G::SIDE
    );
    Ok(())
}
