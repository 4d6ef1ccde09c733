//! Balance as findings: from the win counts of each column, warnings on a
//! first-mover advantage, on a seat outside its fair share, on columns
//! where every game was a tie, and on games where the lead never changed
//! hands. Also the small statistics these and the variant comparison
//! (`compare.rs`) need: normal tail probabilities and Holm's correction.
//!
//! Avoiding noise: a share is judged only on [`FEW_GAMES`] finished games
//! or more, and is a finding only when it is both *significant* (a z test,
//! corrected with Holm's step-down method over every seat of every column
//! and every first-mover test of the file, at a family-wise level of
//! [`ALPHA`]) and *large*: at least [`MIN_GAP`] (five percentage points)
//! from the fair share. With the default 1000 games a column, a gap of five
//! points between two seats is about three standard errors, so what is
//! flagged is a real and sizeable lean, not the noise of random play.

use super::evidence::Found;
use super::lints::{ALL_TIES, FIRST_MOVER_ADVANTAGE, Lint, NO_LEAD_CHANGES, SEAT_IMBALANCE};
use super::plan::Column;
use super::stats::{FEW_GAMES, Stats};
use crate::diag::Span;

/// The family-wise significance level of the balance warnings of a file.
pub const ALPHA: f64 = 0.001;
/// The least distance from the fair share that is worth a warning.
pub const MIN_GAP: f64 = 0.05;
/// Finished games below which "every game was a tie" is not judged.
pub const FEW_TIES: u64 = 10;

/// The complementary error function (Numerical Recipes' `erfcc`, relative
/// error under 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// P(Z > z) for a standard normal Z.
pub fn upper_tail(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// Holm's step-down correction: which of the `p` values are rejected at a
/// family-wise level `alpha`.
pub fn holm(p: &[f64], alpha: f64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|a, b| p[*a].total_cmp(&p[*b]));
    let m = p.len();
    let mut out = vec![false; m];
    for (i, &k) in order.iter().enumerate() {
        if p[k] <= alpha / (m - i) as f64 {
            out[k] = true;
        } else {
            break;
        }
    }
    out
}

/// The span of the `winners` rule in effect (a variant's own, if it has one).
pub fn winners_span(text: &str) -> Option<Span> {
    let mut at = 0;
    let mut found = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("winners ") {
            let start = at + line.len() - trimmed.len();
            let code = super::allow::comment_start(trimmed).map_or(trimmed, |i| &trimmed[..i]);
            found = Some(Span::new(start, start + code.trim_end().len().max(1)));
        }
        at += line.len();
    }
    found
}

/// One share judged against the fair share.
struct Test {
    column: usize,
    /// `None`: the first mover; `Some(p)`: seat `p`.
    seat: Option<usize>,
    share: f64,
    half: f64,
    fair: f64,
    p: f64,
    /// A seat that took the first decision of every game: its wins are the
    /// first mover's, and the column's lean is reported once, as a
    /// first-mover advantage.
    always_first: bool,
}

/// Counts without their trailing zeros.
fn trimmed(v: &[u64]) -> &[u64] {
    let n = v.iter().rposition(|x| *x > 0).map_or(0, |i| i + 1);
    &v[..n]
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn p_value(p: f64) -> String {
    if p < 1e-6 {
        "p < 1e-6".into()
    } else {
        format!("p = {p:.1e}")
    }
}

/// The balance findings of one file's columns: the tests of the seats'
/// and first movers' shares, corrected together, then the columns where
/// every game tied or the lead never changed.
pub fn findings(text: &str, columns: &[Column], stats: &[Stats]) -> Vec<Found> {
    let span = winners_span(text).unwrap_or(Span::new(0, 0));
    let mut tests = Vec::new();
    let (mut ties, mut flat) = (Vec::new(), Vec::new());
    for (c, (col, s)) in columns.iter().zip(stats).enumerate() {
        if col.players < 2 {
            continue;
        }
        let single = s.finished - s.ties - s.no_winner;
        if s.finished >= FEW_TIES && single == 0 {
            ties.push(format!(
                "{}: {} of {} finished games",
                col.label,
                s.ties + s.no_winner,
                s.finished
            ));
            continue;
        }
        if s.finished < FEW_GAMES {
            continue;
        }
        if s.lead_changes == 0 {
            flat.push(format!("{}: {} finished games", col.label, s.finished));
        }
        column_tests(c, col.players, s, &mut tests);
    }
    let mut out = Vec::new();
    let mut add = |lint: &'static Lint, what: String, list: Vec<String>, label: &str| {
        if list.is_empty() {
            return;
        }
        let d = lint.at(span, format!("{what}: {}", list.join("; ")), label);
        out.push((lint, d, None));
    };
    let (corrected, first, seats) = judge_shares(columns, &tests);
    add(
        &FIRST_MOVER_ADVANTAGE,
        format!("the seat that moves first wins more than its share ({corrected})"),
        first,
        "the winners rule that decides these games",
    );
    add(
        &SEAT_IMBALANCE,
        format!("a seat wins more or less than its share ({corrected})"),
        seats,
        "the winners rule that decides these games",
    );
    add(
        &ALL_TIES,
        "every finished game was a tie or had no winner".into(),
        ties,
        "this never separates the players",
    );
    add(
        &NO_LEAD_CHANGES,
        "the lead on the winners key never changed hands".into(),
        flat,
        "whoever led first was never overtaken on this key",
    );
    out
}

