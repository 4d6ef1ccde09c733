//! The statistics of one column of a simulation (one rules file, one
//! variant, one player count): what every game did, kept as integer counts,
//! histograms and the lowest-numbered incidents only, so that the stats of
//! any slices of the games merge exactly into those of the whole run (shards
//! and threads give the same report, to the last digit). The design metrics
//! (quantiles, win shares with confidence intervals) are computed from them
//! when a report is drawn.

use crate::graph::{Graph, Node};
pub use crate::playout::{Incident, Incidents};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Finished games below which a confidence interval is not shown (the
/// normal approximation is poor, and the interval would be about ±65%).
pub const FEW_GAMES: u64 = 30;

/// Incidents of one kind at one place kept with full detail (the others are counted).
pub const KEEP: usize = 3;

/// Where every action-graph node and choice arm lives in the flat coverage
/// counters of [`Stats`].
#[derive(Clone, Debug)]
pub struct Layout {
    /// `node_base[phase] + node` is a node's counter.
    pub node_base: Vec<usize>,
    /// For each flat node, the first counter of its arms (Choose nodes only).
    pub arm_base: Vec<Option<usize>>,
    pub nodes: usize,
    pub arms: usize,
    /// For each arm counter, the first of its per-value counters and how
    /// many values it has: an option offered for each value of an enum
    /// (`"lay {o}" for o in Object`) counts each value apart.
    pub value_base: Vec<Option<(usize, u32)>>,
    pub values: usize,
}

impl Layout {
    pub fn of(g: &Graph) -> Layout {
        let mut node_base = Vec::with_capacity(g.phases.len());
        let mut arm_base = Vec::new();
        let mut arms = 0;
        let mut value_base = Vec::new();
        let mut values = 0;
        for ph in &g.phases {
            node_base.push(arm_base.len());
            for n in &ph.nodes {
                match n {
                    Node::Choose { arms: a, .. } => {
                        arm_base.push(Some(arms));
                        arms += a.len();
                        for arm in a {
                            let domain = enum_bound(g, ph, arm);
                            value_base.push(domain.map(|d| (values, d)));
                            values += domain.unwrap_or(0) as usize;
                        }
                    }
                    _ => arm_base.push(None),
                }
            }
        }
        Layout {
            node_base,
            nodes: arm_base.len(),
            arm_base,
            arms,
            value_base,
            values,
        }
    }

    /// The per-value counter of an arm counter's value, if it has one.
    pub fn value(&self, arm: usize, value: i32) -> Option<usize> {
        let (base, n) = (*self.value_base.get(arm)?)?;
        let v = u32::try_from(value).ok().filter(|v| *v < n)?;
        Some(base + v as usize)
    }

    /// The flat counter of a node.
    pub fn node(&self, phase: u16, node: u32) -> usize {
        self.node_base[phase as usize] + node as usize
    }

    /// The flat counter of an arm of a Choose node, if it is one.
    pub fn arm(&self, phase: u16, node: u32, arm: u16) -> Option<usize> {
        self.arm_base[self.node(phase, node)].map(|b| b + arm as usize)
    }
}

/// The number of values of the enum an arm binds (`for o in Object`),
/// if it binds one value of an enum and nothing else.
pub fn enum_bound(g: &Graph, ph: &crate::graph::Phase, arm: &crate::graph::Arm) -> Option<u32> {
    let b = arm.bind.as_ref().filter(|_| arm.also.is_none())?;
    match ph.local_types.get(b.slot as usize)? {
        crate::hir::Ty::Enum(e) => Some(g.tables.enums.get(*e as usize)?.values.len() as u32),
        _ => None,
    }
}

/// How many finished games had each value (of turns, of decisions).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram(pub BTreeMap<u32, u64>);

impl Histogram {
    pub fn add(&mut self, v: u32) {
        *self.0.entry(v).or_insert(0) += 1;
    }
    /// Add another slice's counts; false when a count would pass
    /// `u64::MAX` (it stays at the maximum: only a tampered part gets there).
    pub fn merge(&mut self, o: &Histogram) -> bool {
        let mut exact = true;
        for (v, n) in &o.0 {
            add(self.0.entry(*v).or_insert(0), *n, &mut exact);
        }
        exact
    }
    pub fn count(&self) -> u64 {
        self.0.values().sum()
    }
    pub fn mean(&self) -> f64 {
        let n = self.count();
        if n == 0 {
            return 0.0;
        }
        let sum: u128 = self.0.iter().map(|(v, k)| *v as u128 * *k as u128).sum();
        sum as f64 / n as f64
    }
    /// The nearest-rank quantile: the least value with at least `q` of the
    /// games at or below it (0 when empty).
    pub fn quantile(&self, q: f64) -> u32 {
        let n = self.count();
        let rank = ((q * n as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (v, k) in &self.0 {
            seen += k;
            if seen >= rank {
                return *v;
            }
        }
        0
    }
    pub fn max(&self) -> u32 {
        self.0.keys().next_back().copied().unwrap_or(0)
    }
    pub fn min(&self) -> u32 {
        self.0.keys().next().copied().unwrap_or(0)
    }
    /// The sample variance of the values (0 with fewer than two).
    pub fn variance(&self) -> f64 {
        let n = self.count();
        if n < 2 {
            return 0.0;
        }
        let m = self.mean();
        let ss: f64 = self
            .0
            .iter()
            .map(|(v, k)| *k as f64 * (*v as f64 - m).powi(2))
            .sum();
        ss / (n - 1) as f64
    }
    /// `bins` equal bins from the least value to the greatest: each bin's
    /// lowest value and its count (empty when there are no values).
    pub fn bins(&self, bins: usize) -> Vec<(u32, u64)> {
        if self.count() == 0 || bins == 0 {
            return Vec::new();
        }
        let (lo, hi) = (self.min(), self.max());
        let width = ((hi - lo) as usize / bins + 1) as u32;
        let n = ((hi - lo) / width + 1) as usize;
        let mut out: Vec<(u32, u64)> = (0..n).map(|i| (lo + i as u32 * width, 0)).collect();
        for (v, k) in &self.0 {
            out[((v - lo) / width) as usize].1 += k;
        }
        out
    }
}

/// What went wrong in a game: one of the simulation lints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kind {
    /// Still running at the decision limit, or a runaway between decisions.
    DoesNotEnd,
    /// Not over, and no legal action.
    Softlock,
    /// A declared invariant does not hold at a decision.
    InvariantBroken,
    /// A card is in no zone, or in two.
    CardLost,
    /// The rules did something impossible.
    RuleFault,
}

/// Where it went wrong, as far as can be told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum At {
    /// Nowhere in particular (the whole game).
    Game,
    /// An action-graph node: (phase, node).
    Node(u16, u32),
    /// A declared invariant, by index.
    Invariant(u16),
    /// A decision (phase, node) whose position came back again and again.
    Cycle(u16, u32),
}

/// Everything counted over a slice of the games of one column.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub games: u64,
    pub finished: u64,
    /// Turns and decisions of the finished games.
    pub turns: Histogram,
    pub decisions: Histogram,
    /// `wins[p][k - 1]`: finished games seat `p` won with `k - 1` others.
    pub wins: Vec<Vec<u64>>,
    /// `first[k - 1]`: finished games the seat that took the first decision
    /// won with `k - 1` others; `first_known`: finished games with a decision.
    #[serde(default)]
    pub first: Vec<u64>,
    #[serde(default)]
    pub first_known: u64,
    /// Finished games with several winners, and with none.
    pub ties: u64,
    pub no_winner: u64,
    /// Lead changes summed over the finished games.
    pub lead_changes: u64,
    /// Finished games by lead changes.
    #[serde(default)]
    pub leads: Histogram,
    /// The win margin of each finished game with a single winner: the
    /// winner's `winners` key against the best of the others (0 for ties).
    #[serde(default)]
    pub margins: Histogram,
    /// Decisions taken (in every game), the legal actions offered at them,
    /// and those with a single legal action.
    pub choices: u64,
    pub offered: u64,
    pub forced: u64,
    /// Times each node ran and each arm was chosen (see [`Layout`]).
    pub nodes: Vec<u64>,
    pub arms: Vec<u64>,
    /// Times each option offered per value of an enum was chosen with each
    /// value (see [`Layout::value`]).
    #[serde(default)]
    pub values: Vec<u64>,
    pub incidents: BTreeMap<(Kind, At), Incidents>,
}

