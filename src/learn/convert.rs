//! Sample files from one format to the other: text lines (`FEN;SCORE;RESULT;GAME[;BESTMOVE]`,
//! as `hnefi datagen` writes them) to the binary format of [`super::packed`], and back.

use super::data::{DataError, for_each_block};
use super::packed::{self, PackedWriter};
use crate::board::Geometry;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// The two formats of a sample file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SampleFormat {
    /// Text lines, one sample each.
    Text,
    /// The binary format ([`super::packed`]).
    Packed,
}

impl SampleFormat {
    /// The other format: what a file of this one converts to.
    pub fn other(self) -> SampleFormat {
        match self {
            SampleFormat::Text => SampleFormat::Packed,
            SampleFormat::Packed => SampleFormat::Text,
        }
    }
}

impl std::fmt::Display for SampleFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SampleFormat::Text => "text lines",
            SampleFormat::Packed => "binary samples",
        })
    }
}

/// Why samples could not be converted.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// An input could not be read, or holds something other than samples.
    #[error(transparent)]
    Data(#[from] DataError),
    /// Two inputs differ in format or board size.
    #[error(
        "{}: {format} of {width}x{width} boards, where {} holds {first_format} of \
         {first_width}x{first_width}: convert them apart",
        path.display(), first.display(),
        first_width = first_kind.1, first_format = first_kind.0
    )]
    Mixed {
        path: PathBuf,
        format: SampleFormat,
        width: u8,
        first: PathBuf,
        first_kind: (SampleFormat, u8),
    },
    /// The output could not be written.
    #[error("{0}")]
    Write(io::Error),
}

