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
    let mut out = header(sim);
    let mut t = Rows {
        columns: sims.iter().flat_map(|s| &s.columns).collect(),
        stats: sims.iter().flat_map(|s| &s.stats).collect(),
        rows: Vec::new(),
    };
    t.length_rows();
    t.balance_rows();
    t.write(&mut out);
    against_base(&mut out, sims);
    fire_counts(&mut out, &sim.fires);
    for s in sims {
        for n in &s.notes {
            let _ = writeln!(out, "  note: {n}");
        }
    }
    out
}

/// "simulation: N games per column, ..." and the command that runs it again.
fn header(sim: &SimSection) -> String {
    let p = &sim.plan;
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
    out
}

/// The table's rows: a name and a cell per column.
struct Rows<'a> {
    columns: Vec<&'a super::plan::Column>,
    stats: Vec<&'a Stats>,
    rows: Vec<(String, Vec<String>)>,
}

impl Rows<'_> {
    fn row(&mut self, name: &str, cells: Vec<String>) {
        self.rows.push((name.to_string(), cells));
    }

    /// A cell per column from its stats and player count.
    fn each(&self, f: &dyn Fn(&Stats, usize) -> String) -> Vec<String> {
        self.stats
            .iter()
            .zip(&self.columns)
            .map(|(s, c)| f(s, c.players))
            .collect()
    }

    /// Rows about finished games say `-` where no game finished.
    fn done(&self, f: &dyn Fn(&Stats, usize) -> String) -> Vec<String> {
        self.each(&|s, n| if s.finished == 0 { "-".into() } else { f(s, n) })
    }

    /// The columns, games, lengths, branching, ties, lead changes, margins
    /// and the length histogram.
    fn length_rows(&mut self) {
        let labels = self.columns.iter().map(|c| c.label.clone()).collect();
        self.row("", labels);
        let cells = self.each(&|_, n| n.to_string());
        self.row("players", cells);
        let cells = self.each(&|s, _| s.games.to_string());
        self.row("games", cells);
        let cells = self.each(&|s, _| s.finished.to_string());
        self.row("finished", cells);
        let cells = self.each(&|s, _| match s.errors() {
            0 => "none".into(),
            n => n.to_string(),
        });
        self.row("with errors", cells);
        for (what, pick) in [
            ("turns", (|s: &Stats| &s.turns) as fn(&Stats) -> &_),
            ("decisions", |s: &Stats| &s.decisions),
        ] {
            let cells = self.done(&|s, _| format!("{:.1}", pick(s).mean()));
            self.row(&format!("{what}: mean"), cells);
            let cells = self.done(&|s, _| {
                let h = pick(s);
                format!("{} / {} / {}", h.quantile(0.5), h.quantile(0.9), h.max())
            });
            self.row("  median / p90 / max", cells);
        }
        let cells = self.each(&|s, _| format!("{:.2}", s.branching()));
        self.row("branching (moves)", cells);
        let cells = self.each(&|s, _| format!("{:.1}%", 100.0 * s.forced_share()));
        self.row("forced decisions", cells);
        let cells = self.done(&|s, _| format!("{:.1}%", 100.0 * s.tie_rate()));
        self.row("ties", cells);
        // Shown only when some game ended with nobody admitted by the winners rule.
        if self.stats.iter().any(|s| s.no_winner > 0) {
            let cells = self
                .done(&|s, _| format!("{:.1}%", 100.0 * s.no_winner as f64 / s.finished as f64));
            self.row("no winner", cells);
        }
        let cells = self.done(&|s, _| format!("{:.2}", s.mean_lead_changes()));
        self.row("lead changes / game", cells);
        if self.stats.iter().any(|s| s.margins.count() > 0) {
            let cells = self.done(&|s, _| format!("{:.1} / {}", s.margins.mean(), s.margins.max()));
            self.row("win margin: mean / max", cells);
        }
        let cells = self.done(&|s, _| {
            let h = &s.turns;
            format!("{} {}..{}", sparkline(h), h.min(), h.max())
        });
        self.row("turns histogram", cells);
    }

    /// Each seat's win share, the first mover's, and its verdict.
    fn balance_rows(&mut self) {
        let seats = self.columns.iter().map(|c| c.players).max().unwrap_or(0);
        for seat in 0..seats {
            let cells = self.done(&|s, n| {
                if seat >= n {
                    return "-".into();
                }
                let (share, half) = s.win_share(seat);
                if s.finished < FEW_GAMES {
                    return format!("{:.1}% too few games", 100.0 * share);
                }
                format!("{:.1}% ±{:.1}", 100.0 * share, 100.0 * half)
            });
            self.row(&format!("win share P{seat} (95% CI)"), cells);
        }
        let cells = self.done(&|s, _| {
            let (share, half) = s.first_mover_share();
            if s.first_known < FEW_GAMES {
                return format!("{:.1}% too few games", 100.0 * share);
            }
            format!("{:.1}% ±{:.1}", 100.0 * share, 100.0 * half)
        });
        self.row("first mover win share", cells);
        let cells = self.done(&|s, n| {
            if s.finished < FEW_GAMES {
                "too few games".into()
            } else if s.first_seat_advantage(n) {
                "SIGNIFICANT".into()
            } else {
                "no".into()
            }
        });
        self.row("first seat advantage", cells);
    }

    /// The rows, names left and cells right-aligned in equal widths.
    fn write(self, out: &mut String) {
        let width = self
            .rows
            .iter()
            .flat_map(|(_, cells)| cells.iter().map(|c| c.chars().count()))
            .max()
            .unwrap_or(0)
            .max(10)
            + 2;
        for (name, cells) in self.rows {
            let _ = write!(out, "  {name:<LABEL$}");
            for c in cells {
                let _ = write!(out, "{c:>width$}");
            }
            out.push('\n');
        }
    }
}

/// The metrics of a variant against its base, column by column.
fn against_base(out: &mut String, sims: &[&SimSection]) {
    for s in sims {
        if s.compare.is_empty() {
            continue;
        }
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

/// The fire counts below the table, several to a line; an option counted
/// per value of an enum has a line of its own
/// (`option "lay {o}" (line 98): 512, by o: cloak 0, crown 80`).
fn fire_counts(out: &mut String, fires: &[super::fires::Fire]) {
    if fires.is_empty() {
        return;
    }
    let _ = writeln!(out, "  fire counts (all columns):");
    let mut line = String::new();
    let flush = |out: &mut String, line: &mut String| {
        if !line.is_empty() {
            let _ = writeln!(out, "    {}", line.trim_end_matches([',', ' ']));
            line.clear();
        }
    };
    for f in fires {
        let cell = format!("{} ({}): {}", f.what, f.at, f.count);
        if !f.per.is_empty() {
            flush(out, &mut line);
            let per: Vec<String> = f
                .per
                .iter()
                .map(|v| format!("{} {}", v.value, v.count))
                .collect();
            let by = f.by.as_deref().unwrap_or("value");
            let _ = writeln!(out, "    {cell}, by {by}: {}", per.join(", "));
            continue;
        }
        if line.len() + cell.len() > 100 {
            flush(out, &mut line);
        }
        line.push_str(&cell);
        line.push_str(", ");
    }
    flush(out, &mut line);
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
