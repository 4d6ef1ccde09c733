//! The `simulation` object of a file in `--json`, the same content as the
//! text table (`table.rs`), as serde structs. Shape:
//!
//! ```text
//! {"games":N,"seed":N,"agent":S,"max_decisions":N,"shard":null|{"k":N,"n":N},"command":S,
//!  "notes":[S],
//!  "columns":[{"label":S,"players":N,"options":{NAME:N,...},"games":N,"finished":N,
//!              "errors":N,"incidents":{LINT:N,...},
//!              "turns":null|{"mean":F,"median":N,"p90":N,"max":N},"decisions":null|{...},
//!              "turns_histogram":[[N,N]],"margin":null|{...},"margin_histogram":[[N,N]],
//!              "branching":F|null,"forced":F|null,"tie_rate":F|null,"lead_changes":F|null,
//!              "win_share":[{"seat":N,"share":F|null,"low":F|null,"high":F|null}],
//!              "first_mover_share":null|{"share":F,"low":F,"high":F},
//!              "first_seat_advantage":B|null}],
//!  "base":null|{...the base's simulation, for a variant checked alone...},
//!  "compare":[{"column":S,"metric":S,"base":F,"variant":F,"diff":F,"half":F,
//!              "significant":B,"fraction":B}],
//!  "fires":[{"what":S,"at":S,"count":N,
//!            "by":S,"per":[{"value":S,"count":N}]}]}   (by, per: options per enum value)
//! ```
//!
//! Shares and rates are fractions (0 to 1), rounded to 6 decimals. A
//! figure with no data is `null`, never 0: the lengths, tie rate, lead
//! changes, win shares and first-seat verdict of a column where no game
//! finished (`first_mover_share`: with a decision), the margin where no
//! game had a single winner, and the branching and forced share of one
//! with no decision. Histograms are `[value, games]` pairs.

use super::compare::Delta;
use super::fires::Fire;
use super::lints::{CARD_LOST, DOES_NOT_END, INVARIANT_BROKEN, RULE_FAULT, SOFTLOCK};
use super::plan::Shard;
use super::run::SimSection;
use super::stats::{Histogram, Kind, Stats};
use serde::Serialize;
use std::collections::BTreeMap;

fn lint_name(k: Kind) -> &'static str {
    match k {
        Kind::DoesNotEnd => DOES_NOT_END.name,
        Kind::Softlock => SOFTLOCK.name,
        Kind::InvariantBroken => INVARIANT_BROKEN.name,
        Kind::CardLost => CARD_LOST.name,
        Kind::RuleFault => RULE_FAULT.name,
    }
}

/// A fraction rounded to 6 decimals.
fn r6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

#[derive(Serialize)]
pub struct Simulation<'a> {
    games: u64,
    seed: u64,
    agent: &'a str,
    max_decisions: u32,
    shard: Option<Shard>,
    command: &'a str,
    notes: &'a [String],
    columns: Vec<JsonColumn<'a>>,
    base: Option<Box<Simulation<'a>>>,
    compare: &'a [Delta],
    fires: &'a [Fire],
}

#[derive(Serialize)]
struct Lengths {
    mean: f64,
    median: u32,
    p90: u32,
    max: u32,
}

#[derive(Serialize)]
struct Share {
    seat: usize,
    share: Option<f64>,
    low: Option<f64>,
    high: Option<f64>,
}

#[derive(Serialize)]
struct Interval {
    share: f64,
    low: f64,
    high: f64,
}

#[derive(Serialize)]
struct JsonColumn<'a> {
    label: &'a str,
    players: usize,
    options: Ordered<'a>,
    games: u64,
    finished: u64,
    errors: u64,
    incidents: BTreeMap<&'static str, u64>,
    turns: Option<Lengths>,
    decisions: Option<Lengths>,
    turns_histogram: Vec<(u32, u64)>,
    margin: Option<Lengths>,
    margin_histogram: Vec<(u32, u64)>,
    branching: Option<f64>,
    forced: Option<f64>,
    tie_rate: Option<f64>,
    lead_changes: Option<f64>,
    win_share: Vec<Share>,
    first_mover_share: Option<Interval>,
    first_seat_advantage: Option<bool>,
}

/// Options by name, in the game's order.
struct Ordered<'a>(Vec<(&'a str, i32)>);

impl Serialize for Ordered<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The lengths of the finished games, `None` when none finished.
fn lengths(h: &Histogram) -> Option<Lengths> {
    (h.count() > 0).then(|| Lengths {
        mean: r6(h.mean()),
        median: h.quantile(0.5),
        p90: h.quantile(0.9),
        max: h.max(),
    })
}

fn histogram(h: &Histogram) -> Vec<(u32, u64)> {
    h.0.iter().map(|(v, k)| (*v, *k)).collect()
}

fn column<'a>(sim: &'a SimSection, c: usize) -> JsonColumn<'a> {
    let col = &sim.columns[c];
    let s: &Stats = &sim.stats[c];
    let mut incidents: BTreeMap<&'static str, u64> = BTreeMap::new();
    for ((kind, _), list) in &s.incidents {
        *incidents.entry(lint_name(*kind)).or_insert(0) += list.count;
    }
    let finished = s.finished > 0;
    let decided = s.choices > 0;
    let win_share = (0..col.players)
        .map(|seat| {
            let (share, half) = s.win_share(seat);
            Share {
                seat,
                share: finished.then_some(r6(share)),
                low: finished.then_some(r6((share - half).max(0.0))),
                high: finished.then_some(r6((share + half).min(1.0))),
            }
        })
        .collect();
    let first_mover_share = (s.first_known > 0).then(|| {
        let (share, half) = s.first_mover_share();
        Interval {
            share: r6(share),
            low: r6((share - half).max(0.0)),
            high: r6((share + half).min(1.0)),
        }
    });
    JsonColumn {
        label: &col.label,
        players: col.players,
        options: Ordered(
            sim.option_names
                .iter()
                .map(String::as_str)
                .zip(col.options.iter().copied())
                .collect(),
        ),
        games: s.games,
        finished: s.finished,
        errors: s.errors(),
        incidents,
        turns: lengths(&s.turns),
        decisions: lengths(&s.decisions),
        turns_histogram: histogram(&s.turns),
        margin: lengths(&s.margins),
        margin_histogram: histogram(&s.margins),
        branching: decided.then(|| r6(s.branching())),
        forced: decided.then(|| r6(s.forced_share())),
        tie_rate: finished.then(|| r6(s.tie_rate())),
        lead_changes: finished.then(|| r6(s.mean_lead_changes())),
        win_share,
        first_mover_share,
        first_seat_advantage: finished.then(|| s.first_seat_advantage(col.players)),
    }
}

/// The simulation object.
pub fn simulation(sim: &SimSection) -> Simulation<'_> {
    let p = &sim.plan;
    Simulation {
        games: p.games,
        seed: p.seed,
        agent: &p.agent,
        max_decisions: p.max_decisions,
        shard: p.shard,
        command: &sim.command,
        notes: &sim.notes,
        columns: (0..sim.columns.len()).map(|c| column(sim, c)).collect(),
        base: sim.base.as_ref().map(|b| Box::new(simulation(b))),
        compare: &sim.compare,
        fires: &sim.fires,
    }
}
