//! The net file: the quantised network, little-endian, in this order:
//!
//! | bytes                 | what                                                       |
//! |-----------------------|------------------------------------------------------------|
//! | 8                     | magic `HNEFINNU`                                           |
//! | 4 (u32)               | format version, [`VERSION`]                                |
//! | 4 (u32)               | inputs I: 3 x squares (147, 243, 363 or 507 by board side) |
//! | 4 (u32)               | hidden units H                                             |
//! | 4 (f32)               | logistic scale: P(win) = sigmoid(scale * cp)               |
//! | 4 (u32)               | flags (version 2 on): bit 0 = residual                     |
//! | 8 (u64)               | (version 3) of a residual net, the fingerprint of the hand |
//! |                       | evaluation it corrects ([`crate::search::eval::fingerprint`]), else 0 |
//! | I x H x 2 (i16)       | feature weights, input by input (H each), on `1/QA`        |
//! | H x 2 (i16)           | hidden biases, on `1/QA`                                   |
//! | 2 x H x 2 (i16)       | output weights, attackers to move then defenders, cp x QB  |
//! | 2 x 4 (i32)           | output biases, attackers then defenders, cp x QA x QB      |
//!
//! Feature weights and hidden biases must lie within `±QA` ([`super::FEATURE_CLIP`]), and
//! their sum on a board full of pieces within `i16` ([`QuantisedNetwork::reach`]), which
//! keeps every accumulator inside `i16`.
//!
//! Version 2 adds the flags word; version 1 files, without it, are plain networks and still
//! read. A residual network's output is a correction added to the hand evaluation
//! ([`QuantisedNetwork::evaluate_position`]), and only to the one it was trained on: version 3
//! records which, version 2 files do not say. Unknown versions and flags are refused.

use super::network::QuantisedNetwork;
use super::{HIDDEN, QA, board_side};
use crate::search::eval::fingerprint_of;
use std::io;
use std::path::{Path, PathBuf};

/// The first bytes of every net file.
pub const MAGIC: &[u8; 8] = b"HNEFINNU";
/// The version this build writes; it reads 1 to 3.
pub const VERSION: u32 = 3;
/// Magic, version, inputs, hidden units and scale: the whole header of version 1.
const HEADER_V1: usize = 8 + 4 + 4 + 4 + 4;
/// Version 2 adds the flags.
const HEADER_V2: usize = HEADER_V1 + 4;
/// Version 3 adds the hand evaluation's fingerprint.
const HEADER: usize = HEADER_V2 + 8;
/// The weights' bytes of a network of `inputs` inputs.
const fn body(inputs: usize) -> usize {
    2 * (inputs * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 * 2
}
/// The size of a net file of the 11x11 board.
pub const FILE_SIZE: usize = HEADER + body(363);
/// Flag: the network is a correction to the hand evaluation.
pub const FLAG_RESIDUAL: u32 = 1;

/// Why a net file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum NnueError {
    #[error("cannot read net file {}: {source}", path.display())]
    /// The file cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    #[error("cannot write net file {}: {source}", path.display())]
    /// The file cannot be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    #[error("not a Hnefi net file (its first bytes are not {:?})", "HNEFINNU")]
    /// Not a net file.
    Magic,
    #[error("net file format version {0}; this build reads versions 1 to {VERSION}")]
    /// A version this build does not read.
    Version(u32),
    #[error("the net file has unknown flags {0:#x}; this build knows {FLAG_RESIDUAL:#x}")]
    /// Flags this build does not know.
    Flags(u32),
    #[error(
        "the net has {inputs} inputs and {hidden} hidden units; this build runs {HIDDEN} \
         hidden units and 3 inputs a square of a 7x7, 9x9, 11x11 or 13x13 board"
    )]
    /// A network of another shape.
    Shape {
        /// Its inputs.
        inputs: u32,
        /// Its hidden units.
        hidden: u32,
    },
    #[error(
        "the net is for another board: it has {inputs} inputs, where {side}x{side} takes {}; \
         give it a net trained on {side}x{side}",
        3 * usize::from(*side) * usize::from(*side)
    )]
    /// A network of another board.
    Board {
        /// The board it was read for.
        side: u8,
        /// Its inputs.
        inputs: usize,
    },
    #[error("the net file is cut short: {found} bytes of {expected}")]
    /// The file is shorter than its shape.
    Truncated {
        /// Its bytes.
        found: usize,
        /// The bytes of its shape.
        expected: usize,
    },
    #[error("the net file has {found} bytes, more than the {expected} of its shape")]
    /// The file is longer than its shape.
    TrailingBytes {
        /// Its bytes.
        found: usize,
        /// The bytes of its shape.
        expected: usize,
    },
    #[error("the net's logistic scale {0} is not a positive number")]
    /// A logistic scale that is not a positive number.
    Scale(f32),
    #[error(
        "feature weight or bias {index} is {value}, beyond ±{QA}: the accumulator could \
         overflow"
    )]
    /// A feature weight or bias large enough to overflow the accumulator.
    FeatureWeight {
        /// Which.
        index: usize,
        /// Its value.
        value: i16,
    },
    #[error(
        "the net's accumulator could reach {0} on a board full of pieces, beyond i16's {max}: \
         train it again with smaller feature weights",
        max = i16::MAX
    )]
    /// Weights whose sum could overflow the accumulator.
    Reach(i32),
}

