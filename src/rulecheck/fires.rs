//! Fire counts: how often each rule ran over all the games of a file, for
//! the report ("phase `collect`: 0 calls" says a whole rule never fired):
//! each phase or reaction (the calls made to it, or for a reaction the
//! times it opened), each option of every choice (times chosen), and each
//! `end game` (games that ended there). An option offered for each value
//! of an enum (`"lay {o}" for o in Object`) is also counted per value, so
//! an object that is never laid shows as `cloak 0`.

use super::lints::Context;
use super::stats::{Layout, Stats};
use crate::check::hir::StmtKind;
use crate::diag::Parts;
use crate::graph::{Node, Phase};
use serde::Serialize;

/// One rule and how often it fired.
#[derive(Clone, Debug, Serialize)]
pub struct Fire {
    /// `phase collect`, `option "draw"`, `end game`.
    pub what: String,
    /// Where it is: `line 42`, or `PATH:42` in a variant.
    pub at: String,
    pub count: u64,
    /// For an option offered per value of an enum: the name it binds
    /// (`o`) and the count of each value, in the enum's order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per: Vec<PerValue>,
}

/// How often an option was chosen with one value.
#[derive(Clone, Debug, Serialize)]
pub struct PerValue {
    pub value: String,
    pub count: u64,
}

/// The counters of a file's columns, summed.
struct Sums<'a> {
    stats: &'a [Stats],
}

impl Sums<'_> {
    fn sum(&self, pick: impl Fn(&Stats) -> &[u64], k: usize) -> u64 {
        self.stats
            .iter()
            .map(|s| pick(s).get(k).copied().unwrap_or(0))
            .sum()
    }
    fn node(&self, k: usize) -> u64 {
        self.sum(|s| &s.nodes, k)
    }
    fn arm(&self, k: usize) -> u64 {
        self.sum(|s| &s.arms, k)
    }
    fn value(&self, k: usize) -> u64 {
        self.sum(|s| &s.values, k)
    }
}

/// The fire counts of a file, summed over its columns: the phases and
/// their `end game`s, then the options of every choice.
pub fn counts(cx: &Context, layout: &Layout, stats: &[Stats]) -> Vec<Fire> {
    let sums = Sums { stats };
    let parts = Parts::of(cx.source);
    let at = |offset: u32| match &parts {
        Some(p) => p.where_is(offset),
        None => format!("line {}", cx.source.line_of(offset)),
    };
    let mut out = phase_fires(cx, layout, &sums, &at);
    option_fires(cx, layout, &sums, &at, &mut out);
    out
}

/// Each phase (the calls made to it, or the times it was entered) and
/// each `end game` in it.
fn phase_fires(
    cx: &Context,
    layout: &Layout,
    sums: &Sums,
    at: &dyn Fn(u32) -> String,
) -> Vec<Fire> {
    let g = cx.graph;
    let mut calls = vec![0u64; g.phases.len()];
    for (p, ph) in g.phases.iter().enumerate() {
        for (n, x) in ph.nodes.iter().enumerate() {
            if let Node::Call(target, _) = x
                && let Some(c) = calls.get_mut(*target as usize)
            {
                *c += sums.node(layout.node(p as u16, n as u32));
            }
        }
    }
    let mut out = Vec::new();
    for (p, ph) in g.phases.iter().enumerate() {
        let entered = if p != 0 && calls[p] > 0 {
            calls[p]
        } else if ph.nodes.is_empty() {
            0
        } else {
            sums.node(layout.node(p as u16, 0))
        };
        out.push(fire(
            format!("phase {}", ph.name),
            at(ph.span.start),
            entered,
        ));
        for (n, x) in ph.nodes.iter().enumerate() {
            if matches!(x, Node::EndGame) && ph.spans[n].start != ph.span.start {
                let count = sums.node(layout.node(p as u16, n as u32));
                out.push(fire("end game".into(), at(ph.spans[n].start), count));
            }
        }
    }
    out
}

fn fire(what: String, at: String, count: u64) -> Fire {
    Fire {
        what,
        at,
        count,
        by: None,
        per: Vec::new(),
    }
}

/// Each option of every choice, by its label, with its count per value
/// when it is offered per value of an enum.
fn option_fires(
    cx: &Context,
    layout: &Layout,
    sums: &Sums,
    at: &dyn Fn(u32) -> String,
    out: &mut Vec<Fire>,
) {
    let g = cx.graph;
    for (p, proc) in cx.hir.procs.iter().enumerate() {
        let Some(ph) = g.phases.get(p) else { continue };
        super::values::walk_stmts(&proc.body, &mut |s| {
            let (StmtKind::Choose { arms, .. } | StmtKind::Window { arms, .. }) = &s.kind else {
                return;
            };
            let Some(n) = ph
                .nodes
                .iter()
                .zip(&ph.spans)
                .position(|(x, sp)| matches!(x, Node::Choose { .. }) && *sp == s.span)
            else {
                return;
            };
            for (j, a) in arms.iter().enumerate() {
                let text = cx.text(a.span);
                let label = match text.strip_prefix('"').and_then(|t| t.find('"')) {
                    Some(close) => &text[..close + 2],
                    None => text.lines().next().unwrap_or(""),
                };
                let Some(k) = layout.arm(p as u16, n as u32, j as u16) else {
                    continue;
                };
                let mut f = fire(
                    format!("option {}", label.trim()),
                    at(a.span.start),
                    sums.arm(k),
                );
                per_value(cx, layout, sums, ph, (n, j, k), &mut f);
                out.push(f);
            }
        });
    }
}

/// The counts of an option per value of the enum it binds, if it does:
/// `(n, j, k)` are its Choose node, its arm there and its arm counter.
fn per_value(
    cx: &Context,
    layout: &Layout,
    sums: &Sums,
    ph: &Phase,
    (n, j, k): (usize, usize, usize),
    f: &mut Fire,
) {
    let Some(Node::Choose { arms, .. }) = ph.nodes.get(n) else {
        return;
    };
    let Some(bind) = arms.get(j).and_then(|a| a.bind.as_ref()) else {
        return;
    };
    let Some(crate::hir::Ty::Enum(e)) = ph.local_types.get(bind.slot as usize) else {
        return;
    };
    let Some(info) = cx.graph.tables.enums.get(*e as usize) else {
        return;
    };
    f.per = info
        .values
        .iter()
        .enumerate()
        .filter_map(|(v, name)| {
            let c = layout.value(k, v as i32)?;
            Some(PerValue {
                value: name.clone(),
                count: sums.value(c),
            })
        })
        .collect();
    if !f.per.is_empty() {
        f.by = ph.local_names.get(bind.slot as usize).cloned();
    }
}
