//! The design metrics of a simulation as one text table, a column per
//! variant / option value / player count: game length (mean, median, 90th
//! percentile and maximum, in turns and in decisions), branching factor,
//! forced moves, ties, lead changes, win share per seat with its 95%
//! confidence interval, the win share of the seat that took each game's
//! first decision (drawn by lot or not), and whether that first mover's
//! advantage is significant. Below [`FEW_GAMES`] finished games a column shows the share
//! with "too few games" instead of an interval or a verdict.
//!
//! Lead changes: after setup and after every decision the players are
//! ranked by the `winners` key (`State::scores`); when one player alone is
//! best, that player leads. A lead change is a new player leading where
//! another led before (moments of equality keep the last leader).

use super::run::SimSection;
use super::stats::{FEW_GAMES, Stats};
use std::fmt::Write;

const LABEL: usize = 22;

/// The simulation's header line and table; the columns of `sims[1..]`
/// (rules variants compared with the first) follow those of `sims[0]`.
pub fn render(sims: &[&SimSection]) -> String {
    let sim = sims[0];
    // a variant checked alone: its base's columns first
    let mut all: Vec<&SimSection> = sim.base.iter().map(|b| b.as_ref()).collect();
    all.extend(sims);
    let sims = all.as_slice();
    let p = &sim.plan;
    let columns: Vec<&super::plan::Column> = sims.iter().flat_map(|s| &s.columns).collect();
    let stats: Vec<&Stats> = sims.iter().flat_map(|s| &s.stats).collect();
    let mut out = String::new();
    let shard = match p.shard {
        Some(s) => {
            let r = s.range(p.games);
            format!(" (shard {}/{}: games {}..{})", s.k, s.n, r.start, r.end)
        }
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "simulation: {} games per column{shard}, {} agents, seed {}, at most {} decisions a game",
        p.games, p.agent, p.seed, p.max_decisions
    );
    let _ = writeln!(out, "  run again: {}", sim.command);
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut row = |name: &str, cells: Vec<String>| rows.push((name.to_string(), cells));
    let each = |f: &dyn Fn(&Stats, usize) -> String| -> Vec<String> {
        stats
            .iter()
            .zip(&columns)
            .map(|(s, c)| f(s, c.players))
            .collect()
    };
    // Rows about finished games say `-` where no game finished.
    let done = |f: &dyn Fn(&Stats, usize) -> String| -> Vec<String> {
        each(&|s, n| if s.finished == 0 { "-".into() } else { f(s, n) })
    };
    row("", columns.iter().map(|c| c.label.clone()).collect());
    row("players", each(&|_, n| n.to_string()));
    row("games", each(&|s, _| s.games.to_string()));
    row("finished", each(&|s, _| s.finished.to_string()));
    row(
        "with errors",
        each(&|s, _| match s.errors() {
            0 => "none".into(),
            n => n.to_string(),
        }),
    );
    for (what, pick) in [
        ("turns", (|s: &Stats| &s.turns) as fn(&Stats) -> &_),
        ("decisions", |s: &Stats| &s.decisions),
    ] {
        row(
            &format!("{what}: mean"),
            done(&|s, _| format!("{:.1}", pick(s).mean())),
        );
        row(
            "  median / p90 / max",
            done(&|s, _| {
                let h = pick(s);
                format!("{} / {} / {}", h.quantile(0.5), h.quantile(0.9), h.max())
            }),
        );
    }
    row(
        "branching (moves)",
        each(&|s, _| format!("{:.2}", s.branching())),
    );
    row(
        "forced decisions",
        each(&|s, _| format!("{:.1}%", 100.0 * s.forced_share())),
    );
    row(
        "ties",
        done(&|s, _| format!("{:.1}%", 100.0 * s.tie_rate())),
    );
    // Shown only when some game ended with nobody admitted by the winners rule.
    if stats.iter().any(|s| s.no_winner > 0) {
        row(
            "no winner",
            done(&|s, _| format!("{:.1}%", 100.0 * s.no_winner as f64 / s.finished as f64)),
        );
    }
    row(
        "lead changes / game",
        done(&|s, _| format!("{:.2}", s.mean_lead_changes())),
    );
    if stats.iter().any(|s| s.margins.count() > 0) {
        row(
            "win margin: mean / max",
            done(&|s, _| format!("{:.1} / {}", s.margins.mean(), s.margins.max())),
        );
    }
    row(
        "turns histogram",
        done(&|s, _| {
            let h = &s.turns;
            format!("{} {}..{}", sparkline(h), h.min(), h.max())
        }),
    );
    let seats = columns.iter().map(|c| c.players).max().unwrap_or(0);
    for seat in 0..seats {
        row(
            &format!("win share P{seat} (95% CI)"),
            done(&|s, n| {
                if seat >= n {
                    return "-".into();
                }
                let (share, half) = s.win_share(seat);
                if s.finished < FEW_GAMES {
                    return format!("{:.1}% too few games", 100.0 * share);
                }
                format!("{:.1}% ±{:.1}", 100.0 * share, 100.0 * half)
            }),
        );
    }
    row(
        "first mover win share",
        done(&|s, _| {
            let (share, half) = s.first_mover_share();
            if s.first_known < FEW_GAMES {
                return format!("{:.1}% too few games", 100.0 * share);
            }
            format!("{:.1}% ±{:.1}", 100.0 * share, 100.0 * half)
        }),
    );
    row(
        "first seat advantage",
        done(&|s, n| {
            if s.finished < FEW_GAMES {
                "too few games".into()
            } else if s.first_seat_advantage(n) {
                "SIGNIFICANT".into()
            } else {
                "no".into()
            }
        }),
    );
    let width = rows
        .iter()
        .flat_map(|(_, cells)| cells.iter().map(|c| c.chars().count()))
        .max()
        .unwrap_or(0)
        .max(10)
        + 2;
    for (name, cells) in rows {
        let _ = write!(out, "  {name:<LABEL$}");
        for c in cells {
            let _ = write!(out, "{c:>width$}");
        }
        out.push('\n');
    }
    for s in sims {
        if !s.compare.is_empty() {
            let _ = writeln!(
                out,
                "  against the base (95% intervals; `moved`: significant, Bonferroni over each column's metrics):"
            );
            let mut last = "";
            for d in &s.compare {
                if d.column != last {
                    let _ = writeln!(out, "    {}:", d.column);
                    last = &d.column;
                }
                let _ = writeln!(out, "      {}", d.line());
            }
        }
    }
    if let Some(s) = Some(sim).filter(|s| !s.fires.is_empty()) {
        let _ = writeln!(out, "  fire counts (all columns):");
        let mut line = String::new();
        for f in &s.fires {
            let cell = format!("{} ({}): {}", f.what, f.at, f.count);
            if !line.is_empty() && line.len() + cell.len() > 100 {
                let _ = writeln!(out, "    {}", line.trim_end_matches([',', ' ']));
                line.clear();
            }
            line.push_str(&cell);
            line.push_str(", ");
        }
        if !line.is_empty() {
            let _ = writeln!(out, "    {}", line.trim_end_matches([',', ' ']));
        }
    }
    for s in sims {
        for n in &s.notes {
            let _ = writeln!(out, "  note: {n}");
        }
    }
    out
}

/// A game-length histogram in eight characters.
pub fn sparkline(h: &super::stats::Histogram) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let bins = h.bins(8);
    let top = bins.iter().map(|b| b.1).max().unwrap_or(0).max(1);
    bins.iter()
        .map(|(_, k)| {
            if *k == 0 {
                ' '
            } else {
                BARS[((*k * 7).div_ceil(top)) as usize]
            }
        })
        .collect()
}