/// The tests of column `c` (of `players` seats): each seat's share
/// against the fair share (two-sided), and the first mover's (one-sided).
fn column_tests(c: usize, players: usize, s: &Stats, tests: &mut Vec<Test>) {
    let fair = s.fair_share(players);
    for seat in 0..players {
        let (share, half) = s.win_share(seat);
        let se = half / 1.96;
        let p = if se > 0.0 {
            2.0 * upper_tail((share - fair).abs() / se)
        } else if (share - fair).abs() > 1e-9 {
            0.0
        } else {
            1.0
        };
        let wins = s.wins.get(seat).map(Vec::as_slice).unwrap_or(&[]);
        let always_first = s.first_known == s.finished && trimmed(wins) == trimmed(&s.first);
        tests.push(Test {
            column: c,
            seat: Some(seat),
            share,
            half,
            fair,
            p,
            always_first,
        });
    }
    if s.first_known >= FEW_GAMES {
        let (share, half) = s.first_mover_share();
        let se = half / 1.96;
        let p = if se > 0.0 {
            upper_tail((share - fair) / se)
        } else if share > fair + 1e-9 {
            0.0
        } else {
            1.0
        };
        tests.push(Test {
            column: c,
            seat: None,
            share,
            half,
            fair,
            p,
            always_first: true,
        });
    }
}

/// The shares that are significant after Holm's correction and large
/// enough to matter: (what the correction was, the first movers', the
/// seats'). A seat is not reported in a column whose first mover is one
/// fixed seat already reported: its share only mirrors the first mover's.
fn judge_shares(columns: &[Column], tests: &[Test]) -> (String, Vec<String>, Vec<String>) {
    let p: Vec<f64> = tests.iter().map(|t| t.p).collect();
    let rejected = holm(&p, ALPHA);
    let describe = |t: &Test| {
        let who = match t.seat {
            Some(p) => format!("P{p} wins"),
            None => "the first mover wins".into(),
        };
        format!(
            "{}: {who} {} (fair share {}, 95% interval {}..{}, {})",
            columns[t.column].label,
            pct(t.share),
            pct(t.fair),
            pct((t.share - t.half).max(0.0)),
            pct((t.share + t.half).min(1.0)),
            p_value(t.p)
        )
    };
    let large = |t: &Test| {
        if t.seat.is_none() {
            t.share - t.fair >= MIN_GAP
        } else {
            (t.share - t.fair).abs() >= MIN_GAP
        }
    };
    let first_flagged: Vec<usize> = tests
        .iter()
        .zip(&rejected)
        .filter(|(t, r)| **r && t.seat.is_none() && large(t))
        .map(|(t, _)| t.column)
        .filter(|c| {
            tests
                .iter()
                .any(|t| t.column == *c && t.seat.is_some() && t.always_first)
        })
        .collect();
    let flagged = |first: bool| -> Vec<String> {
        tests
            .iter()
            .zip(&rejected)
            .filter(|(t, r)| **r && t.seat.is_none() == first && large(t))
            .filter(|(t, _)| first || !first_flagged.contains(&t.column))
            .map(|(t, _)| describe(t))
            .collect()
    };
    let corrected = format!(
        "significant at {ALPHA} after Holm's correction over {} tests, and {} points or more from the fair share",
        tests.len(),
        (MIN_GAP * 100.0).round()
    );
    (corrected, flagged(true), flagged(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_and_holm() {
        assert!((upper_tail(0.0) - 0.5).abs() < 1e-7);
        assert!((upper_tail(1.96) - 0.025).abs() < 1e-4);
        assert!((upper_tail(-1.96) - 0.975).abs() < 1e-4);
        // 0.01 <= 0.05/3, 0.02 <= 0.05/2, 0.04 <= 0.05/1
        assert_eq!(holm(&[0.04, 0.01, 0.02], 0.05), vec![true, true, true]);
        // 0.03 > 0.05/2 stops the rest
        assert_eq!(holm(&[0.01, 0.03, 0.04], 0.05), vec![true, false, false]);
    }

    #[test]
    fn the_winners_line() {
        let text = "game \"G\" {}\n  winners highest p.score # why\nx\n";
        let s = winners_span(text).expect("found");
        assert_eq!(
            &text[s.start as usize..s.end as usize],
            "winners highest p.score"
        );
    }
}
