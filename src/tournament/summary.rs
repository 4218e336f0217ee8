//! Counts of a match and the report made from them. Only counts are kept, so the summaries of
//! shards add up to exactly the summary of the whole match.

use super::ending::Ending;
use super::stats::{
    Pentanomial, Trinomial, elo_interval, los, normalized_elo, normalized_elo_margin, sprt_bounds,
    sprt_llr,
};
use crate::board::Side;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Why summaries do not add up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SummaryError {
    #[error("nothing to merge")]
    Nothing,
    #[error("the summaries are of different matches:\n  {0}\n  {1}")]
    OtherMatch(String, String),
    #[error("shard {0}/{1} is given twice")]
    TwoShards(u32, u32),
    #[error("not a match summary: {0}")]
    Json(String),
}

/// SPRT hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What is wrong with the words of `--sprt`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("--sprt: '{0}' is not key=value")]
    NotKeyValue(String),
    #[error("--sprt: {key}: '{value}' is not a number")]
    NotANumber { key: String, value: String },
    #[error("--sprt: unknown key '{0}' (elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    #[error("--sprt needs elo0= and elo1=")]
    MissingBounds,
    #[error("--sprt: elo0 must be below elo1")]
    BoundsOrder,
    #[error("--sprt: {0} must be between 0 and 0.5")]
    Probability(&'static str),
    #[error("--sprt needs exactly two engines")]
    Engines,
}

/// The SPRT of the words of `--sprt` (`elo0=E elo1=E [alpha=A] [beta=B]`); `None` for no
/// words.
pub fn parse_sprt(words: &[String]) -> Result<Option<Sprt>, SprtError> {
    if words.is_empty() {
        return Ok(None);
    }
    let mut sprt = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
    };
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| SprtError::NotKeyValue(word.clone()))?;
        let v: f64 = value.parse().map_err(|_| SprtError::NotANumber {
            key: key.to_string(),
            value: value.to_string(),
        })?;
        match key {
            "elo0" => sprt.elo0 = v,
            "elo1" => sprt.elo1 = v,
            "alpha" => sprt.alpha = v,
            "beta" => sprt.beta = v,
            _ => return Err(SprtError::UnknownKey(key.to_string())),
        }
    }
    if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
        return Err(SprtError::MissingBounds);
    }
    if sprt.elo0 >= sprt.elo1 {
        return Err(SprtError::BoundsOrder);
    }
    for (name, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
        if !(p > 0.0 && p < 0.5) {
            return Err(SprtError::Probability(name));
        }
    }
    Ok(Some(sprt))
}

impl Sprt {
    /// `Some(true)` when H1 (elo1) is accepted, `Some(false)` for H0, `None` to go on.
    pub fn decision(&self, p: &Pentanomial) -> Option<bool> {
        let llr = sprt_llr(p, self.elo0, self.elo1);
        let (lower, upper) = sprt_bounds(self.alpha, self.beta);
        if llr >= upper {
            Some(true)
        } else if llr <= lower {
            Some(false)
        } else {
            None
        }
    }
}

/// Results of the first engine of an encounter against the second.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Encounter {
    pub first: String,
    pub second: String,
    /// Completed pairs by the first engine's points in them, in half points: 0 to 4.
    pub pentanomial: [u64; 5],
    /// The first engine as attackers, then as defenders: wins, draws, losses.
    pub by_side: [[u64; 3]; 2],
    /// How games ended: `attackers won: king escaped`, `NAME forfeited: time loss`, ...
    pub endings: BTreeMap<String, u64>,
    /// With the first engine as attackers, then as defenders: the pieces the attackers and
    /// the defenders lost, over all those games. Whether a side ahead makes progress shows
    /// here: a ring that captures nothing draws at the ply limit.
    #[serde(default)]
    pub captured: [[u64; 2]; 2],
}

impl Encounter {
    pub fn new(first: &str, second: &str) -> Encounter {
        Encounter {
            first: first.to_string(),
            second: second.to_string(),
            ..Encounter::default()
        }
    }

