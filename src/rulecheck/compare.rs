//! A variant against its base: each column of the variant is paired with
//! the base's column at the same place (the same player count and
//! `--vary` values), and every metric with a standard error is compared:
//! game length in turns and decisions, lead changes, win margin, ties,
//! each seat's win share and the first mover's. A difference is marked
//! significant when its two-sided p-value is below 0.05 divided by the
//! number of metrics compared in the column (Bonferroni); the interval
//! shown is the difference's 95% interval. Columns with fewer than
//! [`FEW_GAMES`] finished games on either side are not compared.

use super::balance::upper_tail;
use super::plan::Column;
use super::stats::{FEW_GAMES, Histogram, Stats};
use serde::Serialize;

/// One metric of one column, base against variant.
#[derive(Clone, Debug, Serialize)]
pub struct Delta {
    /// The variant's column label.
    pub column: String,
    pub metric: String,
    pub base: f64,
    pub variant: f64,
    /// `variant - base` and the half-width of its 95% interval.
    pub diff: f64,
    pub half: f64,
    pub significant: bool,
    /// Whether the values are fractions (shown as percentages).
    pub fraction: bool,
}

/// A mean and its standard error.
fn mean_se(h: &Histogram) -> (f64, f64) {
    let n = h.count();
    if n == 0 {
        return (0.0, 0.0);
    }
    (h.mean(), (h.variance() / n as f64).sqrt())
}

fn proportion(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let p = k as f64 / n as f64;
    (p, (p * (1.0 - p) / n as f64).sqrt())
}

/// The metrics of a column with their standard errors.
fn metrics(s: &Stats, players: usize) -> Vec<(String, f64, f64, bool)> {
    let mut v = vec![
        {
            let (m, se) = mean_se(&s.turns);
            ("turns: mean".to_string(), m, se, false)
        },
        {
            let (m, se) = mean_se(&s.decisions);
            ("decisions: mean".to_string(), m, se, false)
        },
    ];
    if s.leads.count() > 0 {
        let (m, se) = mean_se(&s.leads);
        v.push(("lead changes / game".into(), m, se, false));
    }
    if s.margins.count() > 0 {
        let (m, se) = mean_se(&s.margins);
        v.push(("win margin: mean".into(), m, se, false));
    }
    let (t, se) = proportion(s.ties, s.finished);
    v.push(("ties".into(), t, se, true));
    for seat in 0..players {
        let (share, half) = s.win_share(seat);
        v.push((format!("win share P{seat}"), share, half / 1.96, true));
    }
    if s.first_known > 0 {
        let (share, half) = s.first_mover_share();
        v.push(("first mover win share".into(), share, half / 1.96, true));
    }
    v
}

/// The deltas of every variant column against the base column in the
/// same place.
pub fn deltas(base: &[Stats], variant: &[Stats], columns: &[Column]) -> Vec<Delta> {
    let mut out = Vec::new();
    for ((b, v), col) in base.iter().zip(variant).zip(columns) {
        if b.finished < FEW_GAMES || v.finished < FEW_GAMES {
            continue;
        }
        let (mb, mv) = (metrics(b, col.players), metrics(v, col.players));
        let pairs: Vec<_> = mv
            .iter()
            .filter_map(|x| mb.iter().find(|y| y.0 == x.0).map(|y| (y, x)))
            .collect();
        let m = pairs.len().max(1) as f64;
        for (b, v) in pairs {
            let diff = v.1 - b.1;
            let se = (v.2 * v.2 + b.2 * b.2).sqrt();
            let p = if se > 0.0 {
                2.0 * upper_tail(diff.abs() / se)
            } else if diff.abs() > 1e-9 {
                0.0
            } else {
                1.0
            };
            out.push(Delta {
                column: col.label.clone(),
                metric: v.0.clone(),
                base: b.1,
                variant: v.1,
                diff,
                half: 1.96 * se,
                significant: p < 0.05 / m,
                fraction: v.3,
            });
        }
    }
    out
}

impl Delta {
    fn num(&self, x: f64) -> String {
        if self.fraction {
            format!("{:.1}%", 100.0 * x)
        } else {
            format!("{x:.2}")
        }
    }
    fn signed(&self, x: f64) -> String {
        let s = self.num(x);
        if x >= 0.0 { format!("+{s}") } else { s }
    }

    /// `turns: mean  23.10 -> 30.40  +7.30 [+6.10, +8.50] *`
    pub fn line(&self) -> String {
        format!(
            "{:<24} {:>9} -> {:<9} {} [{}, {}]{}",
            self.metric,
            self.num(self.base),
            self.num(self.variant),
            self.signed(self.diff),
            self.signed(self.diff - self.half),
            self.signed(self.diff + self.half),
            if self.significant { "  moved" } else { "" }
        )
    }
}
