//! Where a phase's parameter comes from, for a target's distance taken
//! outside its frame (`explore_proxy.rs`): a card parameter has no domain of
//! its own, but the call sites say which cards it can be bound to. A call
//! `release(c)` inside `for c in z` passes an element of `z`; `z`, a
//! parameter of its own phase, is what that phase's callers pass (`loot(p,
//! q.castle)` inside `for q in players`), and so on up the calls. The
//! result is a list of collections, each closed by the player and
//! enumeration locals it still reads (taken over all their values, in slots
//! above the phase's own), whose elements are every card the parameter can
//! hold, or more.
//!
//! Also here: a local set once from the parameters alone (`let f =
//! side(c.suit)`), read as its value, and the substitution both use.

use super::explore_branch::FAR;
use crate::graph::{Graph, Node, Phase};
use crate::hir::{Expr, Place, Ty};
use crate::syntax::ast::{AggKind, AssignOp, BinOp};

/// Slots a probe has beyond its players: a proxy binds no slot above.
pub(super) const SLOTS: u16 = 256;
/// The first slot a proxy binds for a card taken over its callers'
/// collections (and for those collections' own locals): above a phase's.
pub(super) const FRESH: u16 = 192;

/// How many calls up a parameter is followed.
const DEPTH: u32 = 4;
/// The most collections a parameter is taken over (more: no proxy).
const MAX_COLLS: usize = 16;

/// Every value a local of type `ty` can hold, as a collection.
pub(super) fn domain(ty: Ty) -> Option<Expr> {
    match ty {
        Ty::Enum(id) => Some(Expr::EnumAll(id)),
        Ty::Player => Some(Expr::Players),
        _ => None,
    }
}

/// `e` with every read of local `s` that it does not bind itself replaced
/// by `with`.
pub(super) fn subst(e: &mut Expr, s: u16, with: &Expr) {
    match e {
        Expr::Local(x) if *x == s => *e = with.clone(),
        Expr::Bind(args, body) => {
            let mut shadowed = false;
            for (b, a) in args.iter_mut() {
                if !shadowed {
                    subst(a, s, with);
                }
                shadowed |= *b == s;
            }
            if !shadowed {
                subst(body, s, with);
            }
        }
        Expr::Agg {
            slot,
            coll,
            filter,
            body,
            ..
        } => {
            subst(coll, s, with);
            if *slot != s {
                for x in [filter, body].into_iter().flatten() {
                    subst(x, s, with);
                }
            }
        }
        _ => e.for_each_child_mut(|x| subst(x, s, with)),
    }
}

/// Whether node `n` writes local `s` (an assignment, a loop's or an
/// option's element).
fn writes(n: &Node, s: u16) -> bool {
    match n {
        Node::Assign(Place::Local(x), ..) => *x == s,
        Node::ForNext { slot, .. } => *slot == s,
        Node::Choose { arms, .. } => arms.iter().any(|a| {
            a.bind.as_ref().is_some_and(|b| b.slot == s)
                || a.also.as_ref().is_some_and(|x| x.0 == s)
        }),
        _ => false,
    }
}

/// The value of local `s`, if the phase sets it exactly once, from
/// parameters it never writes.
pub(super) fn set_once(ph: &Phase, s: u16) -> Option<Expr> {
    let mut sets = ph.nodes.iter().filter(|n| writes(n, s));
    let Some(Node::Assign(_, AssignOp::Set, v)) = sets.next() else {
        return None;
    };
    if sets.next().is_some() {
        return None;
    }
    let mut reads = Vec::new();
    v.free_locals(&mut Vec::new(), &mut reads);
    let fixed = |r: &u16| *r < ph.params && !ph.nodes.iter().any(|n| writes(n, *r));
    reads.iter().all(fixed).then(|| v.clone())
}

/// The collections local `a` of phase `ph` is drawn from, where a loop or
/// an option binds it, each with the filter its elements pass (a loop's
/// `where`, an option's `for` filter and `when` guard) and the node that
/// binds it.
fn binders(ph: &Phase, a: u16) -> Vec<(Expr, Vec<Expr>)> {
    let mut out = Vec::new();
    for (i, n) in ph.nodes.iter().enumerate() {
        match n {
            Node::ForNext {
                slot, iter, filter, ..
            } if *slot == a => {
                let start = ph.nodes[..i].iter().rev().find_map(|m| match m {
                    Node::ForStart { coll, iter: it } if it == iter => Some(coll.clone()),
                    _ => None,
                });
                out.extend(start.map(|c| (c, filter.iter().cloned().collect())));
            }
            Node::Choose { arms, .. } => {
                for arm in arms {
                    if let Some(b) = arm.bind.as_ref().filter(|b| b.slot == a) {
                        let f = b.filter.iter().chain(&arm.guard).cloned().collect();
                        out.push((b.coll.clone(), f));
                    }
                    out.extend(
                        arm.also
                            .iter()
                            .filter(|x| x.0 == a)
                            .map(|x| (x.1.clone(), Vec::new())),
                    );
                }
            }
            _ => {}
        }
    }
    out
}

