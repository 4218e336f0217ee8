//! Match statistics as engine testers know them from fastchess: Elo with a 95% interval,
//! normalised Elo, LOS, the draw ratio, pentanomial counts and the SPRT log-likelihood ratio
//! (the generalised SPRT, with fishtest's maximum-likelihood pentanomial model).

/// Results of game pairs (same opening, colours swapped), by points the first engine scored
/// in the pair: `counts[k]` pairs with `k / 2` points, k = 0..=4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// The expected score of a player `elo` points stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives `score` (clamped away from 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Mean and variance of the per-pair score (0, 1/4, ..., 1) and the number of pairs.
fn pair_moments(p: &Pentanomial) -> Option<(f64, f64, f64)> {
    moments(p.counts.map(|c| c as f64))
}

fn moments(counts: [f64; 5]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n == 0.0 {
        return None;
    }
    let score = |k: usize| k as f64 / 4.0;
    let mean: f64 = (0..5).map(|k| counts[k] * score(k)).sum::<f64>() / n;
    let var: f64 = (0..5)
        .map(|k| counts[k] * (score(k) - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((mean, var, n))
}

/// Elo and its 95% interval (low, estimate, high) from pentanomial counts.
pub fn elo_interval(p: &Pentanomial) -> Option<(f64, f64, f64)> {
    let (mean, var, n) = pair_moments(p)?;
    let se = (var / n).sqrt();
    Some((
        elo_from_score(mean - 1.959964 * se),
        elo_from_score(mean),
        elo_from_score(mean + 1.959964 * se),
    ))
}

/// Normalised Elo: the score's distance from 0.5 in per-game standard deviations, scaled so
/// that it equals Elo for a score near 0.5 and no draws.
pub fn normalized_elo(p: &Pentanomial) -> Option<f64> {
    let (mean, var, _) = pair_moments(p)?;
    // A pair is two games: the per-game variance is twice the per-pair variance of the mean.
    let sigma = (2.0 * var).sqrt();
    if sigma == 0.0 {
        return None;
    }
    Some((mean - 0.5) / sigma * 800.0 / std::f64::consts::LN_10)
}

/// Half the 95% interval of normalised Elo: its standard error is the scale over the square
/// root of the number of games, whatever the variance.
pub fn normalized_elo_margin(p: &Pentanomial) -> Option<f64> {
    let n: u64 = p.counts.iter().sum();
    (n > 0).then(|| 1.959964 * 800.0 / std::f64::consts::LN_10 / (2.0 * n as f64).sqrt())
}

/// Likelihood of superiority from wins and losses (draws carry no information).
pub fn los(t: &Trinomial) -> f64 {
    let (w, l) = (t.wins as f64, t.losses as f64);
    if w + l == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// The SPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for pentanomial counts.
///
/// Each hypothesis is the pentanomial distribution closest to the observed one (the maximum
/// likelihood estimate) whose expected pair score is that hypothesis' score, as fishtest
/// computes it; the LLR is the log of the data's likelihood under the one over the other.
/// Unlike the normal approximation, this stays honest when the pairs are alike: a run of
/// identical wins moves the test as much as its likelihood says, not without bound.
pub fn sprt_llr(p: &Pentanomial, elo0: f64, elo1: f64) -> f64 {
    let n: u64 = p.counts.iter().sum();
    if n == 0 {
        return 0.0;
    }
    // Empty buckets get a thousandth of a pair, as in fishtest, so that no outcome is ruled
    // out by the fitted distributions.
    let counts = p.counts.map(|c| if c == 0 { 1e-3 } else { c as f64 });
    let total: f64 = counts.iter().sum();
    let freq = counts.map(|c| c / total);
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    let (Some(p0), Some(p1)) = (closest_with_mean(&freq, s0), closest_with_mean(&freq, s1)) else {
        return 0.0;
    };
    (0..5)
        .map(|k| counts[k] * (p1[k] / p0[k]).ln())
        .sum::<f64>()
}

/// The distribution q over pair scores 0, 1/4, ..., 1 with mean `s` that maximises the
/// likelihood of frequencies `freq`: q_k = freq_k / (1 + x (score_k - s)), with x the root of
/// sum_k q_k (score_k - s) = 0, found by bisection where every q_k stays positive.
fn closest_with_mean(freq: &[f64; 5], s: f64) -> Option<[f64; 5]> {
    if !(0.0 < s && s < 1.0) {
        return None;
    }
    let d = |k: usize| k as f64 / 4.0 - s;
    let g = |x: f64| {
        (0..5)
            .map(|k| freq[k] * d(k) / (1.0 + x * d(k)))
            .sum::<f64>()
    };
    // 1 + x d_k > 0 for every k: x in (-1 / (1 - s), 1 / s); g falls across that range.
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    let shrink = 1e-12;
    lo += shrink * (hi - lo);
    hi -= shrink * (hi - lo);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    let mut q = [0.0; 5];
    for k in 0..5 {
        q[k] = freq[k] / (1.0 + x * d(k));
    }
    let sum: f64 = q.iter().sum();
    Some(q.map(|v| v / sum))
}

/// The SPRT's bounds (lower, upper) for error rates `alpha` and `beta`.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// Abramowitz and Stegun 7.1.26, good to 1.5e-7.
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn elo_of_simple_scores() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-9));
        // 0.75 -> 400 * log10(3) = 190.85
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert!(close(expected_score(190.848), 0.75, 1e-6));
    }

    #[test]
    fn interval_by_hand() {
        // 10 pairs: 5 with 2 points (pair score 1), 5 with 1 point (0.5): mean 0.75,
        // variance 0.0625, se sqrt(0.0625/10) = 0.0790569, interval 0.75 -/+ 0.154950.
        let p = Pentanomial {
            counts: [0, 0, 5, 0, 5],
        };
        let (lo, mid, hi) = elo_interval(&p).unwrap();
        assert!(close(mid, 190.848, 1e-3));
        assert!(close(lo, elo_from_score(0.595050), 0.05), "{lo}");
        assert!(close(hi, elo_from_score(0.904950), 0.05), "{hi}");
    }

    #[test]
    fn los_by_hand() {
        assert!(close(
            los(&Trinomial {
                wins: 10,
                draws: 5,
                losses: 10
            }),
            0.5,
            1e-9
        ));
        // w=15, l=5: erf(10 / sqrt(40)) = erf(1.58114) = 0.97465 -> LOS 0.98733
        assert!(close(
            los(&Trinomial {
                wins: 15,
                draws: 0,
                losses: 5
            }),
            0.98733,
            1e-4
        ));
    }

    #[test]
    fn sprt_by_hand() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!(close(lo, -2.944439, 1e-6) && close(hi, 2.944439, 1e-6));
        // Near the hypotheses the exact model agrees with the normal approximation
        // n (s1 - s0) (2 mean - s0 - s1) / (2 var).
        let spread = Pentanomial {
            counts: [30, 60, 120, 66, 34],
        };
        let (mean, var, n) = pair_moments(&spread).unwrap();
        let (s0, s1) = (expected_score(0.0), expected_score(10.0));
        let normal = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = sprt_llr(&spread, 0.0, 10.0);
        assert!(
            close(exact, normal, 0.05 * normal.abs()),
            "{exact} vs {normal}"
        );
        // Far from both (mean 0.75 against 0.5 and 0.514), the two part ways; the exact
        // model is the more cautious.
        let p = Pentanomial {
            counts: [0, 0, 5, 0, 5],
        };
        let llr = sprt_llr(&p, 0.0, 10.0);
        assert!(llr > 0.2 && llr < 0.5589, "{llr}");
        // A single won pair is weak evidence: about ln(0.514 / 0.5) for the pair, not a
        // decision.
        let one = sprt_llr(
            &Pentanomial {
                counts: [0, 0, 0, 0, 1],
            },
            0.0,
            10.0,
        );
        assert!(one > 0.0 && one < 0.1, "{one}");
        // Identical pairs still move the test, in proportion to their number, both ways.
        let sweep = |k: usize, n: u64| {
            let mut counts = [0; 5];
            counts[k] = n;
            sprt_llr(&Pentanomial { counts }, 0.0, 10.0)
        };
        assert!(close(sweep(4, 200), 200.0 * one, 1.0));
        assert!(sweep(4, 300) > hi);
        assert!(sweep(0, 300) < lo);
        // Equal engines: pairs 1-1 give nothing for H1; they favour H0.
        assert!(sweep(2, 300) < 0.0);
        // nElo margin for 50 pairs: 1.959964 * 347.4355 / sqrt(100) = 68.096
        let fifty = Pentanomial {
            counts: [10, 10, 10, 10, 10],
        };
        assert!(close(normalized_elo_margin(&fifty).unwrap(), 68.096, 1e-3));
        // nElo: sigma per game sqrt(0.125) = 0.353553; (0.25 / 0.353553) * 347.436 = 245.67
        assert!(close(normalized_elo(&p).unwrap(), 245.67, 0.05));
        assert_eq!(elo_interval(&Pentanomial::default()), None);
    }
}
