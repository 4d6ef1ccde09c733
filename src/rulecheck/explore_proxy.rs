//! A target's distance away from its guard (`explore_branch.rs`), for
//! conditions on the position: `count(c in board where c.suit == s) == 1`
//! can only be measured where the guard runs, with its `s`; but the nearest
//! any army is to one piece can be measured at every decision, by taking
//! the minimum over every value the guard's locals could hold. So a search
//! can push the position toward the guard's condition before the guard is
//! ever reached again.
//!
//! A local whose type is an enumeration or a player is taken over all its
//! values; a part of the condition that reads any other local (a card, a
//! number) is left out (an `and` keeps its other parts, an `or` is then
//! nothing to measure). The result is an expression of the language,
//! evaluated outside any frame (with scratch locals, as a probe is).

use super::explore_aim::as_expr;
use super::explore_branch::Dist;
use crate::graph::Graph;
use crate::hir::{Expr, Ty};
use crate::syntax::ast::{AggKind, BinOp};

/// Slots a probe has beyond its players: the proxy binds no slot above.
const SLOTS: u16 = 256;

/// The locals `e` reads that it does not bind itself (and any slot it
/// binds beyond the scratch locals, so that it is refused).
fn free(e: &Expr, bound: &mut Vec<u16>, out: &mut Vec<u16>) {
    e.free_locals(bound, out);
    // a slot bound inside is written: it must fit the scratch too
    let mut inner = Vec::new();
    binds(e, &mut inner);
    for s in inner {
        if s >= SLOTS && !out.contains(&s) {
            out.push(s);
        }
    }
}

/// The slots `e` binds itself (a function's parameters, an aggregate's
/// element).
fn binds(e: &Expr, out: &mut Vec<u16>) {
    match e {
        Expr::Bind(args, _) => out.extend(args.iter().map(|(s, _)| *s)),
        Expr::Agg { slot, .. } => out.push(*slot),
        _ => {}
    }
    e.for_each_child(|x| binds(x, out));
}

/// Every value a local of type `ty` can hold, as a collection.
fn domain(ty: Ty) -> Option<Expr> {
    match ty {
        Ty::Enum(id) => Some(Expr::EnumAll(id)),
        Ty::Player => Some(Expr::Players),
        _ => None,
    }
}

/// `min(e for each value of each free local)`, or `None` when a free local
/// cannot be taken over its values.
fn quantified(g: &Graph, phase: u16, e: Expr) -> Option<Expr> {
    let mut locals = Vec::new();
    free(&e, &mut Vec::new(), &mut locals);
    let types = &g.phases.get(phase as usize)?.local_types;
    let mut out = e;
    for s in locals {
        if s >= SLOTS {
            return None;
        }
        let coll = domain(*types.get(s as usize)?)?;
        out = Expr::Agg {
            kind: AggKind::Min,
            slot: s,
            coll: Box::new(coll),
            filter: None,
            body: Some(Box::new(out)),
        };
    }
    Some(out)
}

/// The distance of `d` taken outside its frame, if any part of it can be.
pub(super) fn proxy(g: &Graph, phase: u16, d: &Dist) -> Option<Expr> {
    match d {
        Dist::Leaf(..) | Dist::Cmp(..) | Dist::Num(_) => quantified(g, phase, as_expr(d)),
        Dist::And(ds) => ds
            .iter()
            .filter_map(|d| proxy(g, phase, d))
            .reduce(|a, b| Expr::Bin(BinOp::Add, Box::new(a), Box::new(b))),
        Dist::Or(ds) => ds
            .iter()
            .map(|d| proxy(g, phase, d))
            .collect::<Option<Vec<Expr>>>()?
            .into_iter()
            .reduce(|a, b| {
                Expr::Cond(
                    Box::new(Expr::Bin(
                        BinOp::Lt,
                        Box::new(a.clone()),
                        Box::new(b.clone()),
                    )),
                    Box::new(a),
                    Box::new(b),
                )
            }),
    }
}

/// Whether `e` reads the state at all (a proxy of options and constants
/// only is no guide).
pub(super) fn reads_state(e: &Expr) -> bool {
    match e {
        Expr::Int(_) | Expr::Nothing | Expr::Opt(_) | Expr::PlayerCount => false,
        Expr::Not(x) | Expr::Neg(x) => reads_state(x),
        Expr::Bin(_, a, b) => reads_state(a) || reads_state(b),
        Expr::Cond(a, b, c) => reads_state(a) || reads_state(b) || reads_state(c),
        Expr::Agg { body, filter, .. } => {
            body.as_deref().is_some_and(reads_state) || filter.as_deref().is_some_and(reads_state)
        }
        _ => true,
    }
}
