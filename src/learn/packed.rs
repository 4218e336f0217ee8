//! Training samples in a compact binary file: a header, then one fixed-size record a position.
//! 100,000 positions of 11x11 take 4.4 MB, against about 8.5 MB as text lines, and read
//! without parsing a FEN. The text lines ([`super::sample`]) stay the format people read;
//! `hnefi convert` turns one into the other and back, losslessly.
//!
//! The header (16 bytes, integers little-endian):
//!
//! | bytes | what |
//! |-------|------|
//! | 0-7   | `HNEFIPOS` |
//! | 8-9   | the format's version, 2 (1 is still read: its records have no best move) |
//! | 10    | the board's width (7 to 13) |
//! | 11    | 0 |
//! | 12-13 | the record's size in bytes, [`record_size`] of the width |
//! | 14-15 | 0 |
//!
//! A record, for a board of `S` squares and `B = ceil(S / 8)`:
//!
//! | bytes | what |
//! |-------|------|
//! | `B`   | the attackers, square `i` at bit `i % 8` of byte `i / 8` |
//! | `B`   | the defenders, the same |
//! | 1     | the king's square |
//! | 1     | bit 0: the defenders to move; bits 1-2: the result (0 attackers won, 1 defenders won, 2 draw); bit 3: a score follows |
//! | 2     | the score, cp from the attackers' view (`i16`, within [`SCORE_CAP`]) |
//! | 8     | the game (`u64`) |
//! | 2     | version 2 only: the best move's squares, from then to (indices as in FEN order of [`Square::index`]); `255 255` for none |

use super::sample::{GameResult, SCORE_CAP, Sample};
use crate::board::{Bitboard, Board, Move, Square};
use crate::board::{Geometry, Side};
use std::io::{self, BufRead, Read, Write};

pub const MAGIC: [u8; 8] = *b"HNEFIPOS";
pub const VERSION: u16 = 2;
/// The first version, without the best move; still read.
pub const VERSION_1: u16 = 1;
pub const HEADER: usize = 16;

/// The bytes of one record on a board `width` squares wide, in the current version.
pub const fn record_size(width: u8) -> usize {
    record_size_v1(width) + 2
}

/// The bytes of one record of version 1, which had no best move.
const fn record_size_v1(width: u8) -> usize {
    let squares = width as usize * width as usize;
    2 * squares.div_ceil(8) + 1 + 1 + 2 + 8
}

/// No best move, in a record's move bytes.
const NO_SQUARE: u8 = 255;

#[derive(Debug, thiserror::Error)]
pub enum PackedError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("not a binary sample file (it does not start with HNEFIPOS)")]
    NotPacked,
    #[error("the file is shorter than its 16-byte header")]
    NoHeader,
    #[error(
        "format version {0}: this build reads versions {VERSION_1} and {VERSION}; convert it with the build that wrote it"
    )]
    Version(u16),
    #[error(
        "the file is for {found}x{found} boards, not {want}x{want}: pass the rules of its board (--rules)"
    )]
    Board { found: u8, want: u8 },
    #[error(
        "the header gives {found}-byte records where {width}x{width} boards have {want}: the file is damaged"
    )]
    RecordSize { found: u16, want: usize, width: u8 },
    #[error(
        "record {record} is cut short ({bytes} of {size} bytes): the file was truncated, perhaps by an interrupted write; the records before it are whole"
    )]
    Truncated {
        record: u64,
        bytes: usize,
        size: usize,
    },
    #[error("record {record} is damaged: {why}")]
    Record { record: u64, why: &'static str },
}

/// The header's board width, from its first bytes; `None` when they are not a binary sample
/// file's.
pub fn width_of_header(header: &[u8]) -> Option<u8> {
    (header.len() >= HEADER && header[..8] == MAGIC).then(|| header[10])
}

fn header(width: u8) -> [u8; HEADER] {
    let mut h = [0; HEADER];
    h[..8].copy_from_slice(&MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10] = width;
    h[12..14].copy_from_slice(&(record_size(width) as u16).to_le_bytes());
    h
}

