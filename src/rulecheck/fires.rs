//! Fire counts: how often each rule ran over all the games of a file, for
//! the report ("phase `collect`: 0 calls" says a whole rule never fired):
//! each phase or reaction (the calls made to it, or for a reaction the
//! times it opened), each option of every choice (times chosen), and each
//! `end game` (games that ended there).

use super::lints::Context;
use super::split::Parts;
use super::stats::{Layout, Stats};
use crate::check::hir::StmtKind;
use crate::graph::Node;
use serde::Serialize;

/// One rule and how often it fired.
#[derive(Clone, Debug, Serialize)]
pub struct Fire {
    /// `phase collect`, `option "draw"`, `end game`.
    pub what: String,
    /// Where it is: `line 42`, or `PATH:42` in a variant.
    pub at: String,
    pub count: u64,
}

/// The fire counts of a file, summed over its columns.
pub fn counts(cx: &Context, layout: &Layout, stats: &[Stats]) -> Vec<Fire> {
    let g = cx.graph;
    let node = |k: usize| {
        stats
            .iter()
            .map(|s| s.nodes.get(k).copied().unwrap_or(0))
            .sum::<u64>()
    };
    let arm = |k: usize| {
        stats
            .iter()
            .map(|s| s.arms.get(k).copied().unwrap_or(0))
            .sum::<u64>()
    };
    let parts = Parts::of(cx.source);
    let at = |offset: u32| match &parts {
        Some(p) => p.where_is(offset),
        None => format!("line {}", cx.source.line_of(offset)),
    };
    let mut calls = vec![0u64; g.phases.len()];
    for (p, ph) in g.phases.iter().enumerate() {
        for (n, x) in ph.nodes.iter().enumerate() {
            if let Node::Call(target, _) = x
                && let Some(c) = calls.get_mut(*target as usize)
            {
                *c += node(layout.node(p as u16, n as u32));
            }
        }
    }
    let mut out = Vec::new();
    for (p, ph) in g.phases.iter().enumerate() {
        let entered = if p == 0 || calls[p] == 0 {
            if ph.nodes.is_empty() {
                0
            } else {
                node(layout.node(p as u16, 0))
            }
        } else {
            calls[p]
        };
        out.push(Fire {
            what: format!("phase {}", ph.name),
            at: at(ph.span.start),
            count: entered,
        });
        for (n, x) in ph.nodes.iter().enumerate() {
            if matches!(x, Node::EndGame) && ph.spans[n].start != ph.span.start {
                out.push(Fire {
                    what: "end game".into(),
                    at: at(ph.spans[n].start),
                    count: node(layout.node(p as u16, n as u32)),
                });
            }
        }
    }
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
                if let Some(k) = layout.arm(p as u16, n as u32, j as u16) {
                    out.push(Fire {
                        what: format!("option {}", label.trim()),
                        at: at(a.span.start),
                        count: arm(k),
                    });
                }
            }
        });
    }
    out
}