    /// Counts a game in which the first engine played `first_side`, and the pieces each side
    /// lost in it (attackers, defenders).
    pub fn add_game(&mut self, first_side: Side, ending: &Ending, captured: [u32; 2]) {
        for (total, n) in self.captured[first_side.index()].iter_mut().zip(captured) {
            *total += u64::from(n);
        }
        let col = match ending.winner() {
            Some(w) if w == first_side => 0,
            None => 1,
            Some(_) => 2,
        };
        self.by_side[first_side.index()][col] += 1;
        *self.endings.entry(ending.to_string()).or_default() += 1;
    }

    /// Counts a completed pair in which the first engine scored `half_points` (0 to 4).
    pub fn add_pair(&mut self, half_points: usize) {
        self.pentanomial[half_points.min(4)] += 1;
    }

    pub fn trinomial(&self) -> Trinomial {
        let [a, d] = self.by_side;
        Trinomial {
            wins: a[0] + d[0],
            draws: a[1] + d[1],
            losses: a[2] + d[2],
        }
    }

    pub fn games(&self) -> u64 {
        self.by_side.iter().flatten().sum()
    }

    fn merge(&mut self, other: &Encounter) {
        for (a, b) in self.pentanomial.iter_mut().zip(other.pentanomial) {
            *a += b;
        }
        for (row, other_row) in self.by_side.iter_mut().zip(other.by_side) {
            for (a, b) in row.iter_mut().zip(other_row) {
                *a += b;
            }
        }
        for (k, v) in &other.endings {
            *self.endings.entry(k.clone()).or_default() += v;
        }
        for (row, other_row) in self.captured.iter_mut().zip(other.captured) {
            for (a, b) in row.iter_mut().zip(other_row) {
                *a += b;
            }
        }
    }

    pub fn penta(&self) -> Pentanomial {
        Pentanomial {
            counts: self.pentanomial,
        }
    }

    /// The report block in the form fastchess users know.
    pub fn report(&self, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        let t = self.trinomial();
        let p = self.penta();
        let games = self.games();
        let _ = writeln!(out, "Results of {} vs {}:", self.first, self.second);
        match (elo_interval(&p), normalized_elo(&p)) {
            (Some((lo, elo, hi)), nelo) => {
                let (lo, elo, hi) = (unsigned_zero(lo), unsigned_zero(elo), unsigned_zero(hi));
                let nelo = nelo
                    .map(|n| {
                        format!(
                            "{n:.2} +/- {:.2}",
                            normalized_elo_margin(&p).unwrap_or(f64::NAN)
                        )
                    })
                    .unwrap_or_else(|| "n/a".into());
                let _ = writeln!(
                    out,
                    "Elo: {elo:.2} +/- {:.2} [{lo:.2}, {hi:.2}], nElo: {nelo}",
                    (hi - lo) / 2.0
                );
            }
            _ => {
                let _ = writeln!(out, "Elo: n/a (no completed pair yet)");
            }
        }
        let pairs: u64 = p.counts.iter().sum();
        let pairs_ratio = if p.counts[0] + p.counts[1] + p.counts[3] + p.counts[4] == 0 {
            "n/a".to_string()
        } else if p.counts[0] + p.counts[1] == 0 {
            "inf".to_string()
        } else {
            format!(
                "{:.2}",
                (p.counts[3] + p.counts[4]) as f64 / (p.counts[0] + p.counts[1]) as f64
            )
        };
        let _ = writeln!(
            out,
            "LOS: {:.2} %, DrawRatio: {:.2} %, PairsRatio: {pairs_ratio}",
            100.0 * los(&t),
            100.0 * t.draws as f64 / games.max(1) as f64
        );
        let points = t.wins as f64 + t.draws as f64 / 2.0;
        let _ = writeln!(
            out,
            "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({:.2} %)",
            t.wins,
            t.losses,
            t.draws,
            100.0 * points / games.max(1) as f64
        );
        let _ = writeln!(out, "Ptnml(0-2): {:?}, pairs: {pairs}", p.counts);
        if let Some(s) = sprt {
            let (lower, upper) = sprt_bounds(s.alpha, s.beta);
            let verdict = match s.decision(&p) {
                Some(true) => " - H1 accepted",
                Some(false) => " - H0 accepted",
                None => "",
            };
            let _ = writeln!(
                out,
                "LLR: {:.2} ({lower:.2}, {upper:.2}) [{:.2}, {:.2}]{verdict}",
                sprt_llr(&p, s.elo0, s.elo1),
                s.elo0,
                s.elo1
            );
        }
        for (i, side) in ["attackers", "defenders"].iter().enumerate() {
            let [w, d, l] = self.by_side[i];
            // A one-sided match (`--first-attacks-only`) has no games of the other side.
            if w + d + l == 0 && self.games() > 0 {
                continue;
            }
            let n = (w + d + l).max(1) as f64;
            let [lost_a, lost_d] = self.captured[i].map(|c| c as f64 / n);
            let _ = writeln!(
                out,
                "{} as {side}: W {w} D {d} L {l}, {:.1} %; pieces lost a game: attackers \
                 {lost_a:.1}, defenders {lost_d:.1}",
                self.first,
                100.0 * (w as f64 + d as f64 / 2.0) / n
            );
        }
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(out, "Endings: {}", endings.join(", "));
        out
    }

