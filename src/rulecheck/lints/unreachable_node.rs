//! `unreachable-node`: statements whose action-graph nodes cannot be
//! reached from their phase's entry by any edge (jumps, branch targets,
//! choice arms, `otherwise` and pass, fallthrough): code after an
//! unconditional `return`, `end game`, `break` or `leave`, or after a
//! `loop` that never breaks.
//!
//! Liveness is computed on the graph; the findings are mapped back to the
//! HIR so that a run of dead statements is reported once, and synthetic
//! nodes (the jump closing a loop, the implicit end of a phase) never are.

use super::{Context, Level, Lint, Pass};
use crate::check::hir::{Stmt, StmtKind};
use crate::diag::{Diagnostic, Span};
use crate::graph::Phase;
use crate::rulecheck::flow;

pub static LINT: Lint = Lint {
    name: "unreachable-node",
    level: Level::Warning,
    description: "code that can never run (after `return`, `end game`, `break`, `leave` or an endless `loop`)",
    help: "delete the dead code, or move it before the statement that leaves",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let live = cx.liveness();
    for (i, proc) in cx.hir.procs.iter().enumerate() {
        let (Some(ph), Some(live)) = (cx.graph.phases.get(i), live.nodes.get(i)) else {
            continue;
        };
        block(ph, live, &proc.body, out);
    }
}

fn block(ph: &Phase, live: &[bool], stmts: &[Stmt], out: &mut Vec<Diagnostic>) {
    let mut i = 0;
    while i < stmts.len() {
        if !is_dead(ph, live, &stmts[i]) {
            for b in flow::child_blocks(&stmts[i]) {
                block(ph, live, b, out);
            }
            i += 1;
            continue;
        }
        let first = i;
        while i < stmts.len() && is_dead(ph, live, &stmts[i]) {
            i += 1;
        }
        let span = stmts[first].span.to(stmts[i - 1].span);
        let what = if i - first == 1 {
            "this statement"
        } else {
            "these statements"
        };
        let mut d = LINT.at(span, "unreachable code", format!("{what} can never run"));
        if let Some(prev) = first.checked_sub(1).map(|j| &stmts[j]) {
            d = d.label(cause_span(prev), cause(prev));
        }
        out.push(d);
    }
}

/// A statement is dead when every node lowered from it is.
fn is_dead(ph: &Phase, live: &[bool], s: &Stmt) -> bool {
    let mut any = false;
    for (span, live) in ph.spans.iter().zip(live) {
        if span.start >= s.span.start && span.end <= s.span.end {
            if *live {
                return false;
            }
            any = true;
        }
    }
    any
}

fn cause(s: &Stmt) -> &'static str {
    match &s.kind {
        StmtKind::Return => "`return` leaves the phase here",
        StmtKind::EndGame => "`end game` stops the game here",
        StmtKind::Break => "`break` leaves the loop here",
        StmtKind::Leave(_) => "`leave` ends the phase here",
        StmtKind::Loop(_) => "this `loop` never ends: no `break` leaves it",
        StmtKind::If(..) => "every branch of this `if` leaves",
        StmtKind::Choose {
            arms,
            otherwise: None,
            ..
        } if arms.is_empty() => "this `choose` has no option: the player is stuck here",
        StmtKind::Choose { .. } | StmtKind::Window { .. } => "every option here leaves",
        _ => "control never gets past this",
    }
}

/// A compound statement is pointed at by its first line only.
fn cause_span(s: &Stmt) -> Span {
    match &s.kind {
        StmtKind::Loop(_) => Span::new(s.span.start as usize, s.span.start as usize + "loop".len()),
        StmtKind::If(..) => Span::new(s.span.start as usize, s.span.start as usize + "if".len()),
        StmtKind::Choose { .. } => Span::new(
            s.span.start as usize,
            s.span.start as usize + "choose".len(),
        ),
        StmtKind::Window { .. } => Span::new(
            s.span.start as usize,
            s.span.start as usize + "window".len(),
        ),
        _ => s.span,
    }
}
