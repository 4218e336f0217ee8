//! The hand evaluation's fitted weights, kept as data. `hnefi tune` writes each fit to a
//! weights file, and the build decodes the file into a plain static table at compile time:
//! the evaluation reads the same array it would read if the numbers were written in Rust,
//! and a file that does not fit this build's features fails the build, not a game.
//!
//! A weights file is:
//! - the line `hnefi hand weights 1`;
//! - its recipe, as text: the command that made it, its data, its losses;
//! - a NUL byte;
//! - the logistic scale (f64) and the number of features (u32);
//! - the opening and ending weight of every feature (i16 each), in the order of
//!   `features::GROUPS`, as runs: the number of all-zero features to skip (u16), the number
//!   of features that follow as written (u16), then those features' weights, until every
//!   feature is covered. Most features of a fit are zero, and the runs skip them.
//!
//! Every number is little-endian.

use super::HandWeights;
use super::features::FEATURES;

/// The first line of every weights file: the format and its version.
const MAGIC: &[u8] = b"hnefi hand weights 1\n";

/// One fit's numbers, decoded.
pub struct WeightsFile {
    /// The logistic scale: P(attackers win) = 1 / (1 + exp(-scale * cp)).
    pub scale: f64,
    /// Opening and ending weight of every feature, cp for the attackers.
    pub weights: [[i16; 2]; FEATURES],
}

impl WeightsFile {
    /// Decodes a weights file, or says what is wrong with it. A `const fn`, so that the
    /// engine's own files are decoded by the compiler.
    pub const fn read(bytes: &[u8]) -> Result<WeightsFile, &'static str> {
        let mut i = 0;
        while i < MAGIC.len() {
            if i >= bytes.len() || bytes[i] != MAGIC[i] {
                return Err(
                    "not a hand weights file (its first line is not `hnefi hand weights 1`)",
                );
            }
            i += 1;
        }
        while i < bytes.len() && bytes[i] != 0 {
            i += 1;
        }
        if i + 13 > bytes.len() {
            return Err("the weights file ends before its weights");
        }
        i += 1;
        let scale = f64::from_bits(u64::from_le_bytes([
            bytes[i],
            bytes[i + 1],
            bytes[i + 2],
            bytes[i + 3],
            bytes[i + 4],
            bytes[i + 5],
            bytes[i + 6],
            bytes[i + 7],
        ]));
        let count = u32::from_le_bytes([bytes[i + 8], bytes[i + 9], bytes[i + 10], bytes[i + 11]]);
        if count as usize != FEATURES {
            return Err("the weights file has another number of features than this build");
        }
        i += 12;
        let mut weights = [[0i16; 2]; FEATURES];
        let mut feature = 0;
        while feature < FEATURES {
            if i + 4 > bytes.len() {
                return Err("the weights file ends inside its weights");
            }
            let zeros = u16::from_le_bytes([bytes[i], bytes[i + 1]]) as usize;
            let written = u16::from_le_bytes([bytes[i + 2], bytes[i + 3]]) as usize;
            i += 4;
            feature += zeros;
            if feature + written > FEATURES || i + 4 * written > bytes.len() {
                return Err("a run of the weights file goes past its end");
            }
            let mut k = 0;
            while k < written {
                let at = i + 4 * k;
                weights[feature + k] = [
                    i16::from_le_bytes([bytes[at], bytes[at + 1]]),
                    i16::from_le_bytes([bytes[at + 2], bytes[at + 3]]),
                ];
                k += 1;
            }
            i += 4 * written;
            feature += written;
        }
        if i != bytes.len() {
            return Err("the weights file goes on after its last weight");
        }
        Ok(WeightsFile { scale, weights })
    }

    /// The file's recipe, the text between its first line and its weights.
    pub fn recipe(bytes: &[u8]) -> Option<&str> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let end = rest.iter().position(|&b| b == 0)?;
        std::str::from_utf8(&rest[..end]).ok()
    }

    /// The file of these weights, `recipe` its text.
    pub fn write(&self, recipe: &str) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        // A NUL would end the recipe early; the recipe is a command line and its files.
        out.extend(recipe.bytes().filter(|&b| b != 0));
        out.push(0);
        out.extend(self.scale.to_bits().to_le_bytes());
        out.extend((FEATURES as u32).to_le_bytes());
        let zero = |w: &[i16; 2]| *w == [0, 0];
        let mut rest = &self.weights[..];
        while !rest.is_empty() {
            let zeros = rest
                .iter()
                .take(u16::MAX as usize)
                .take_while(|w| zero(w))
                .count();
            rest = &rest[zeros..];
            let written = rest
                .iter()
                .take(u16::MAX as usize)
                .take_while(|w| !zero(w))
                .count();
            out.extend((zeros as u16).to_le_bytes());
            out.extend((written as u16).to_le_bytes());
            for w in &rest[..written] {
                out.extend(w.iter().flat_map(|x| x.to_le_bytes()));
            }
            rest = &rest[written..];
        }
        out
    }
}