    /// One line for the progress display.
    pub fn brief(&self, sprt: Option<&Sprt>) -> String {
        let t = self.trinomial();
        let p = self.penta();
        let mut line = format!("+{} ={} -{}", t.wins, t.draws, t.losses);
        if let Some((lo, elo, hi)) = elo_interval(&p) {
            let _ = write!(line, ", Elo {elo:.1} +/- {:.1}", (hi - lo) / 2.0);
        }
        if let Some(s) = sprt {
            let _ = write!(line, ", LLR {:.2}", sprt_llr(&p, s.elo0, s.elo1));
        }
        line
    }
}

/// Rounds away the minus sign of values that print as zero.
fn unsigned_zero(x: f64) -> f64 {
    if x.abs() < 0.005 { 0.0 } else { x }
}

/// Everything a match (or one shard of it) produced, as counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The match settings that must agree for summaries to be merged.
    pub settings: String,
    pub engines: Vec<String>,
    /// Shards covered, each as (index from 1, count).
    pub shards: Vec<(u32, u32)>,
    pub games_scheduled: u64,
    pub sprt: Option<Sprt>,
    /// Whether the match stopped early (SPRT decided, or interrupted).
    pub stopped_early: bool,
    pub encounters: Vec<Encounter>,
}

impl Summary {
    pub fn games(&self) -> u64 {
        self.encounters.iter().map(Encounter::games).sum()
    }

    /// Whether the SPRT has decided an encounter, which stops the match: a match stopped
    /// without a decision was stopped from outside.
    pub fn sprt_decided(&self) -> bool {
        self.sprt.is_some_and(|sprt| {
            self.encounters
                .iter()
                .any(|e| sprt.decision(&e.penta()).is_some())
        })
    }

    /// Adds up shard summaries of one match.
    pub fn merge(parts: Vec<Summary>) -> Result<Summary, SummaryError> {
        let mut parts = parts.into_iter();
        let mut total = parts.next().ok_or(SummaryError::Nothing)?;
        for part in parts {
            if part.settings != total.settings || part.engines != total.engines {
                return Err(SummaryError::OtherMatch(total.settings, part.settings));
            }
            for &(shard, shards) in &part.shards {
                if total.shards.contains(&(shard, shards)) {
                    return Err(SummaryError::TwoShards(shard, shards));
                }
            }
            total.shards.extend(&part.shards);
            total.games_scheduled += part.games_scheduled;
            total.stopped_early |= part.stopped_early;
            for (a, b) in total.encounters.iter_mut().zip(&part.encounters) {
                a.merge(b);
            }
        }
        total.shards.sort_unstable();
        Ok(total)
    }

    /// The full report.
    pub fn report(&self) -> String {
        self.report_with(true)
    }

    /// The report without the settings' line, for a match that printed it as it started.
    pub fn results(&self) -> String {
        self.report_with(false)
    }

