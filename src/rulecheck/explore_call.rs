//! A target's distance measured at the call sites of its phase: where a
//! guard sits in a phase that runs only when called, and rarely, its own
//! distance is measured rarely too. At each call `P(args)` of the guard's
//! phase `P`, the guard's distance is rewritten with `P`'s parameters
//! replaced by the call's argument expressions (a local `P` sets once from
//! them read as its value), then the call site's own guards are added: the
//! `if` whose body the call begins (its distance from holding) and the loop
//! whose body that begins (the nearest element: its filter's distance plus
//! the rest). The result is measured where that loop starts in the caller,
//! and lifted once more to the caller's own call sites, so a guard two
//! calls deep is measured where the outer phase starts its loop.
//!
//! The rewritten distance is evaluated in the caller's frame, as any
//! target's (on a copy of its locals): every slot it binds itself (the
//! callee's loops and functions, the call site's loop) is moved to a slot
//! of the caller's frame above every local it reads, binders side by side
//! sharing one slot; a site whose frame has too few slots is not measured.

use super::explore_aim::loop_coll;
use super::explore_dist::{Dist, Target, as_expr, bin, build, nearest_of};
use super::explore_proxy::{set_once, subst};
use crate::graph::{Graph, Node};
use crate::hir::Expr;
use crate::syntax::ast::BinOp;

/// Call sites a target is lifted to, at most.
const SITES: usize = 8;
/// A placeholder slot for a parameter while the arguments are put in.
const HOLD: u16 = 60000;

/// Placeholder slots for the slots a distance binds, while they are moved.
const AWAY: u16 = 30000;

/// `e` with every slot it binds (an aggregate's element, a function's
/// parameter) moved to a slot of its own from [`AWAY`] on.
fn away(e: &mut Expr) -> Option<()> {
    rename(e, &mut AWAY.clone(), HOLD)
}

/// `e`, whose bound slots are all different, with each moved to the slot
/// of its depth from `depth` (binders side by side share slots, as a
/// function's expansions do; one inside another never does); `None` at
/// `top` or past it.
fn nest(e: &mut Expr, depth: u16, top: u16) -> Option<()> {
    match e {
        Expr::Agg {
            slot,
            coll,
            filter,
            body,
            ..
        } => {
            nest(coll, depth, top)?;
            (depth < top).then_some(())?;
            for x in [filter, body].into_iter().flatten() {
                subst(x, *slot, &Expr::Local(depth));
                nest(x, depth + 1, top)?;
            }
            *slot = depth;
            Some(())
        }
        Expr::Bind(args, body) => {
            let n = args.len() as u16;
            (depth + n < top).then_some(())?;
            for i in 0..args.len() {
                let (old, new) = (args[i].0, depth + i as u16);
                nest(&mut args[i].1, depth + i as u16, top)?;
                for (_, a) in args.iter_mut().skip(i + 1) {
                    subst(a, old, &Expr::Local(new));
                }
                subst(body, old, &Expr::Local(new));
                args[i].0 = new;
            }
            nest(body, depth + n, top)
        }
        _ => {
            let mut ok = Some(());
            e.for_each_child_mut(|x| {
                if ok.is_some() {
                    ok = nest(x, depth, top);
                }
            });
            ok
        }
    }
}

/// `e` with every slot it binds moved to a new slot from `fresh`, below
/// `top`.
fn rename(e: &mut Expr, fresh: &mut u16, top: u16) -> Option<()> {
    let mut next = || {
        let s = *fresh;
        *fresh += 1;
        (s < top).then_some(s)
    };
    match e {
        Expr::Agg {
            slot, filter, body, ..
        } => {
            let new = next()?;
            for x in [filter, body].into_iter().flatten() {
                subst(x, *slot, &Expr::Local(new));
            }
            *slot = new;
        }
        Expr::Bind(args, body) => {
            for i in 0..args.len() {
                let (old, new) = (args[i].0, next()?);
                for (_, a) in args.iter_mut().skip(i + 1) {
                    subst(a, old, &Expr::Local(new));
                }
                subst(body, old, &Expr::Local(new));
                args[i].0 = new;
            }
        }
        _ => {}
    }
    let mut ok = Some(());
    e.for_each_child_mut(|x| {
        if ok.is_some() {
            ok = rename(x, fresh, top);
        }
    });
    ok
}