/// The conditions of the `if`s (and `while`s) around node `i`: each holds
/// when the body around `i` is entered.
fn guards(ph: &Phase, i: usize) -> Vec<Expr> {
    ph.nodes[..i]
        .iter()
        .filter_map(|n| match n {
            Node::JumpIfNot(c, to) if *to as usize > i => Some(c.clone()),
            _ => None,
        })
        .collect()
}

/// Each call of phase `callee`: the calling phase, its argument for
/// parameter `s`, and the conditions around the call.
fn call_args(g: &Graph, callee: u16, s: u16) -> Vec<(u16, Expr, Vec<Expr>)> {
    let mut out = Vec::new();
    for (p, ph) in g.phases.iter().enumerate() {
        if ph.locals >= FRESH {
            continue;
        }
        for (i, n) in ph.nodes.iter().enumerate() {
            if let Node::Call(c, args) = n
                && *c == callee
                && let Some(a) = args.get(s as usize)
            {
                out.push((p as u16, a.clone(), guards(ph, i)));
            }
        }
    }
    out
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Bin(op, Box::new(a), Box::new(b))
}

fn agg(kind: AggKind, slot: u16, coll: Expr, filter: Option<Expr>, body: Option<Expr>) -> Expr {
    Expr::Agg {
        kind,
        slot,
        coll: Box::new(coll),
        filter: filter.map(Box::new),
        body: body.map(Box::new),
    }
}

struct Walk<'a> {
    g: &'a Graph,
    fresh: &'a mut u16,
    out: Vec<Expr>,
}

impl Walk<'_> {
    fn take(&mut self) -> Option<u16> {
        let x = *self.fresh;
        *self.fresh += 1;
        (x < SLOTS).then_some(x)
    }

    /// Expression `e` of phase `p`: its player and enumeration locals
    /// taken over all their values (the minimum), at most one other local
    /// (a parameter) followed up to the callers. `None`: give up.
    fn resolve(&mut self, p: u16, e: Expr, depth: u32) -> Option<()> {
        let ph = self.g.phases.get(p as usize)?;
        let mut reads = Vec::new();
        e.free_locals(&mut Vec::new(), &mut reads);
        let (mut e, mut up) = (e, None);
        for q in reads.into_iter().filter(|q| *q < FRESH) {
            match domain(*ph.local_types.get(q as usize)?) {
                Some(d) => {
                    let x = self.take()?;
                    subst(&mut e, q, &Expr::Local(x));
                    e = agg(AggKind::Min, x, d, None, Some(e));
                }
                None if q < ph.params && up.is_none() => up = Some(q),
                None => return None,
            }
        }
        let Some(q) = up else {
            self.out.push(e);
            return (self.out.len() <= MAX_COLLS).then_some(());
        };
        if depth == 0 {
            return None;
        }
        for (caller, arg, _) in call_args(self.g, p, q) {
            let mut c = e.clone();
            subst(&mut c, q, &arg);
            self.resolve(caller, c, depth - 1)?;
        }
        Some(())
    }

    /// `body` (reading slot `x`) at its nearest over the values the callers
    /// of `callee` pass its parameter `s`.
    fn param(&mut self, callee: u16, s: u16, x: u16, body: &Expr, depth: u32) -> Option<()> {
        for (caller, arg, around) in call_args(self.g, callee, s) {
            let Expr::Local(a) = arg else {
                continue;
            };
            let ph = self.g.phases.get(caller as usize)?;
            for (coll, filter) in binders(ph, a) {
                // the element passes its filter and the `if`s around the call
                let mut conds: Vec<Expr> =
                    filter.into_iter().chain(around.iter().cloned()).collect();
                for c in &mut conds {
                    subst(c, a, &Expr::Local(x));
                }
                let all = conds.iter().cloned().reduce(|l, r| bin(BinOp::And, l, r));
                let near = |f: Option<Expr>| {
                    let count = agg(AggKind::Count, x, coll.clone(), f.clone(), None);
                    Expr::Cond(
                        Box::new(bin(BinOp::Eq, count, Expr::Int(0))),
                        Box::new(Expr::Int(FAR as i32)),
                        Box::new(agg(AggKind::Min, x, coll.clone(), f, Some(body.clone()))),
                    )
                };
                let (mark, fresh) = (self.out.len(), *self.fresh);
                if self.resolve(caller, near(all), depth).is_none() {
                    // a condition that cannot be followed: the whole collection
                    self.out.truncate(mark);
                    *self.fresh = fresh;
                    self.resolve(caller, near(None), depth)?;
                }
            }
            if a < ph.params && depth > 0 {
                self.param(caller, a, x, body, depth - 1)?;
            }
        }
        Some(())
    }
}

/// `body`, which reads slot `x` for phase `callee`'s parameter `s`, at its
/// nearest over each collection the callers draw that parameter from: one
/// closed expression per collection. Slots are taken from `fresh` on.
/// `None` when there are none or they cannot be told.
pub(super) fn callers_colls(
    g: &Graph,
    callee: u16,
    s: u16,
    x: u16,
    body: &Expr,
    fresh: &mut u16,
) -> Option<Vec<Expr>> {
    let mut w = Walk {
        g,
        fresh,
        out: Vec::new(),
    };
    w.param(callee, s, x, body, DEPTH)?;
    (!w.out.is_empty()).then_some(w.out)
}
