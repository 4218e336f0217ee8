//! The policy file, little-endian:
//!
//! | bytes             | what                                                          |
//! |-------------------|---------------------------------------------------------------|
//! | 8                 | magic `HNEFIPOL`                                              |
//! | 2 (u16)           | format version, [`VERSION`]                                   |
//! | 1                 | the board's side (7 to 13)                                    |
//! | 1                 | 0                                                             |
//! | 4 (u32)           | hidden units, [`HIDDEN`]                                      |
//! | 8 (u64)           | the fingerprint of the network it reads                       |
//! | rows              | for the attackers then the defenders, the `From` rows square by square, then the `To` rows: each a bias (i32, on `1/(QA QP)`) and `HIDDEN` weights (i16, on `1/QP`) |
//! | patterns          | version 2: the `PATTERNS` weights of the local features (i32, on `1/(QA QP)`), in the order of `patterns` |
//!
//! Weights lie within `±MAX_WEIGHT`, biases within `±MAX_BIAS` and pattern weights within
//! `±MAX_PATTERN`, which keeps a move's sum of two rows and its patterns inside `i32`. A file
//! of version 1 (rows alone) reads as a policy whose pattern weights are zero.

use super::patterns::{FEATS, PATTERNS};
use super::{End, HIDDEN, Policy, QA};
use crate::board::{SIDES, Side};
use std::path::{Path, PathBuf};

/// The first bytes of every policy file.
pub const MAGIC: &[u8; 8] = b"HNEFIPOL";
/// The version this build reads and writes.
pub const VERSION: u16 = 2;
/// The version before the local features, still read.
const ROWS_ONLY: u16 = 1;
const HEADER: usize = 8 + 2 + 1 + 1 + 4 + 8;
/// The largest weight magnitude a file may hold (64 nats a unit of activation).
pub const MAX_WEIGHT: i16 = 4096;
/// The largest bias magnitude.
pub const MAX_BIAS: i32 = 1 << 28;
/// The largest pattern weight magnitude.
pub const MAX_PATTERN: i32 = 1 << 26;

// Two rows' sums and biases and a move's patterns stay inside i32.
const _: () = assert!(
    2 * (HIDDEN as i64 * QA as i64 * MAX_WEIGHT as i64 + MAX_BIAS as i64)
        + FEATS as i64 * MAX_PATTERN as i64
        <= i32::MAX as i64
);

const fn row_bytes() -> usize {
    4 + 2 * HIDDEN
}

/// Why a policy file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("cannot read policy file {}: {source}", path.display())]
    /// The file cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    #[error("cannot write policy file {}: {source}", path.display())]
    /// The file cannot be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    #[error("not a Hnefi policy file (its first bytes are not \"HNEFIPOL\")")]
    /// Not a policy file.
    Magic,
    #[error("policy file format version {0}; this build reads versions 1 and {VERSION}")]
    /// A version this build does not read.
    Version(u16),
    #[error(
        "the policy has {hidden} hidden units on a {side}x{side} board; this build runs \
         {HIDDEN} on a 7x7, 9x9, 11x11 or 13x13 board"
    )]
    /// A policy of another shape.
    Shape {
        /// Its board's side.
        side: u8,
        /// Its hidden units.
        hidden: u32,
    },
    #[error("the policy is for {found}x{found} boards, not {want}x{want}")]
    /// A policy of another board.
    Board {
        /// Its board.
        found: u8,
        /// The board it was read for.
        want: u8,
    },
    #[error("the policy file has {found} bytes where its shape takes {expected}")]
    /// A file cut short or with bytes left over.
    Length {
        /// Its bytes.
        found: usize,
        /// The bytes of its shape.
        expected: usize,
    },
    #[error("policy row {row}: a weight or bias beyond its bound (±{MAX_WEIGHT}, ±{MAX_BIAS})")]
    /// A value that could overflow the sums.
    Weight {
        /// The row.
        row: usize,
    },
    #[error("policy pattern weight {entry} beyond its bound (±{MAX_PATTERN})")]
    /// A pattern weight that could overflow the sums.
    Pattern {
        /// Its entry.
        entry: usize,
    },
}

