//! The `simulation` object of a file in `--json`, the same content as the
//! text table (`table.rs`). Shape:
//!
//! ```text
//! {"games":N,"seed":N,"agent":S,"max_decisions":N,"shard":null|{"k":N,"n":N},"command":S,
//!  "notes":[S],
//!  "columns":[{"label":S,"players":N,"options":{NAME:N,...},"games":N,"finished":N,
//!              "errors":N,"incidents":{LINT:N,...},
//!              "turns":null|{"mean":F,"median":N,"p90":N,"max":N},"decisions":null|{...},
//!              "branching":F|null,"forced":F|null,"tie_rate":F|null,"lead_changes":F|null,
//!              "win_share":[{"seat":N,"share":F|null,"low":F|null,"high":F|null}],
//!              "first_mover_share":null|{"share":F,"low":F,"high":F},
//!              "first_seat_advantage":B|null}]}
//! ```
//!
//! Shares and rates are fractions (0 to 1), written with 6 decimals. A
//! figure with no data is `null`, never 0: the lengths, tie rate, lead
//! changes, win shares and first-seat verdict of a column where no game
//! finished (`first_mover_share`: with a decision), and the branching and forced share of one with no decision.

use super::json::string;
use super::lints::{CARD_LOST, DOES_NOT_END, INVARIANT_BROKEN, RULE_FAULT, SOFTLOCK};
use super::run::SimSection;
use super::stats::{Histogram, Kind, Stats};
use std::collections::BTreeMap;
use std::fmt::Write;

fn lint_name(k: Kind) -> &'static str {
    match k {
        Kind::DoesNotEnd => DOES_NOT_END.name,
        Kind::Softlock => SOFTLOCK.name,
        Kind::InvariantBroken => INVARIANT_BROKEN.name,
        Kind::CardLost => CARD_LOST.name,
        Kind::RuleFault => RULE_FAULT.name,
    }
}

/// A fraction with 6 decimals, or `null` when there is no data for it.
fn number(out: &mut String, v: Option<f64>) {
    match v {
        Some(v) => {
            let _ = write!(out, "{v:.6}");
        }
        None => out.push_str("null"),
    }
}

/// The lengths of the finished games, `null` when none finished.
fn lengths(out: &mut String, h: &Histogram) {
    if h.count() == 0 {
        out.push_str("null");
        return;
    }
    let _ = write!(
        out,
        "{{\"mean\":{:.6},\"median\":{},\"p90\":{},\"max\":{}}}",
        h.mean(),
        h.quantile(0.5),
        h.quantile(0.9),
        h.max()
    );
}

fn column(out: &mut String, sim: &SimSection, c: usize) {
    let col = &sim.columns[c];
    let s: &Stats = &sim.stats[c];
    out.push_str("{\"label\":");
    string(out, &col.label);
    let _ = write!(out, ",\"players\":{},\"options\":{{", col.players);
    for (i, (name, v)) in sim.option_names.iter().zip(&col.options).enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(out, name);
        let _ = write!(out, ":{v}");
    }
    let _ = write!(
        out,
        "}},\"games\":{},\"finished\":{},\"errors\":{},\"incidents\":{{",
        s.games,
        s.finished,
        s.errors()
    );
    let mut per: BTreeMap<&str, u64> = BTreeMap::new();
    for ((kind, _), list) in &s.incidents {
        *per.entry(lint_name(*kind)).or_insert(0) += list.count;
    }
    for (i, (name, n)) in per.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(out, name);
        let _ = write!(out, ":{n}");
    }
    out.push_str("},\"turns\":");
    lengths(out, &s.turns);
    out.push_str(",\"decisions\":");
    lengths(out, &s.decisions);
    let finished = s.finished > 0;
    let decided = s.choices > 0;
    out.push_str(",\"branching\":");
    number(out, decided.then(|| s.branching()));
    out.push_str(",\"forced\":");
    number(out, decided.then(|| s.forced_share()));
    out.push_str(",\"tie_rate\":");
    number(out, finished.then(|| s.tie_rate()));
    out.push_str(",\"lead_changes\":");
    number(out, finished.then(|| s.mean_lead_changes()));
    out.push_str(",\"win_share\":[");
    for seat in 0..col.players {
        if seat > 0 {
            out.push(',');
        }
        let _ = write!(out, "{{\"seat\":{seat},\"share\":");
        let (share, half) = s.win_share(seat);
        number(out, finished.then_some(share));
        out.push_str(",\"low\":");
        number(out, finished.then_some((share - half).max(0.0)));
        out.push_str(",\"high\":");
        number(out, finished.then_some((share + half).min(1.0)));
        out.push('}');
    }
    out.push_str("],\"first_mover_share\":");
    if s.first_known > 0 {
        let (share, half) = s.first_mover_share();
        let _ = write!(
            out,
            "{{\"share\":{share:.6},\"low\":{:.6},\"high\":{:.6}}}",
            (share - half).max(0.0),
            (share + half).min(1.0)
        );
    } else {
        out.push_str("null");
    }
    out.push_str(",\"first_seat_advantage\":");
    if finished {
        let _ = write!(out, "{}", s.first_seat_advantage(col.players));
    } else {
        out.push_str("null");
    }
    out.push('}');
}

/// Append the simulation object.
pub fn simulation(out: &mut String, sim: &SimSection) {
    let p = &sim.plan;
    out.push_str("{\"games\":");
    let _ = write!(out, "{},\"seed\":{},\"agent\":", p.games, p.seed);
    string(out, &p.agent);
    let _ = write!(out, ",\"max_decisions\":{},\"shard\":", p.max_decisions);
    match p.shard {
        Some(s) => {
            let _ = write!(out, "{{\"k\":{},\"n\":{}}}", s.k, s.n);
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"command\":");
    string(out, &sim.command);
    out.push_str(",\"notes\":[");
    for (i, n) in sim.notes.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(out, n);
    }
    out.push_str("],\"columns\":[");
    for c in 0..sim.columns.len() {
        if c > 0 {
            out.push(',');
        }
        column(out, sim, c);
    }
    out.push_str("]}");
}