/// Reads little-endian values in turn; the caller has checked the length.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().expect("split at N")
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
}

impl QuantisedNetwork {
    /// The network of a net file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNetwork, NnueError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(NnueError::Magic);
        }
        let truncated = |expected| NnueError::Truncated {
            found: bytes.len(),
            expected,
        };
        if bytes.len() < 12 {
            return Err(truncated(HEADER_V1));
        }
        let mut r = Reader(&bytes[8..]);
        let version = r.u32();
        let header = match version {
            1 => HEADER_V1,
            2 => HEADER_V2,
            3 => HEADER,
            _ => return Err(NnueError::Version(version)),
        };
        if bytes.len() < header {
            return Err(truncated(header));
        }
        let (inputs, hidden) = (r.u32(), r.u32());
        if board_side(inputs as usize).is_none() || hidden as usize != HIDDEN {
            return Err(NnueError::Shape { inputs, hidden });
        }
        let size = header + body(inputs as usize);
        let scale = f32::from_le_bytes(r.take());
        if !(scale.is_finite() && scale > 0.0) {
            return Err(NnueError::Scale(scale));
        }
        let flags = if version >= 2 { r.u32() } else { 0 };
        if flags & !FLAG_RESIDUAL != 0 {
            return Err(NnueError::Flags(flags));
        }
        let hand = if version >= 3 {
            u64::from_le_bytes(r.take())
        } else {
            0
        };
        match bytes.len() {
            n if n < size => return Err(truncated(size)),
            n if n > size => {
                return Err(NnueError::TrailingBytes {
                    found: n,
                    expected: size,
                });
            }
            _ => {}
        }
        let mut net = QuantisedNetwork::zero(scale, inputs as usize);
        net.residual = flags & FLAG_RESIDUAL != 0;
        net.hand = if net.residual { hand } else { 0 };
        let mut index = 0;
        let mut feature = |r: &mut Reader| {
            let value = r.i16();
            index += 1;
            if i32::from(value).abs() > QA {
                Err(NnueError::FeatureWeight {
                    index: index - 1,
                    value,
                })
            } else {
                Ok(value)
            }
        };
        for row in net.feature_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = feature(&mut r)?;
            }
        }
        for b in net.feature_bias.iter_mut() {
            *b = feature(&mut r)?;
        }
        for w in net.output_weights.iter_mut().flatten() {
            *w = r.i16();
        }
        for b in net.output_bias.iter_mut() {
            *b = i32::from_le_bytes(r.take());
        }
        let reach = net.reach();
        if reach > i32::from(i16::MAX) {
            return Err(NnueError::Reach(reach));
        }
        Ok(net)
    }

    /// The network of a net file's bytes for boards of `side`, refused if it is for another.
    pub fn from_bytes_for(bytes: &[u8], side: u8) -> Result<QuantisedNetwork, NnueError> {
        let net = QuantisedNetwork::from_bytes(bytes)?;
        net.check_board(side)?;
        Ok(net)
    }

    /// Whether the network is for boards of `side`, or the error that says it is not.
    pub fn check_board(&self, side: u8) -> Result<(), NnueError> {
        if self.board_side() == Some(side) {
            Ok(())
        } else {
            Err(NnueError::Board {
                side,
                inputs: self.inputs(),
            })
        }
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + body(self.inputs()));
        out.extend_from_slice(MAGIC);
        for x in [VERSION, self.inputs() as u32, HIDDEN as u32] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        let flags = if self.residual { FLAG_RESIDUAL } else { 0 };
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(&self.hand.to_le_bytes());
        let weights = self
            .feature_weights
            .iter()
            .flatten()
            .chain(&self.feature_bias)
            .chain(self.output_weights.iter().flatten());
        for w in weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The network in the file at `path`.
    pub fn load(path: &Path) -> Result<QuantisedNetwork, NnueError> {
        let bytes = std::fs::read(path).map_err(|source| NnueError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let net = QuantisedNetwork::from_bytes(&bytes)?;
        if !net.fits_hand_evaluation() {
            log::warn!(
                "net file {}: a correction to {} hand evaluation than this build's; train it \
                 again on this build",
                path.display(),
                if net.hand == 0 {
                    "a hand evaluation it does not name (format version 2), maybe another"
                } else {
                    "another"
                }
            );
        }
        Ok(net)
    }

    /// Whether the network can run on this build: a plain network always, a correction only
    /// on the hand evaluation it was trained on.
    pub fn fits_hand_evaluation(&self) -> bool {
        !self.is_residual() || self.board_side().and_then(fingerprint_of) == Some(self.hand)
    }

    /// Writes the net file, replacing any earlier one only once it is whole.
    pub fn save(&self, path: &Path) -> Result<(), NnueError> {
        crate::files::replace(path, &self.to_bytes()).map_err(|source| NnueError::Write {
            path: path.to_path_buf(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Eleven;
    use crate::search::eval::fingerprint;

    fn net() -> QuantisedNetwork {
        QuantisedNetwork::random(9, 363)
    }

    /// A correction to this build's 11x11 hand evaluation, as the trainer writes one.
    fn correction(seed: u64) -> QuantisedNetwork {
        let mut net = QuantisedNetwork::random(seed, 363);
        net.residual = true;
        net.hand = fingerprint::<Eleven>();
        net
    }

    #[test]
    fn a_net_round_trips_through_its_file() {
        let net = net();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        assert_eq!(QuantisedNetwork::from_bytes(&bytes).unwrap(), net);
        let path = std::env::temp_dir().join(format!("hnefi-nnue-{}.nnue", std::process::id()));
        net.save(&path).unwrap();
        let loaded = QuantisedNetwork::load(&path);
        let _ = std::fs::remove_file(&path);
        assert_eq!(loaded.unwrap(), net);
    }

    #[test]
    fn a_correction_fits_only_the_hand_evaluation_it_was_trained_on() {
        let trained = correction(3);
        assert!(trained.fits_hand_evaluation());
        let mut other = trained.clone();
        other.hand ^= 1;
        assert!(!other.fits_hand_evaluation());
        // A version 2 file does not say which hand evaluation: it is not taken to fit.
        let v2 = QuantisedNetwork::from_bytes(&version_2(&trained)).unwrap();
        assert!(v2.is_residual() && v2.hand == 0);
        assert!(!v2.fits_hand_evaluation());
        let plain = QuantisedNetwork::random(3, 363);
        assert_eq!(plain.hand, 0);
        assert!(plain.fits_hand_evaluation(), "a plain network stands alone");
    }

    #[test]
    fn a_residual_net_round_trips_with_its_flag() {
        let net = correction(9);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        assert_eq!(u32::from_le_bytes(bytes[24..28].try_into().unwrap()), 1);
        assert_eq!(
            u64::from_le_bytes(bytes[28..36].try_into().unwrap()),
            fingerprint::<Eleven>()
        );
        let back = QuantisedNetwork::from_bytes(&bytes).unwrap();
        assert!(back.is_residual());
        assert_eq!(back, net);
        // The same weights without the flag are another network.
        let plain = QuantisedNetwork::from_bytes(&with_flags(&bytes, 0)).unwrap();
        assert!(!plain.is_residual());
        assert_ne!(plain, net);
    }

    fn with_flags(bytes: &[u8], flags: u32) -> Vec<u8> {
        let mut b = bytes.to_vec();
        b[24..28].copy_from_slice(&flags.to_le_bytes());
        b
    }

    /// A version 2 file of `net`: the header without the fingerprint.
    fn version_2(net: &QuantisedNetwork) -> Vec<u8> {
        let v3 = net.to_bytes();
        let mut b = v3[..HEADER_V2].to_vec();
        b[8..12].copy_from_slice(&2u32.to_le_bytes());
        b.extend_from_slice(&v3[HEADER..]);
        assert_eq!(b.len(), HEADER_V2 + body(363));
        b
    }

    /// A version 1 file of `net`: the header without the flags and the fingerprint.
    fn version_1(net: &QuantisedNetwork) -> Vec<u8> {
        let v3 = net.to_bytes();
        let mut b = v3[..HEADER_V1].to_vec();
        b[8..12].copy_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&v3[HEADER..]);
        b
    }

    #[test]
    fn version_1_files_still_read_as_plain_nets() {
        let net = net();
        let bytes = version_1(&net);
        assert_eq!(bytes.len(), HEADER_V1 + body(363));
        let back = QuantisedNetwork::from_bytes(&bytes).unwrap();
        assert!(!back.is_residual());
        assert_eq!(back, net);
        let mut short = bytes.clone();
        short.pop();
        assert!(matches!(
            QuantisedNetwork::from_bytes(&short),
            Err(NnueError::Truncated { expected, .. }) if expected == HEADER_V1 + body(363)
        ));
        let mut long = bytes;
        long.extend_from_slice(&[0; 4]);
        assert!(matches!(
            QuantisedNetwork::from_bytes(&long),
            Err(NnueError::TrailingBytes { expected, .. }) if expected == HEADER_V1 + body(363)
        ));
    }

    /// A net of `side` whose feature weights and biases are all `w`, but `bias` for the biases.
    fn flat(side: usize, w: i16, bias: i16) -> QuantisedNetwork {
        let mut net = QuantisedNetwork::random(1, 3 * side * side);
        net.feature_weights
            .iter_mut()
            .flatten()
            .for_each(|x| *x = w);
        net.feature_bias.fill(bias);
        net
    }

    #[test]
    fn a_net_that_a_full_board_could_overflow_is_refused() {
        let qa = QA as i16;
        // At the clip, a full 11x11 board stays inside i16, a full 13x13 one would not.
        let eleven = flat(11, qa, qa);
        assert_eq!(eleven.reach(), 122 * QA);
        assert!(QuantisedNetwork::from_bytes(&eleven.to_bytes()).is_ok());
        let err = QuantisedNetwork::from_bytes(&flat(13, qa, qa).to_bytes()).unwrap_err();
        assert!(matches!(err, NnueError::Reach(r) if r == 170 * QA), "{err}");
        assert!(err.to_string().contains("train it again"));
        // One past i16 on a single unit is enough.
        let mut over = flat(13, 193, 150);
        assert_eq!(over.reach(), i32::from(i16::MAX));
        over.feature_bias[7] = -151;
        assert!(matches!(
            QuantisedNetwork::from_bytes(&over.to_bytes()),
            Err(NnueError::Reach(32768))
        ));
    }

    /// A net read from its file at the very edge of `i16`, on the largest board full of pieces,
    /// either way, with every kernel: every accumulator is exact.
    #[test]
    fn an_accumulator_at_the_nets_reach_does_not_overflow() {
        use crate::board::geometry::MAX_SQUARES;
        use crate::search::nnue::simd::{self, Kernels};
        // 169 x 193 + 150 = 32,767, on every unit, half of them negative.
        let mut net = flat(13, 193, 150);
        for row in net.feature_weights.iter_mut() {
            for (h, w) in row.iter_mut().enumerate() {
                *w = if h % 2 == 0 { 193 } else { -193 };
            }
        }
        for (h, b) in net.feature_bias.iter_mut().enumerate() {
            *b = if h % 2 == 0 { 150 } else { -150 };
        }
        let net = QuantisedNetwork::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(net.reach(), i32::from(i16::MAX));
        for k in Kernels::available() {
            // Every square full, the three kinds of piece in turn.
            let mut acc = net.feature_bias;
            for sq in 0..MAX_SQUARES {
                simd::add(
                    k,
                    &mut acc,
                    &net.feature_weights[(sq % 3) * MAX_SQUARES + sq],
                );
            }
            for (h, &v) in acc.iter().enumerate() {
                assert_eq!(v, if h % 2 == 0 { i16::MAX } else { -i16::MAX }, "{k:?}");
            }
        }
    }

    #[test]
    fn corrupt_files_give_their_error() {
        let good = net().to_bytes();
        let with = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            QuantisedNetwork::from_bytes(&b).unwrap_err()
        };
        assert!(matches!(with(&|b| b[0] = b'X'), NnueError::Magic));
        assert!(matches!(with(&|b| b.truncate(3)), NnueError::Magic));
        assert!(matches!(
            with(&|b| b.truncate(HEADER - 1)),
            NnueError::Truncated { .. }
        ));
        assert!(matches!(
            with(&|b| b.truncate(FILE_SIZE - 1)),
            NnueError::Truncated { found, expected } if found == FILE_SIZE - 1 && expected == FILE_SIZE
        ));
        assert!(matches!(
            with(&|b| b.push(0)),
            NnueError::TrailingBytes { .. }
        ));
        assert!(matches!(with(&|b| b[8] = 4), NnueError::Version(4)));
        assert!(matches!(with(&|b| b[8] = 0), NnueError::Version(0)));
        assert!(matches!(with(&|b| b[24] = 3), NnueError::Flags(3)));
        assert!(matches!(
            with(&|b| b[27] = 0x80),
            NnueError::Flags(0x8000_0000)
        ));
        assert!(matches!(
            with(&|b| b[16..20].copy_from_slice(&128u32.to_le_bytes())),
            NnueError::Shape { hidden: 128, .. }
        ));
        assert!(matches!(
            with(&|b| b[20..24].copy_from_slice(&f32::NAN.to_le_bytes())),
            NnueError::Scale(_)
        ));
        assert!(matches!(
            with(&|b| b[HEADER + 2 * 7..HEADER + 2 * 8].copy_from_slice(&300i16.to_le_bytes())),
            NnueError::FeatureWeight {
                index: 7,
                value: 300
            }
        ));
        let missing = std::path::Path::new("/nonexistent/hnefi.nnue");
        assert!(matches!(
            QuantisedNetwork::load(missing),
            Err(NnueError::Read { .. })
        ));
        // Every message says what is wrong.
        assert!(with(&|b| b.push(0)).to_string().contains("more than"));
    }
}
