//! Which code a column's fixed options switch off, for the zone flow of
//! `fixed_flow.rs`: a block inside a gate that fails whatever the state
//! (`if use_x == 1` with `use_x = 0`, `while count(Z) < k` with `k = 0`),
//! and a phase every call to which is in such a block, or in such a phase.

use crate::hir::{Expr, Hir, Stmt, StmtKind};
use std::collections::BTreeSet;

/// A condition that fails whatever the state, with the options fixed:
/// `off(e, want)` is the options it read when `e` can never be `want`.
pub type Off<'o> = dyn Fn(&Expr, bool) -> Option<Vec<u16>> + 'o;

/// The options that switch off a block needing `c` to be `want` (inside
/// a block switched off by `outer`, if any).
fn gate(c: Option<&Expr>, want: bool, off: &Off, outer: Option<&Opts>) -> Option<Opts> {
    if let Some(o) = outer {
        return Some(o.clone());
    }
    let mut needs = Vec::new();
    super::gate::needs(c?, want, &mut needs);
    needs
        .iter()
        .find_map(|n| off(n.expr, n.want))
        .map(|r| r.into_iter().collect())
}

/// Options read.
pub type Opts = BTreeSet<u16>;

/// Call `f` on every statement of a block, outer before inner, with the
/// options that switch it off (a gate around it that fails whatever the
/// state: `if use_x == 1` with `use_x = 0`), if any.
pub fn each_gated<'a>(
    block: &'a [Stmt],
    off: &Off,
    sw: Option<&Opts>,
    f: &mut dyn FnMut(&'a Stmt, Option<&Opts>),
) {
    for s in block {
        f(s, sw);
        match &s.kind {
            StmtKind::If(c, a, b) => {
                each_gated(a, off, gate(Some(c), true, off, sw).as_ref(), f);
                each_gated(b, off, gate(Some(c), false, off, sw).as_ref(), f);
            }
            StmtKind::While(c, b) => each_gated(b, off, gate(Some(c), true, off, sw).as_ref(), f),
            StmtKind::For(b, body) => {
                each_gated(
                    body,
                    off,
                    gate(b.filter.as_ref(), true, off, sw).as_ref(),
                    f,
                );
            }
            StmtKind::Choose {
                arms, otherwise, ..
            } => {
                for a in arms {
                    let mut g = gate(a.guard.as_ref(), true, off, sw);
                    if g.is_none() {
                        g = gate(
                            a.bind.as_ref().and_then(|b| b.filter.as_ref()),
                            true,
                            off,
                            sw,
                        );
                    }
                    each_gated(&a.body, off, g.as_ref(), f);
                }
                if let Some(o) = otherwise {
                    each_gated(o, off, sw, f);
                }
            }
            _ => {
                for b in super::flow::child_blocks(s) {
                    each_gated(b, off, sw, f);
                }
            }
        }
    }
}

/// Per procedure: the options that switch off every call to it (`None`:
/// it may run). Only phases and turns with calls can be switched off.
pub fn switched_procs(hir: &Hir, off: &Off) -> Vec<Option<Opts>> {
    let n = hir.procs.len();
    let mut calls: Vec<Vec<(usize, Option<Opts>)>> = vec![Vec::new(); n];
    for (p, proc) in hir.procs.iter().enumerate() {
        each_gated(&proc.body, off, None, &mut |s, sw| {
            if let StmtKind::Call(callee, _) = &s.kind
                && let Some(c) = calls.get_mut(*callee as usize)
            {
                c.push((p, sw.cloned()));
            }
        });
    }
    let entered = |p: usize| {
        !matches!(
            hir.procs[p].kind,
            crate::hir::ProcKind::Phase | crate::hir::ProcKind::Turn
        ) || calls[p].is_empty()
    };
    let mut dead: Vec<Option<Opts>> = (0..n).map(|p| (!entered(p)).then(Opts::new)).collect();
    // a phase runs when a call that is not switched off, in a phase that
    // runs, runs
    loop {
        let mut changed = false;
        for p in 0..n {
            if dead[p].is_none() {
                continue;
            }
            let live = calls[p]
                .iter()
                .any(|(caller, sw)| sw.is_none() && dead[*caller].is_none());
            let mut read = Opts::new();
            for (caller, sw) in &calls[p] {
                read.extend(sw.iter().chain(dead[*caller].iter()).flatten());
            }
            let next = (!live).then_some(read);
            if next != dead[p] {
                dead[p] = next;
                changed = true;
            }
        }
        if !changed {
            return dead;
        }
    }
}
