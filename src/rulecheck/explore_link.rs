//! A loop's filter measured at the guard above it (`explore_aim.rs`,
//! `under_guard`), linked to that guard: where the guard wants no element
//! of the loop's own collection to pass some test, the element the loop
//! needs must fail that test too.
//!
//! `if not any(s in Suit where ruler(s) == q and shown(s)) { for r in
//! Suit where ruler(r) == q { ... } }`: measured apart, the guard counts
//! the suits `q` rules that are shown and the filter is met by any of
//! them, so the sum falls as they are hidden and jumps to
//! [`FAR`](super::explore_dist::FAR) when the last one is (none left for
//! the filter). Where the guard holds, every suit fails the guard's test,
//! so the suit the loop needs is one that `q` rules and that is not shown:
//! the filter's distance plus the test's wanted false, for each element.
//! The sum is still 0 exactly when the guard holds and some element passes
//! the filter.

use super::explore_aim::loop_coll;
use super::explore_dist::{Dist, Target, as_expr, build, nearest_of};
use super::explore_loop::same;
use crate::graph::{Graph, Node};
use crate::hir::Expr;
use crate::syntax::ast::{AggKind, BinOp};

/// Link target `t`, a loop's filter measured at the guard above it (its
/// distance the guard's and the filter's, in that order), to that guard.
pub(super) fn link(g: &Graph, t: &mut Target) {
    if t.at == t.node || t.arm.is_some() {
        return;
    }
    let Dist::And(parts) = &mut t.dist else {
        return;
    };
    let [above, own] = parts.as_mut_slice() else {
        return;
    };
    if let Some(d) = linked(g, t.phase, t.node as usize, above) {
        *own = d;
    }
}

/// The filter of the loop at node `n` of `phase`, under a guard whose
/// distance `above` wants no element of the loop's own collection to pass
/// some tests `G` (a part `count(s in C where G)`, from `not any(s in C
/// where G)` or `all(s in C where not G)`): the nearest element's distance,
/// the filter's plus each `G`'s wanted false (`G` bound to that element).
/// `None`: not a loop with a filter, or no such part (the collection must
/// read no local, so that it is the same where both are evaluated).
fn linked(g: &Graph, phase: u16, n: usize, above: &Dist) -> Option<Dist> {
    let nodes = &g.phases.get(phase as usize)?.nodes;
    let Node::ForNext {
        slot,
        iter,
        filter: Some(f),
        ..
    } = nodes.get(n)?
    else {
        return None;
    };
    let coll = loop_coll(nodes, n, *iter)?;
    let mut free = Vec::new();
    coll.free_locals(&mut Vec::new(), &mut free);
    if !free.is_empty() {
        return None;
    }
    let mut tests = Vec::new();
    nones(above, coll, *slot, &mut tests);
    if tests.is_empty() {
        return None;
    }
    let body = tests
        .iter()
        .fold(as_expr(&build(g, phase, f, true, &[])), |d, t| {
            let fails = as_expr(&build(g, phase, t, false, &[]));
            Expr::Bin(BinOp::Add, Box::new(d), Box::new(fails))
        });
    Some(Dist::Num(nearest_of(*slot, coll, body)))
}

/// The tests `G` of the parts of `d` (through its `and`s) that count the
/// elements of `coll` passing `G`, each bound to the element in `slot`.
fn nones(d: &Dist, coll: &Expr, slot: u16, out: &mut Vec<Expr>) {
    match d {
        Dist::And(ds) => ds.iter().for_each(|d| nones(d, coll, slot, out)),
        Dist::Num(e) => out.extend(none_of(e, coll, slot, Vec::new())),
        _ => {}
    }
}

/// `count(s in coll where G)` (inside a function's bindings, `binds`) as
/// `G` with `s` bound to the element in `slot`.
fn none_of(e: &Expr, coll: &Expr, slot: u16, mut binds: Vec<(u16, Expr)>) -> Option<Expr> {
    match e {
        Expr::Bind(bs, body) => {
            binds.extend(bs.iter().cloned());
            none_of(body, coll, slot, binds)
        }
        Expr::Agg {
            kind: AggKind::Count,
            slot: s,
            coll: c,
            filter: Some(test),
            body: None,
        } if same(c, coll, &mut Vec::new()) => {
            binds.push((*s, Expr::Local(slot)));
            Some(Expr::Bind(binds, test.clone()))
        }
        _ => None,
    }
}