/// The weights of a file built into the engine: a file that does not decode stops the build.
const fn built_in(bytes: &[u8]) -> WeightsFile {
    match WeightsFile::read(bytes) {
        Ok(file) => file,
        Err(why) => panic!("{}", why),
    }
}

const ELEVEN_FILE: WeightsFile = built_in(include_bytes!("eleven.weights"));
static ELEVEN_WEIGHTS: [[i16; 2]; FEATURES] = ELEVEN_FILE.weights;
const SEVEN_FILE: WeightsFile = built_in(include_bytes!("seven.weights"));
static SEVEN_WEIGHTS: [[i16; 2]; FEATURES] = SEVEN_FILE.weights;

/// The logistic scale of the 11x11 fit, the unit of every board's evaluation: the 7x7 fit
/// was made on it, and the networks and reports turn scores into chances with it.
pub const SCALE: f64 = ELEVEN_FILE.scale;

/// The 11x11 weights (`eleven.weights`), which 9x9 and 13x13 play too (`search/size.rs`).
pub const ELEVEN: HandWeights = HandWeights {
    scale: ELEVEN_FILE.scale,
    weights: &ELEVEN_WEIGHTS,
};

/// The 7x7 weights (`seven.weights`).
pub const SEVEN: HandWeights = HandWeights {
    scale: SEVEN_FILE.scale,
    weights: &SEVEN_WEIGHTS,
};

#[cfg(test)]
mod tests {
    use super::*;

    const FILES: [&[u8]; 2] = [
        include_bytes!("eleven.weights"),
        include_bytes!("seven.weights"),
    ];

    #[test]
    fn the_built_in_files_are_what_the_tuner_writes() {
        for bytes in FILES {
            let file = WeightsFile::read(bytes).unwrap();
            let recipe = WeightsFile::recipe(bytes).unwrap();
            assert_eq!(file.write(recipe), bytes, "{recipe}");
        }
    }

    #[test]
    fn recipes_name_only_repository_paths() {
        for bytes in FILES {
            let recipe = WeightsFile::recipe(bytes).unwrap();
            assert!(recipe.contains("hnefi tune "), "{recipe}");
            for word in recipe.split_whitespace() {
                assert!(
                    !word.starts_with('/') && !word.contains(":\\"),
                    "{word} in {recipe}"
                );
            }
        }
    }

    #[test]
    fn weights_read_back_as_written() {
        let mut weights = [[0i16; 2]; FEATURES];
        weights[0] = [i16::MIN, 1];
        weights[5] = [0, -3];
        weights[6] = [7, 0];
        weights[FEATURES - 1] = [i16::MAX, -1];
        let file = WeightsFile {
            scale: 1.5e-3,
            weights,
        };
        let bytes = file.write("hnefi tune x.txt\n");
        let back = WeightsFile::read(&bytes).unwrap();
        assert_eq!(back.weights, weights);
        assert_eq!(back.scale, 1.5e-3);
        assert_eq!(WeightsFile::recipe(&bytes), Some("hnefi tune x.txt\n"));
        // Every zero skipped: a few bytes for thousands of features.
        let zeros = WeightsFile {
            scale: 1.0,
            weights: [[0; 2]; FEATURES],
        };
        assert!(zeros.write("").len() < 64);
        assert_eq!(
            WeightsFile::read(&zeros.write("")).unwrap().weights,
            [[0; 2]; FEATURES]
        );
    }

    #[test]
    fn broken_files_are_refused() {
        let good = FILES[1];
        assert!(WeightsFile::read(&good[1..]).is_err());
        assert!(WeightsFile::read(&good[..good.len() - 1]).is_err());
        assert!(WeightsFile::read(&[good, &[0]].concat()).is_err());
        let body = good.iter().position(|&b| b == 0).unwrap() + 1;
        let mut other_count = good.to_vec();
        other_count[body + 8] ^= 1;
        assert!(WeightsFile::read(&other_count).is_err());
        assert!(WeightsFile::read(MAGIC).is_err());
    }
}
