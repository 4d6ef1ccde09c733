//! The targets of guided exploration's branch distance (`explore_branch.rs`)
//! that are not an `if`: a loop's filter that no element ever passed, a
//! choice option that was never offered (its `for` filter or `when` guard
//! never held), and a choice's `otherwise` that never ran (some option was
//! always offered). Their distances are built as expressions of the rules
//! language and evaluated in the frame of the node that holds them:
//!
//! - `for s in Color where owner_of(s) == q` is as far as the nearest element
//!   is from passing the filter (`min(d(filter) for s in Color)`);
//! - `"use {c}" for c in p.hand where usable(c)` likewise, over the
//!   option's source (and its second source, for a pair);
//! - `otherwise` is as far as the number of options offered is from 0.
//!
//! A target that is the first statement of an `if`'s body (this kind or an
//! `if`) is measured at the guard above it, that guard's distance added
//! ([`under_guard`]).
//!
//! A target the run's options switch off in every column (`if bury == 1`
//! with `bury = 0`) is left out: no line of play can reach it.

use super::explore_dist::{
    Dist, FAR, Target, agg, as_expr, at_most, bin, build, cond, int, nearest_of,
};
use super::gate::{Need, needs, switched_off};
use crate::graph::{Graph, Node};
use crate::hir::Expr;
use crate::syntax::ast::{AggKind, BinOp};

/// The run's columns: option values and players, each.
pub type Columns<'a> = [(&'a [i32], usize)];

pub(super) fn off(e: &Expr, want: bool, columns: &Columns) -> bool {
    let mut n: Vec<Need> = Vec::new();
    needs(e, want, &mut n);
    switched_off(&n, columns).is_some()
}

/// `a and b`, of the parts present.
fn both(a: Option<&Expr>, b: Option<&Expr>) -> Option<Expr> {
    match (a, b) {
        (Some(a), Some(b)) => Some(bin(BinOp::And, a.clone(), b.clone())),
        (a, b) => a.or(b).cloned(),
    }
}

/// The collection a loop's `ForNext` walks: its `ForStart`'s.
pub(super) fn loop_coll(nodes: &[Node], n: usize, it: u16) -> Option<&Expr> {
    nodes[..n].iter().rev().find_map(|node| match node {
        Node::ForStart { coll, iter } if *iter == it => Some(coll),
        _ => None,
    })
}

/// The target of a loop's filter at node `n` of phase `p` (whose body never
/// ran), if the options do not switch it off.
pub fn loop_target(g: &Graph, p: usize, n: usize, columns: &Columns) -> Option<Target> {
    let nodes = &g.phases[p].nodes;
    let Node::ForNext {
        slot,
        iter,
        filter: Some(f),
        ..
    } = &nodes[n]
    else {
        return None;
    };
    if off(f, true, columns) {
        return None;
    }
    let coll = loop_coll(nodes, n, *iter)?;
    let body = as_expr(&build(g, p as u16, f, true, &[]));
    Some(Target::new(
        p,
        n,
        true,
        Dist::Num(nearest_of(*slot, coll, body)),
    ))
}

/// The targets of a choice at node `n`: each option never taken whose
/// filter or guard can fail (how far it is from being offered), and an
/// `otherwise` that never ran (how many options are offered).
pub fn choice_targets(
    g: &Graph,
    p: usize,
    n: usize,
    ran: &dyn Fn(usize) -> bool,
    columns: &Columns,
    out: &mut Vec<Target>,
) {
    let Node::Choose {
        arms, otherwise, ..
    } = &g.phases[p].nodes[n]
    else {
        return;
    };
    let mut offered: Vec<Expr> = Vec::new();
    for (j, arm) in arms.iter().enumerate() {
        let gate = both(
            arm.bind.as_ref().and_then(|b| b.filter.as_ref()),
            arm.guard.as_ref(),
        );
        // the options offered by this arm, for `otherwise`
        let mut count = match &arm.also {
            Some((s2, c2)) => agg(AggKind::Count, *s2, c2, gate.clone(), None),
            None => gate.clone().map_or(int(1), |g| cond(g, int(1), int(0))),
        };
        if let Some(b) = &arm.bind {
            count = agg(AggKind::Sum, b.slot, &b.coll, None, Some(count));
        }
        offered.push(count);
        let Some(gate) = gate else { continue };
        if ran(arm.target as usize) || off(&gate, true, columns) {
            continue;
        }
        let mut d = as_expr(&build(g, p as u16, &gate, true, &[]));
        if let Some((s2, c2)) = &arm.also {
            d = nearest_of(*s2, c2, d);
        }
        if let Some(b) = &arm.bind {
            d = nearest_of(b.slot, &b.coll, d);
        }
        let mut t = Target::new(p, n, true, Dist::Num(d));
        t.arm = Some(j as u16);
        out.push(t);
    }
    if let Some(o) = otherwise
        && !ran(*o as usize)
        && let Some(sum) = offered.into_iter().reduce(|a, b| bin(BinOp::Add, a, b))
    {
        let mut t = Target::new(p, n, false, Dist::Num(at_most(sum, FAR)));
        t.arm = Some(u16::MAX);
        out.push(t);
    }
}

/// A target that is the first statement of an `if`'s body (an `if`, or a
/// loop with nothing before it but its snapshot) is measured at the guard
/// above instead, as that guard's distance from holding plus its own.
/// Nothing runs between the two, so where the guard holds the measure is
/// the target's own, and where it fails the search still sees how far both
/// are: `if q != none and not active(q) { for r in Color where owner_of(r)
/// == q { ... } }` gains the slope of the guard above (how many of the
/// pieces that keep `q` active are still on the board) where its filter
/// alone is flat.
pub fn under_guard(g: &Graph, t: &mut Target) {
    if t.at != t.node || t.arm.is_some() {
        return;
    }
    let Some(ph) = g.phases.get(t.phase as usize) else {
        return;
    };
    let (nodes, n) = (&ph.nodes, t.node as usize);
    let first = match nodes.get(n) {
        Some(Node::ForNext { .. })
            if matches!(
                n.checked_sub(1).map(|i| &nodes[i]),
                Some(Node::ForStart { .. })
            ) =>
        {
            n - 1
        }
        Some(Node::JumpIfNot(..)) => n,
        _ => return,
    };
    let Some(m) = first.checked_sub(1) else {
        return;
    };
    let Node::JumpIfNot(cond, to) = &nodes[m] else {
        return;
    };
    if (*to as usize) <= n {
        return;
    }
    let above = build(g, t.phase, cond, true, &[]);
    let own = std::mem::replace(&mut t.dist, Dist::And(Vec::new()));
    t.dist = Dist::And(vec![above, own]);
    t.at = m as u32;
}