/// Writes samples of boards of `G` to `out`, the header first.
pub struct PackedWriter<G: Geometry, W: Write> {
    out: W,
    record: Vec<u8>,
    _board: std::marker::PhantomData<G>,
}

impl<G: Geometry, W: Write> PackedWriter<G, W> {
    pub fn new(mut out: W) -> io::Result<Self> {
        out.write_all(&header(G::SIDE))?;
        Ok(PackedWriter {
            out,
            record: vec![0; record_size(G::SIDE)],
            _board: std::marker::PhantomData,
        })
    }

    pub fn write(&mut self, sample: &Sample<G>) -> io::Result<()> {
        encode(sample, &mut self.record);
        self.out.write_all(&self.record)
    }

    /// The writer, flushed.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Reads the samples of a binary file one record at a time, in bounded memory.
pub struct PackedReader<G: Geometry, R: BufRead> {
    input: R,
    record: Vec<u8>,
    index: u64,
    done: bool,
    _board: std::marker::PhantomData<G>,
}

impl<G: Geometry, R: BufRead> PackedReader<G, R> {
    /// Checks the header: the format, its version and that its boards are `G`'s.
    pub fn new(mut input: R) -> Result<Self, PackedError> {
        let mut h = [0; HEADER];
        let got = read_full(&mut input, &mut h)?;
        if got < 8 || h[..8] != MAGIC {
            return Err(PackedError::NotPacked);
        }
        if got < HEADER {
            return Err(PackedError::NoHeader);
        }
        let version = u16::from_le_bytes([h[8], h[9]]);
        let want = match version {
            VERSION => record_size(h[10]),
            VERSION_1 => record_size_v1(h[10]),
            _ => return Err(PackedError::Version(version)),
        };
        let width = h[10];
        if width != G::SIDE {
            return Err(PackedError::Board {
                found: width,
                want: G::SIDE,
            });
        }
        let size = u16::from_le_bytes([h[12], h[13]]);
        if usize::from(size) != want {
            return Err(PackedError::RecordSize {
                found: size,
                want,
                width,
            });
        }
        Ok(PackedReader {
            input,
            record: vec![0; want],
            index: 0,
            done: false,
            _board: std::marker::PhantomData,
        })
    }
}

impl<G: Geometry, R: BufRead> Iterator for PackedReader<G, R> {
    type Item = Result<Sample<G>, PackedError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let got = match read_full(&mut self.input, &mut self.record) {
            Ok(got) => got,
            Err(e) => {
                self.done = true;
                return Some(Err(e.into()));
            }
        };
        let record = self.index;
        self.index += 1;
        if got < self.record.len() {
            self.done = true;
            return (got > 0).then_some(Err(PackedError::Truncated {
                record,
                bytes: got,
                size: self.record.len(),
            }));
        }
        Some(decode(&self.record).map_err(|why| PackedError::Record { record, why }))
    }
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

fn bytes_per_set<G: Geometry>() -> usize {
    G::SQUARES.div_ceil(8)
}

fn put_set<G: Geometry>(set: Bitboard<G>, out: &mut [u8]) {
    out.fill(0);
    set.for_each_square(|sq| out[sq.index() / 8] |= 1 << (sq.index() % 8));
}

fn get_set<G: Geometry>(bytes: &[u8]) -> Result<Bitboard<G>, &'static str> {
    let mut set = Bitboard::EMPTY;
    for (i, &byte) in bytes.iter().enumerate() {
        let mut bits = byte;
        while bits != 0 {
            let index = i * 8 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let sq = u8::try_from(index)
                .ok()
                .and_then(Square::new)
                .ok_or("a piece off the board")?;
            set = set.with(sq);
        }
    }
    Ok(set)
}