/// The locals `e` reads and does not bind.
fn free(e: &Expr) -> Vec<u16> {
    let mut out = Vec::new();
    e.free_locals(&mut Vec::new(), &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

/// `e`, read in phase `p`, with each local the phase sets once read as its
/// value, until it reads only the phase's parameters (`None` if it cannot).
fn params_only(g: &Graph, p: u16, mut e: Expr) -> Option<Expr> {
    let ph = g.phases.get(p as usize)?;
    for _ in 0..4 {
        let open: Vec<u16> = free(&e).into_iter().filter(|s| *s >= ph.params).collect();
        if open.is_empty() {
            return Some(e);
        }
        for s in open {
            let v = set_once(ph, s)?.clone();
            subst(&mut e, s, &v);
        }
    }
    None
}

/// `e` (reading only the parameters of the phase called) at the call at
/// node `m` of phase `c` with arguments `args`, climbed to where the call's
/// `if`s and loops start: that node and the distance there.
fn at_call(g: &Graph, c: u16, m: usize, args: &[Expr], e: &Expr) -> Option<(u32, Expr)> {
    let nodes = &g.phases.get(c as usize)?.nodes;
    let mut e = e.clone();
    away(&mut e)?;
    for s in 0..args.len() as u16 {
        subst(&mut e, s, &Expr::Local(HOLD + s));
    }
    for (s, a) in args.iter().enumerate() {
        subst(&mut e, HOLD + s as u16, a);
    }
    if free(&e).iter().any(|s| *s >= HOLD) {
        return None;
    }
    let mut at = m;
    for _ in 0..8 {
        match at.checked_sub(1).map(|i| &nodes[i]) {
            Some(Node::JumpIfNot(cond, to)) if (*to as usize) > at => {
                let d = as_expr(&build(g, c, cond, true, &[]));
                e = bin(BinOp::Add, d, e);
                at -= 1;
            }
            Some(Node::ForNext {
                slot, iter, filter, ..
            }) => {
                let coll = loop_coll(nodes, at - 1, *iter)?;
                let start = nodes[..at - 1]
                    .iter()
                    .rposition(|n| matches!(n, Node::ForStart { iter: i, .. } if i == iter))?;
                let body = match filter {
                    Some(f) => bin(BinOp::Add, as_expr(&build(g, c, f, true, &[])), e),
                    None => e,
                };
                e = nearest_of(*slot, coll, body);
                at = start;
            }
            _ => break,
        }
    }
    Some((at as u32, e))
}

/// The distances of `t` measured at the call sites of its phase and of
/// their callers' (one level up), each a target of its own (`via` 1 on).
pub(super) fn lifted(g: &Graph, t: &Target) -> Vec<Target> {
    let mut out = Vec::new();
    if t.arm.is_some() {
        return out;
    }
    let Some(e) = params_only(g, t.phase, as_expr(&t.dist)) else {
        return out;
    };
    let mut open = vec![(t.phase, e, 0)];
    while let Some((callee, e, depth)) = open.pop() {
        for (c, ph) in g.phases.iter().enumerate() {
            for (m, n) in ph.nodes.iter().enumerate() {
                let Node::Call(p, args) = n else { continue };
                if *p != callee || c as u16 == callee || out.len() >= SITES {
                    continue;
                }
                let Some((at, d)) = at_call(g, c as u16, m, args, &e) else {
                    continue;
                };
                if depth == 0
                    && let Some(up) = params_only(g, c as u16, d.clone())
                {
                    open.insert(0, (c as u16, up, depth + 1));
                }
                if let Some(x) = bound(g, t, c as u16, at, d, out.len() as u16 + 1) {
                    out.push(x);
                }
            }
        }
    }
    out
}

/// The target measured at node `at` of phase `site` with distance `d`, the
/// slots it binds moved above the locals it reads, within the frame.
fn bound(g: &Graph, t: &Target, site: u16, at: u32, mut d: Expr, via: u16) -> Option<Target> {
    let locals = g.phases.get(site as usize)?.locals;
    let from = free(&d).last().map_or(0, |s| s + 1);
    away(&mut d)?;
    nest(&mut d, from, locals)?;
    let mut x = Target::new(t.phase as usize, t.node as usize, t.want, Dist::Num(d));
    (x.site, x.at, x.via) = (site, at, via);
    Some(x)
}