impl Stats {
    pub fn empty(layout: &Layout, players: usize) -> Stats {
        Stats {
            wins: vec![Vec::new(); players],
            nodes: vec![0; layout.nodes],
            arms: vec![0; layout.arms],
            values: vec![0; layout.values],
            ..Stats::default()
        }
    }

    pub fn incident(&mut self, kind: Kind, at: At, i: Incident) {
        self.incidents.entry((kind, at)).or_default().add(i, KEEP);
    }

    /// Count a finished game in; `first` is the seat of its first decision,
    /// `margin` the winner's lead on the `winners` key, if known.
    pub fn finish(
        &mut self,
        turns: u32,
        decisions: u32,
        winners: &[usize],
        lead_changes: u32,
        first: Option<usize>,
        margin: Option<u32>,
    ) {
        self.finished += 1;
        self.leads.add(lead_changes);
        if let Some(m) = margin {
            self.margins.add(m);
        }
        if let Some(f) = first {
            self.first_known += 1;
            let k = winners.len();
            if winners.contains(&f) {
                if self.first.len() < k {
                    self.first.resize(k, 0);
                }
                self.first[k - 1] += 1;
            }
        }
        self.turns.add(turns);
        self.decisions.add(decisions);
        self.lead_changes += u64::from(lead_changes);
        match winners.len() {
            0 => self.no_winner += 1,
            1 => {}
            _ => self.ties += 1,
        }
        let k = winners.len();
        for &p in winners {
            if self.wins.len() <= p {
                self.wins.resize(p + 1, Vec::new());
            }
            if self.wins[p].len() < k {
                self.wins[p].resize(k, 0);
            }
            self.wins[p][k - 1] += 1;
        }
    }