impl Policy {
    /// The policy of a file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Policy, PolicyError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(PolicyError::Magic);
        }
        if bytes.len() < HEADER {
            return Err(PolicyError::Length {
                found: bytes.len(),
                expected: HEADER,
            });
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION && version != ROWS_ONLY {
            return Err(PolicyError::Version(version));
        }
        let side = bytes[10];
        let hidden = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
        if !SIDES.contains(&side) || hidden as usize != HIDDEN {
            return Err(PolicyError::Shape { side, hidden });
        }
        let net = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        let mut policy = Policy::zero(side, net);
        let rows_end = HEADER + policy.rows.len() * row_bytes();
        let expected = rows_end
            + if version == ROWS_ONLY {
                0
            } else {
                4 * PATTERNS
            };
        if bytes.len() != expected {
            return Err(PolicyError::Length {
                found: bytes.len(),
                expected,
            });
        }
        for (i, (row, chunk)) in policy
            .rows
            .iter_mut()
            .zip(bytes[HEADER..rows_end].chunks_exact(row_bytes()))
            .enumerate()
        {
            row.bias = i32::from_le_bytes(chunk[..4].try_into().expect("4 bytes"));
            for (w, b) in row.weights.iter_mut().zip(chunk[4..].chunks_exact(2)) {
                *w = i16::from_le_bytes([b[0], b[1]]);
            }
            if row.bias.abs() > MAX_BIAS || row.weights.iter().any(|w| w.abs() > MAX_WEIGHT) {
                return Err(PolicyError::Weight { row: i });
            }
        }
        for (entry, (w, b)) in policy
            .patterns
            .iter_mut()
            .zip(bytes[rows_end..].chunks_exact(4))
            .enumerate()
        {
            *w = i32::from_le_bytes(b.try_into().expect("4 bytes"));
            if w.abs() > MAX_PATTERN {
                return Err(PolicyError::Pattern { entry });
            }
        }
        Ok(policy)
    }

    /// The policy of a file's bytes for boards of `side`, refused if it is for another.
    pub fn from_bytes_for(bytes: &[u8], side: u8) -> Result<Policy, PolicyError> {
        let policy = Policy::from_bytes(bytes)?;
        if policy.side != side {
            return Err(PolicyError::Board {
                found: policy.side,
                want: side,
            });
        }
        Ok(policy)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.rows.len() * row_bytes() + 4 * PATTERNS);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&[self.side, 0]);
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        out.extend_from_slice(&self.net.to_le_bytes());
        for row in self.rows.iter() {
            out.extend_from_slice(&row.bias.to_le_bytes());
            for w in row.weights {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for w in self.patterns.iter() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The policy in the file at `path`.
    pub fn load(path: &Path) -> Result<Policy, PolicyError> {
        let bytes = std::fs::read(path).map_err(|source| PolicyError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Policy::from_bytes(&bytes)
    }

    /// Writes the policy to `path`.
    pub fn save(&self, path: &Path) -> Result<(), PolicyError> {
        std::fs::write(path, self.to_bytes()).map_err(|source| PolicyError::Write {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Clips every row into the bounds a file holds: what a trainer calls after rounding.
    pub fn clip(&mut self) {
        for row in self.rows.iter_mut() {
            row.bias = row.bias.clamp(-MAX_BIAS, MAX_BIAS);
            for w in &mut row.weights {
                *w = (*w).clamp(-MAX_WEIGHT, MAX_WEIGHT);
            }
        }
        for w in self.patterns.iter_mut() {
            *w = (*w).clamp(-MAX_PATTERN, MAX_PATTERN);
        }
    }
}

// The row order of the file is the rows' order in memory: (side, end, square).
const _: () = assert!(End::From as usize == 0 && End::To as usize == 1);
const _: () = assert!(Side::Attackers as usize == 0);

#[cfg(test)]
mod tests {
    use super::super::tests::random_policy;
    use super::*;

    #[test]
    fn a_policy_round_trips_through_its_bytes_on_every_board() {
        for side in SIDES {
            let mut p = random_policy(u64::from(side), side, 77);
            p.clip();
            let bytes = p.to_bytes();
            assert_eq!(
                bytes.len(),
                HEADER + 4 * usize::from(side).pow(2) * row_bytes() + 4 * PATTERNS
            );
            assert_eq!(Policy::from_bytes_for(&bytes, side).unwrap(), p);
        }
    }

    #[test]
    fn a_file_of_rows_alone_reads_with_no_pattern_weights() {
        let mut p = random_policy(4, 11, 9);
        p.clip();
        let mut bytes = p.to_bytes();
        bytes.truncate(bytes.len() - 4 * PATTERNS);
        bytes[8..10].copy_from_slice(&ROWS_ONLY.to_le_bytes());
        let read = Policy::from_bytes(&bytes).unwrap();
        assert!(read.patterns().iter().all(|&w| w == 0));
        assert_eq!(read.rows, p.rows);
    }

    #[test]
    fn wrong_files_are_refused_with_their_reason() {
        let p = random_policy(1, 11, 5);
        let bytes = p.to_bytes();
        let err = |b: &[u8]| Policy::from_bytes(b).unwrap_err().to_string();
        assert!(err(b"HNEFINNU....").contains("not a Hnefi policy file"));
        assert!(err(&bytes[..20]).contains("20 bytes"));
        assert!(err(&bytes[..bytes.len() - 1]).contains("where its shape takes"));
        let mut v = bytes.clone();
        v[8] = 9;
        assert!(err(&v).contains("version 9"));
        let mut s = bytes.clone();
        s[10] = 10;
        assert!(err(&s).contains("10x10"));
        let mut w = bytes.clone();
        w[HEADER + 4..HEADER + 6].copy_from_slice(&5000i16.to_le_bytes());
        assert!(err(&w).contains("policy row 0"));
        let mut pat = bytes.clone();
        let at = bytes.len() - 4;
        pat[at..].copy_from_slice(&(MAX_PATTERN + 1).to_le_bytes());
        assert!(err(&pat).contains(&format!("pattern weight {}", PATTERNS - 1)));
        let e = Policy::from_bytes_for(&bytes, 9).unwrap_err().to_string();
        assert!(e.contains("for 11x11 boards, not 9x9"), "{e}");
    }
}