/// One record of `sample`, into `out` (of [`record_size`] bytes).
fn encode<G: Geometry>(sample: &Sample<G>, out: &mut [u8]) {
    let b = bytes_per_set::<G>();
    let board = &sample.board;
    put_set(board.attackers(), &mut out[..b]);
    put_set(board.defenders(), &mut out[b..2 * b]);
    out[2 * b] = board.king().index() as u8;
    let result = match sample.result {
        GameResult::AttackersWon => 0,
        GameResult::DefendersWon => 1,
        GameResult::Draw => 2,
    };
    let mover = u8::from(board.side_to_move() == Side::Defenders);
    out[2 * b + 1] = mover | result << 1 | u8::from(sample.score.is_some()) << 3;
    let score = sample.score.unwrap_or(0).clamp(-SCORE_CAP, SCORE_CAP) as i16;
    out[2 * b + 2..2 * b + 4].copy_from_slice(&score.to_le_bytes());
    out[2 * b + 4..2 * b + 12].copy_from_slice(&sample.game.to_le_bytes());
    let (from, to) = sample.best.map_or((NO_SQUARE, NO_SQUARE), |mv| {
        (mv.from().index() as u8, mv.to().index() as u8)
    });
    out[2 * b + 12] = from;
    out[2 * b + 13] = to;
}