    fn report_with(&self, settings: bool) -> String {
        let mut out = String::new();
        let rule = "-".repeat(72);
        let _ = writeln!(out, "{rule}");
        if settings {
            let _ = writeln!(out, "{}", self.settings);
        }
        if let Some(&(_, n)) = self.shards.first()
            && n > 1
        {
            let list: Vec<String> = self
                .shards
                .iter()
                .map(|(i, n)| format!("{i}/{n}"))
                .collect();
            let _ = writeln!(out, "Shards: {}", list.join(" "));
        }
        let _ = writeln!(
            out,
            "Games played: {} of {}{}",
            self.games(),
            self.games_scheduled,
            if self.stopped_early {
                " (stopped early)"
            } else {
                ""
            }
        );
        for e in &self.encounters {
            let _ = writeln!(out, "{rule}");
            out += &e.report(self.sprt.as_ref());
        }
        if self.engines.len() > 2 {
            let _ = writeln!(out, "{rule}");
            out += &self.standings();
        }
        let _ = writeln!(out, "{rule}");
        out
    }

    /// A round robin's table: points of each engine over all its games, best first, with the
    /// Elo its score means against the field.
    fn standings(&self) -> String {
        let mut rows: Vec<(&str, f64, u64)> = self
            .engines
            .iter()
            .map(|name| {
                let (mut points, mut games) = (0.0, 0);
                for e in &self.encounters {
                    let t = e.trinomial();
                    let (w, l) = if *name == e.first {
                        (t.wins, t.losses)
                    } else if *name == e.second {
                        (t.losses, t.wins)
                    } else {
                        continue;
                    };
                    points += w as f64 + t.draws as f64 / 2.0;
                    games += w + l + t.draws;
                }
                (name.as_str(), points, games)
            })
            .collect();
        rows.sort_by(|a, b| (b.1 / b.2.max(1) as f64).total_cmp(&(a.1 / a.2.max(1) as f64)));
        let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(4).max(6);
        let mut out = format!(
            "{:<width$}  {:>6}  {:>7}  {:>6}  {:>8}\n",
            "Engine", "Games", "Points", "Score", "Elo"
        );
        for (name, points, games) in rows {
            let score = points / games.max(1) as f64;
            let _ = writeln!(
                out,
                "{name:<width$}  {games:>6}  {points:>7.1}  {:>5.1}%  {:>8.1}",
                100.0 * score,
                unsigned_zero(super::stats::elo_from_score(score))
            );
        }
        out
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a summary serialises")
    }