    /// Add the counts of another slice of the same column; false when a
    /// count would pass `u64::MAX` (it stays at the maximum). Real games
    /// cannot get there; a tampered part file can, and `merge` refuses it.
    pub fn merge(&mut self, o: &Stats) -> bool {
        let mut exact = true;
        add(&mut self.games, o.games, &mut exact);
        add(&mut self.finished, o.finished, &mut exact);
        exact &= self.turns.merge(&o.turns);
        exact &= self.decisions.merge(&o.decisions);
        if self.wins.len() < o.wins.len() {
            self.wins.resize(o.wins.len(), Vec::new());
        }
        for (mine, theirs) in self.wins.iter_mut().zip(&o.wins) {
            exact &= add_counts(mine, theirs);
        }
        exact &= add_counts(&mut self.first, &o.first);
        add(&mut self.first_known, o.first_known, &mut exact);
        add(&mut self.ties, o.ties, &mut exact);
        add(&mut self.no_winner, o.no_winner, &mut exact);
        add(&mut self.lead_changes, o.lead_changes, &mut exact);
        exact &= self.leads.merge(&o.leads);
        exact &= self.margins.merge(&o.margins);
        add(&mut self.choices, o.choices, &mut exact);
        add(&mut self.offered, o.offered, &mut exact);
        add(&mut self.forced, o.forced, &mut exact);
        exact &= add_counts(&mut self.nodes, &o.nodes);
        exact &= add_counts(&mut self.arms, &o.arms);
        exact &= add_counts(&mut self.values, &o.values);
        for (k, v) in &o.incidents {
            exact &= self.incidents.entry(*k).or_default().merge(v, KEEP);
        }
        exact
    }

    /// Games that went wrong in any way.
    pub fn errors(&self) -> u64 {
        self.incidents.values().map(|i| i.count).sum()
    }