fn decode<G: Geometry>(record: &[u8]) -> Result<Sample<G>, &'static str> {
    let b = bytes_per_set::<G>();
    let attackers = get_set::<G>(&record[..b])?;
    let defenders = get_set::<G>(&record[b..2 * b])?;
    let king = Square::new(record[2 * b]).ok_or("the king off the board")?;
    let flags = record[2 * b + 1];
    if flags >> 4 != 0 {
        return Err("unknown flags");
    }
    let side = if flags & 1 == 0 {
        Side::Attackers
    } else {
        Side::Defenders
    };
    let result = match (flags >> 1) & 3 {
        0 => GameResult::AttackersWon,
        1 => GameResult::DefendersWon,
        2 => GameResult::Draw,
        _ => return Err("an unknown result"),
    };
    let score = i32::from(i16::from_le_bytes([record[2 * b + 2], record[2 * b + 3]]));
    if score.abs() > SCORE_CAP {
        return Err("a score beyond the cap");
    }
    let game = u64::from_le_bytes(record[2 * b + 4..2 * b + 12].try_into().expect("8 bytes"));
    let board =
        Board::new(attackers, defenders, king, side).map_err(|_| "two pieces on one square")?;
    // A version 1 record ends before the move.
    let best = match record.get(2 * b + 12..2 * b + 14) {
        None | Some([NO_SQUARE, NO_SQUARE]) => None,
        Some(&[from, to]) => {
            let (from, to) = Square::new(from)
                .zip(Square::new(to))
                .filter(|(from, to)| from != to)
                .ok_or("a best move off the board")?;
            if board.piece_at(from).map(|p| p.side()) != Some(side) {
                return Err("a best move from a square without the mover's piece");
            }
            Some(Move::new(from, to))
        }
        Some(_) => unreachable!("a slice of two bytes"),
    };
    Ok(Sample {
        board,
        score: (flags & 8 != 0).then_some(score),
        result,
        game,
        best,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::MoveList;
    use crate::board::Rulebook;
    use crate::board::Seven;
    use crate::board::rules::{Preset, Rules};
    use crate::search::size::Standard;
    use crate::search::size::{Size, SizedTask, run_sized};
    use crate::splitmix::SplitMix64;

    /// Positions of random games of `preset`, with every kind of score and result.
    pub(crate) fn random_samples<G: Geometry>(preset: Preset, seed: u64) -> Vec<Sample<G>> {
        let rulebook = Rulebook::<G>::new(Rules::preset(preset));
        let mut rng = SplitMix64::new(seed);
        let mut list = MoveList::new();
        let mut out = Vec::new();
        for game in 0..4 {
            let mut board = Board::<G>::from_fen(preset.start_fen()).unwrap();
            for ply in 0..100 {
                let score = match ply % 3 {
                    0 => None,
                    1 => Some(SCORE_CAP),
                    _ => Some(rng.below(2001) as i32 - 1000),
                };
                let result = [
                    GameResult::AttackersWon,
                    GameResult::DefendersWon,
                    GameResult::Draw,
                ][ply % 3];
                list.clear();
                board.generate_moves(&rulebook, &mut list);
                let mv = (!list.is_empty()).then(|| list[rng.below(list.len())]);
                out.push(Sample {
                    board,
                    score,
                    result,
                    game: u64::MAX - game,
                    best: mv.filter(|_| ply % 2 == 0),
                });
                let Some(mv) = mv else {
                    break;
                };
                board.play(mv, &rulebook);
                if rulebook.mover_win(&board, mv).is_some() {
                    break;
                }
            }
        }
        out
    }

    fn pack<G: Geometry>(samples: &[Sample<G>]) -> Vec<u8> {
        let mut w = PackedWriter::<G, _>::new(Vec::new()).unwrap();
        for s in samples {
            w.write(s).unwrap();
        }
        w.finish().unwrap()
    }

    struct RoundTrip(Preset);
    impl SizedTask for RoundTrip {
        type Output = ();
        fn run<G: Size>(self) {
            round_trip::<G>(self.0)
        }
    }

    fn round_trip<G: Geometry>(preset: Preset) {
        let samples = random_samples::<G>(preset, u64::from(G::SIDE));
        let bytes = pack(&samples);
        assert_eq!(bytes.len(), HEADER + samples.len() * record_size(G::SIDE));
        let back: Vec<Sample<G>> = PackedReader::<G, _>::new(&bytes[..])
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, samples, "{preset}");
    }

    #[test]
    fn every_board_size_round_trips() {
        for side in crate::board::SIDES {
            let preset = Preset::default_for_width(side).unwrap();
            run_sized(side, RoundTrip(preset)).unwrap();
        }
        assert_eq!(record_size(11), 46);
    }

    #[test]
    fn version_1_files_read_without_best_moves() {
        let samples: Vec<Sample<Standard>> = random_samples(Preset::Copenhagen, 5)
            .into_iter()
            .map(|s| Sample { best: None, ..s })
            .collect();
        let v2 = pack(&samples[..3]);
        // Version 1: the same records without their last two bytes.
        let mut v1 = header(11).to_vec();
        v1[8..10].copy_from_slice(&VERSION_1.to_le_bytes());
        v1[12..14].copy_from_slice(&(record_size_v1(11) as u16).to_le_bytes());
        for record in v2[HEADER..].chunks(record_size(11)) {
            v1.extend_from_slice(&record[..record_size_v1(11)]);
        }
        let back: Vec<Sample<Standard>> = PackedReader::<Standard, _>::new(&v1[..])
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, samples[..3]);
    }

    #[test]
    fn a_cut_file_reads_its_whole_records_then_says_where_it_was_cut() {
        let samples = random_samples::<Standard>(Preset::Copenhagen, 3);
        let bytes = pack(&samples[..5]);
        let cut = &bytes[..bytes.len() - 7];
        let read: Vec<_> = PackedReader::<Standard, _>::new(cut).unwrap().collect();
        assert_eq!(read.len(), 5);
        assert!(read[..4].iter().all(Result::is_ok));
        let err = read[4].as_ref().unwrap_err().to_string();
        assert!(
            err.contains("record 4 is cut short (39 of 46 bytes)"),
            "{err}"
        );
    }

    #[test]
    fn wrong_files_are_refused_with_their_reason() {
        let samples = random_samples::<Seven>(Preset::Brandubh, 4);
        let bytes = pack(&samples);
        let err = |bytes: &[u8]| {
            PackedReader::<Standard, _>::new(bytes)
                .err()
                .expect("refused")
                .to_string()
        };
        assert!(err(&bytes).contains("for 7x7 boards, not 11x11"));
        assert!(err(b"3aaaaa3/5a5 a;1;a;1").contains("not a binary sample file"));
        assert!(err(&bytes[..12]).contains("shorter than its 16-byte header"));
        let mut newer = pack(&random_samples::<Standard>(Preset::Copenhagen, 4));
        newer[8] = 9;
        assert!(err(&newer).contains("format version 9"));
        newer[8] = 2;
        newer[12] = 40;
        assert!(err(&newer).contains("40-byte records where 11x11 boards have 46"));
        // A king off the board.
        newer[12] = 46;
        newer[HEADER + 32] = 200;
        let first = PackedReader::<Standard, _>::new(&newer[..]).unwrap().next();
        let e = first.unwrap().unwrap_err().to_string();
        assert!(
            e.contains("record 0 is damaged: the king off the board"),
            "{e}"
        );
    }
}