fn invalid(path: &Path, reason: impl Into<String>) -> DataError {
    DataError::Invalid {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// The format of a sample file and the width of its boards: the binary header's, or the
/// number of ranks of its first sample's FEN.
pub fn probe(path: &Path) -> Result<(SampleFormat, u8), DataError> {
    let read = |source| DataError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut file = BufReader::new(File::open(path).map_err(read)?);
    let head = file.fill_buf().map_err(read)?;
    if head.starts_with(&packed::MAGIC) {
        let mut header = [0; packed::HEADER];
        let got = file.read(&mut header).map_err(read)?;
        return packed::width_of_header(&header[..got])
            .map(|w| (SampleFormat::Packed, w))
            .ok_or_else(|| invalid(path, "the file is shorter than its 16-byte header"));
    }
    let mut line = String::new();
    loop {
        line.clear();
        if file.read_line(&mut line).map_err(read)? == 0 {
            return Err(invalid(path, "no samples in the file"));
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        return crate::board::side_of(trimmed)
            .map(|w| (SampleFormat::Text, w))
            .map_err(|e| invalid(path, format!("the first FEN: {e}")));
    }
}

/// The format and board width that all of `inputs` share, or the first that differs.
pub fn probe_all(inputs: &[PathBuf]) -> Result<(SampleFormat, u8), ConvertError> {
    let Some(first) = inputs.first() else {
        return Err(invalid(Path::new("(no input)"), "no sample files given").into());
    };
    let kind = probe(first)?;
    for path in &inputs[1..] {
        let (format, width) = probe(path)?;
        if (format, width) != kind {
            return Err(ConvertError::Mixed {
                path: path.clone(),
                format,
                width,
                first: first.clone(),
                first_kind: kind,
            });
        }
    }
    Ok(kind)
}

/// Writes the samples of `inputs`, all in the format `from`, to `out` in the other format,
/// in their order; `progress` hears the bytes of input read. Returns `out` and the samples
/// written.
pub fn convert<G: Geometry, W: Write>(
    inputs: &[PathBuf],
    from: SampleFormat,
    out: W,
    mut progress: impl FnMut(u64),
) -> Result<(W, u64), ConvertError> {
    let mut count = 0u64;
    match from {
        SampleFormat::Text => {
            let mut writer = PackedWriter::<G, _>::new(out).map_err(ConvertError::Write)?;
            for path in inputs {
                for_each_block::<G, ConvertError>(path, |block, bytes| {
                    for sample in &block {
                        writer.write(sample).map_err(ConvertError::Write)?;
                    }
                    count += block.len() as u64;
                    progress(bytes);
                    Ok(())
                })?;
            }
            Ok((writer.finish().map_err(ConvertError::Write)?, count))
        }
        SampleFormat::Packed => {
            let mut out = out;
            for path in inputs {
                for_each_block::<G, ConvertError>(path, |block, bytes| {
                    for sample in &block {
                        writeln!(out, "{sample}").map_err(ConvertError::Write)?;
                    }
                    count += block.len() as u64;
                    progress(bytes);
                    Ok(())
                })?;
            }
            Ok((out, count))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Seven;
    use crate::board::{Board, Move};
    use crate::learn::sample::{GameResult, Sample};
    use crate::search::size::Standard;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hnefi-convert-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn sample(game: u64, best: Option<&str>) -> Sample<Standard> {
        Sample {
            board: Board::start(),
            score: Some(12),
            result: GameResult::AttackersWon,
            game,
            best: best.map(|m| Move::parse(m).unwrap()),
        }
    }

    #[test]
    fn text_to_binary_and_back_gives_the_same_lines() {
        let dir = scratch("round");
        let samples = [sample(1, Some("d1d3")), sample(2, None)];
        let text: String = samples.iter().map(|s| format!("{s}\n")).collect();
        let text_path = dir.join("a.txt");
        std::fs::write(&text_path, format!("# a comment\n\n{text}")).unwrap();
        assert_eq!(probe(&text_path).unwrap(), (SampleFormat::Text, 11));

        let (binary, count) = convert::<Standard, _>(
            std::slice::from_ref(&text_path),
            SampleFormat::Text,
            Vec::new(),
            |_| {},
        )
        .unwrap();
        assert_eq!(count, 2);
        let binary_path = dir.join("a.bin");
        std::fs::write(&binary_path, &binary).unwrap();
        assert_eq!(probe(&binary_path).unwrap(), (SampleFormat::Packed, 11));

        let mut read = 0;
        let (back, count) =
            convert::<Standard, _>(&[binary_path], SampleFormat::Packed, Vec::new(), |b| {
                read += b
            })
            .unwrap();
        assert_eq!(count, 2);
        assert_eq!(read, binary.len() as u64 - packed::HEADER as u64);
        assert_eq!(String::from_utf8(back).unwrap(), text);
    }

    #[test]
    fn inputs_of_another_format_or_size_are_refused_by_name() {
        let dir = scratch("mixed");
        let eleven = dir.join("eleven.txt");
        std::fs::write(&eleven, format!("{}\n", sample(1, None))).unwrap();
        let seven = dir.join("seven.txt");
        let brandubh: crate::board::variant::NamedRules = "brandubh".parse().unwrap();
        let small = Sample {
            board: brandubh.start_board::<Seven>().unwrap(),
            score: None,
            result: GameResult::Draw,
            game: 1,
            best: None,
        };
        std::fs::write(&seven, format!("{small}\n")).unwrap();
        let err = probe_all(&[eleven.clone(), seven.clone()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("seven.txt: text lines of 7x7 boards"), "{err}");
        assert!(err.contains("convert them apart"), "{err}");

        let empty = dir.join("empty.txt");
        std::fs::write(&empty, "# nothing\n").unwrap();
        let err = probe(&empty).unwrap_err().to_string();
        assert!(err.contains("no samples in the file"), "{err}");
        let short = dir.join("short.bin");
        std::fs::write(&short, packed::MAGIC).unwrap();
        let err = probe(&short).unwrap_err().to_string();
        assert!(err.contains("shorter than its 16-byte header"), "{err}");

        let bad = dir.join("bad.txt");
        std::fs::write(&bad, format!("{}\nnot a sample\n", sample(1, None))).unwrap();
        let err = convert::<Standard, _>(&[bad], SampleFormat::Text, Vec::new(), |_| {})
            .unwrap_err()
            .to_string();
        assert!(err.contains("bad.txt:2:"), "{err}");
    }
}