    /// Seat `p`'s share of the wins of finished games (a win shared by `k`
    /// counts `1/k`) and the half-width of its 95% confidence interval
    /// (normal approximation, from the per-game variance).
    pub fn win_share(&self, p: usize) -> (f64, f64) {
        let w = self.wins.get(p).map(Vec::as_slice).unwrap_or(&[]);
        share(w, self.finished)
    }

    /// The same for the seat that took each game's first decision (drawn
    /// by lot or not), over the finished games that had a decision.
    pub fn first_mover_share(&self) -> (f64, f64) {
        share(&self.first, self.first_known)
    }

    /// Whether the seat that moves first wins significantly more than its
    /// fair share (the lower end of its 95% interval is above `1 / players`).
    pub fn first_seat_advantage(&self, players: usize) -> bool {
        let (share, half) = self.first_mover_share();
        self.first_known >= 2 && players > 1 && share - half > 1.0 / players as f64
    }

    /// The fair share of one seat: the wins handed out (a game with no
    /// winner hands out none) shared evenly between `players`.
    pub fn fair_share(&self, players: usize) -> f64 {
        if players == 0 {
            return 0.0;
        }
        (1.0 - ratio(self.no_winner, self.finished)) / players as f64
    }

    pub fn tie_rate(&self) -> f64 {
        ratio(self.ties, self.finished)
    }
    pub fn mean_lead_changes(&self) -> f64 {
        ratio(self.lead_changes, self.finished)
    }
    pub fn branching(&self) -> f64 {
        ratio(self.offered, self.choices)
    }
    pub fn forced_share(&self) -> f64 {
        ratio(self.forced, self.choices)
    }
}

fn add_counts(a: &mut Vec<u64>, b: &[u64]) -> bool {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    let mut exact = true;
    for (x, y) in a.iter_mut().zip(b) {
        add(x, *y, &mut exact);
    }
    exact
}

/// `*x += y`, staying at `u64::MAX` and clearing `exact` on overflow.
fn add(x: &mut u64, y: u64, exact: &mut bool) {
    match x.checked_add(y) {
        Some(v) => *x = v,
        None => {
            *x = u64::MAX;
            *exact = false;
        }
    }
}

/// A share of `n` games from `w[k - 1]`, the games won with `k - 1`
/// others, and the half-width of its 95% interval.
fn share(w: &[u64], n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (mut sum, mut squares) = (0.0, 0.0);
    for (k, games) in w.iter().enumerate() {
        let x = 1.0 / (k + 1) as f64;
        sum += *games as f64 * x;
        squares += *games as f64 * x * x;
    }
    let n = n as f64;
    let mean = sum / n;
    let var = (squares / n - mean * mean).max(0.0);
    let half = if n > 1.0 {
        1.96 * (var * n / (n - 1.0) / n).sqrt()
    } else {
        0.0
    };
    (mean, half)
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_nearest_rank() {
        let mut h = Histogram::default();
        for v in [5, 1, 3, 2, 4, 10, 6, 7, 8, 9] {
            h.add(v);
        }
        assert_eq!((h.quantile(0.5), h.quantile(0.9), h.max()), (5, 9, 10));
        assert_eq!(h.mean(), 5.5);
        assert_eq!(Histogram::default().quantile(0.5), 0);
    }

    #[test]
    fn win_shares_and_advantage() {
        let mut s = Stats::default();
        for _ in 0..70 {
            s.finish(1, 1, &[0], 0, Some(0), None);
        }
        for _ in 0..30 {
            s.finish(1, 1, &[1], 0, Some(0), None);
        }
        let (share, half) = s.win_share(0);
        assert!(
            (share - 0.7).abs() < 1e-12 && half > 0.08 && half < 0.1,
            "{half}"
        );
        assert!(s.first_seat_advantage(2));
        s.finish(1, 1, &[0, 1], 0, Some(0), None);
        assert_eq!(s.ties, 1);
        assert!((s.win_share(1).0 - 30.5 / 101.0).abs() < 1e-12);
    }
}
