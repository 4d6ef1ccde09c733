//! Code that never ran, judged twice more:
//!
//! - **against the base** (a rules variant checked with its base beside
//!   it): a `never-fired` finding in the variant's own lines is *new in
//!   the variant*; one in the base's lines is *also rare in the base* when
//!   the base ran it less than once in [`RARE`] games (it stays a warning:
//!   the base has the same gap), and otherwise *switched off by the variant
//!   on purpose*: a note, never a warning, so a valid variant that disables
//!   a base rule passes `--deny warnings`. The base's lines have the same
//!   offsets in the variant's combined text as in the base's own, so its
//!   counts are found by span.
//! - **per column** (`--vary`, player counts, variants): code that ran in
//!   some columns but never in one is a note naming the column.

use super::evidence::Input;
use super::lints::never_fired::{self, Coverage};
use super::stats::Stats;
use crate::check::hir::StmtKind;
use crate::diag::Parts;
use crate::diag::{Diagnostic, Span};
use crate::graph::Node;
use std::collections::BTreeSet;

/// Base code run less than once in this many of its games is rare.
pub const RARE: u64 = 100;
/// Per-column notes kept for one column.
const NOTES_PER_COLUMN: usize = 8;

fn within(inner: Span, outer: Span) -> bool {
    inner.start >= outer.start && inner.end <= outer.end
}

/// How often the base ran the code at `span` (its nodes, or the option
/// whose label it is), over all its columns.
fn base_runs(input: &Input, span: Span) -> Option<u64> {
    let b = input.base?;
    let g = b.game.graph();
    let sum = |k: usize| {
        b.stats
            .iter()
            .map(|s| s.nodes.get(k).copied().unwrap_or(0))
            .sum::<u64>()
    };
    let sum_arm = |k: usize| {
        b.stats
            .iter()
            .map(|s| s.arms.get(k).copied().unwrap_or(0))
            .sum::<u64>()
    };
    let (mut any, mut runs) = (false, 0);
    for (p, ph) in g.phases.iter().enumerate() {
        for (n, s) in ph.spans.iter().enumerate() {
            if within(*s, span) {
                any = true;
                runs += sum(b.layout.node(p as u16, n as u32));
            }
        }
    }
    if any {
        return Some(runs);
    }
    // an option never chosen: its label starts where the arm does
    for (p, proc) in b.hir.procs.iter().enumerate() {
        let mut found = None;
        super::values::walk_stmts(&proc.body, &mut |s| {
            if let StmtKind::Choose { arms, .. } | StmtKind::Window { arms, .. } = &s.kind
                && let Some(j) = arms.iter().position(|a| a.span.start == span.start)
            {
                found = Some((s.span, j));
            }
        });
        let Some((choose, j)) = found else { continue };
        let ph = g.phases.get(p)?;
        let node = ph
            .nodes
            .iter()
            .zip(&ph.spans)
            .position(|(n, s)| matches!(n, Node::Choose { .. }) && *s == choose)?;
        let k = b.layout.arm(p as u16, node as u32, j as u16)?;
        return Some(sum_arm(k));
    }
    None
}

/// Judge never-fired findings of a variant against its base: returns the
/// warnings that stay (with their class in the message); the others
/// become notes.
pub fn against_base(
    input: &Input,
    diags: Vec<Diagnostic>,
    notes: &mut Vec<String>,
) -> Vec<Diagnostic> {
    let (Some(b), Some(parts)) = (input.base, Parts::of(input.cx.source)) else {
        return diags;
    };
    let base_len = input.cx.source.base_len;
    let base_games: u64 = b.stats.iter().map(|s| s.games).sum();
    let mut out = Vec::new();
    for mut d in diags {
        let Some(span) = d.span() else {
            out.push(d);
            continue;
        };
        if span.start >= base_len {
            d.message = format!("{}; new in the variant", d.message);
            out.push(d);
            continue;
        }
        let Some(runs) = base_runs(input, span) else {
            out.push(d);
            continue;
        };
        if runs * RARE < base_games {
            d.message = format!(
                "{}; also rare in the base (ran {runs} times in its {base_games} games)",
                d.message
            );
            out.push(d);
        } else {
            notes.push(format!(
                "{} never ran in the variant but ran {runs} times in the base's {base_games} games: switched off by the variant on purpose",
                parts.where_is(span.start)
            ));
        }
    }
    out
}

fn key(d: &Diagnostic) -> (u32, u32) {
    let s = d.span().unwrap_or(Span::new(0, 0));
    (s.start, s.end)
}

/// Notes on code that never ran in one column but ran in another.
pub fn per_column(input: &Input, over_all: &[Diagnostic], notes: &mut Vec<String>) {
    if input.columns.len() < 2 {
        return;
    }
    let all: BTreeSet<(u32, u32)> = over_all.iter().map(key).collect();
    let parts = Parts::of(input.cx.source);
    let place = |at: u32| match &parts {
        Some(p) => p.where_is(at),
        None => format!("line {}", input.cx.source.line_of(at)),
    };
    for (c, s) in input.columns.iter().zip(input.stats) {
        let one: &Stats = s;
        let cov = Coverage {
            layout: input.layout,
            nodes: &one.nodes,
            arms: &one.arms,
            games: format!("{} games", one.games),
            columns: vec![(c.options.as_slice(), c.players)],
        };
        let (mut diags, mut gated) = (Vec::new(), Vec::new());
        never_fired::run(input.cx, &cov, &mut diags, &mut gated);
        let only: Vec<String> = diags
            .iter()
            .filter(|d| !all.contains(&key(d)))
            .filter_map(|d| d.span().map(|s| place(s.start)))
            .collect();
        if only.is_empty() {
            continue;
        }
        let shown = only.len().min(NOTES_PER_COLUMN);
        let more = if only.len() > shown {
            format!(" and {} more", only.len() - shown)
        } else {
            String::new()
        };
        notes.push(format!(
            "column {}: {}{more} never ran in its {} games, though it ran in other columns",
            c.label,
            only[..shown].join(", "),
            one.games
        ));
    }
}