    pub fn from_json(text: &str) -> Result<Summary, SummaryError> {
        serde_json::from_str(text).map_err(|e| SummaryError::Json(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn sprt_words() {
        let s = parse_sprt(&words("elo0=0 elo1=5")).unwrap().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.05));
        assert!(parse_sprt(&words("elo0=5 elo1=0")).is_err());
        assert!(parse_sprt(&words("elo1=5")).is_err());
        assert!(parse_sprt(&words("elo0=0 elo1=5 alpha=0.7")).is_err());
        assert!(parse_sprt(&words("elo0=0 elo1=5 gamma=1")).is_err());
    }
    use crate::board::{Outcome, Reason};

    fn encounter() -> Encounter {
        let mut e = Encounter::new("a", "b");
        e.add_game(
            Side::Attackers,
            &Ending::Rules(Outcome::win(Side::Attackers, Reason::KingCaptured)),
            [2, 5],
        );
        e.add_game(
            Side::Defenders,
            &Ending::Rules(Outcome::draw(Reason::Repetition)),
            [1, 0],
        );
        e.add_pair(3);
        e
    }

    fn summary(shard: u32) -> Summary {
        Summary {
            settings: "a vs b".into(),
            engines: vec!["a".into(), "b".into()],
            shards: vec![(shard, 2)],
            games_scheduled: 2,
            sprt: None,
            stopped_early: false,
            encounters: vec![encounter()],
        }
    }

    #[test]
    fn only_a_decided_test_stops_a_match_from_within() {
        let mut s = summary(1);
        assert!(!s.sprt_decided(), "no test");
        s.sprt = parse_sprt(&words("elo0=0 elo1=300")).unwrap();
        assert!(!s.sprt_decided(), "one pair decides nothing");
        for _ in 0..10 {
            s.encounters[0].add_pair(4);
        }
        assert!(s.sprt_decided());
    }

    #[test]
    fn counts_by_side_and_pairs() {
        let e = encounter();
        assert_eq!(e.by_side, [[1, 0, 0], [0, 1, 0]]);
        assert_eq!(
            e.trinomial(),
            Trinomial {
                wins: 1,
                draws: 1,
                losses: 0
            }
        );
        assert_eq!(e.pentanomial, [0, 0, 0, 1, 0]);
        let report = e.report(None);
        assert!(report.contains("Games: 2, Wins: 1, Losses: 0, Draws: 1, Points: 1.5 (75.00 %)"));
        assert!(report.contains(
            "a as attackers: W 1 D 0 L 0, 100.0 %; pieces lost a game: attackers 2.0, defenders 5.0"
        ));
        assert_eq!(e.captured, [[2, 5], [1, 0]]);
        assert!(report.contains("Endings: attackers won: king captured 1, draw: repetition 1"));
    }

    #[test]
    fn round_robins_get_a_table() {
        let mut s = summary(1);
        s.engines.push("c".into());
        let mut bc = Encounter::new("b", "c");
        bc.add_game(
            Side::Attackers,
            &Ending::Rules(Outcome::win(Side::Defenders, Reason::KingEscaped)),
            [0, 0],
        );
        s.encounters.push(bc);
        let report = s.report();
        let table: Vec<&str> = report
            .lines()
            .skip_while(|l| !l.starts_with("Engine"))
            .collect();
        // a: 1.5 of 2; c: 1 of 1; b: 0.5 of 3.
        assert!(
            table[1].starts_with("c ") && table[1].contains("100.0%"),
            "{report}"
        );
        assert!(
            table[2].starts_with("a ") && table[2].contains("1.5"),
            "{report}"
        );
        assert!(
            table[3].starts_with("b ") && table[3].contains("16.7%"),
            "{report}"
        );
    }

    #[test]
    fn merges_add_counts_and_refuse_strangers() {
        let merged = Summary::merge(vec![summary(1), summary(2)]).unwrap();
        assert_eq!(merged.games(), 4);
        assert_eq!(merged.shards, vec![(1, 2), (2, 2)]);
        assert_eq!(merged.encounters[0].pentanomial, [0, 0, 0, 2, 0]);
        assert_eq!(merged.encounters[0].endings["draw: repetition"], 2);
        assert_eq!(merged.encounters[0].captured, [[4, 10], [2, 0]]);
        let back = Summary::from_json(&merged.to_json()).unwrap();
        assert_eq!(back, merged);
        assert!(
            Summary::merge(vec![summary(1), summary(1)])
                .unwrap_err()
                .to_string()
                .contains("twice")
        );
        let mut other = summary(2);
        other.settings = "c vs d".into();
        assert!(
            Summary::merge(vec![summary(1), other])
                .unwrap_err()
                .to_string()
                .contains("different")
        );
        assert!(Summary::from_json("{").is_err());
    }

    /// The JSON of `--json`, which `hnefi match merge` reads back, keeps its exact form.
    #[test]
    fn json_keeps_its_form_byte_for_byte() {
        let mut s = summary(1);
        s.sprt = Some(Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        });
        s.encounters[0].add_game(
            Side::Defenders,
            &Ending::Forfeit {
                side: Side::Defenders,
                name: "a".into(),
                kind: crate::tournament::player::Forfeit::Resigned,
            },
            [0, 3],
        );
        let json = s.to_json();
        assert_eq!(Summary::from_json(&json).unwrap().to_json(), json);
        assert_eq!(json, GOLDEN);
    }

    const GOLDEN: &str = r#"{
  "settings": "a vs b",
  "engines": [
    "a",
    "b"
  ],
  "shards": [
    [
      1,
      2
    ]
  ],
  "games_scheduled": 2,
  "sprt": {
    "elo0": 0.0,
    "elo1": 5.0,
    "alpha": 0.05,
    "beta": 0.05
  },
  "stopped_early": false,
  "encounters": [
    {
      "first": "a",
      "second": "b",
      "pentanomial": [
        0,
        0,
        0,
        1,
        0
      ],
      "by_side": [
        [
          1,
          0,
          0
        ],
        [
          0,
          1,
          1
        ]
      ],
      "endings": {
        "a lost by resignation": 1,
        "attackers won: king captured": 1,
        "draw: repetition": 1
      },
      "captured": [
        [
          2,
          5
        ],
        [
          1,
          3
        ]
      ]
    }
  ]
}"#;
}
