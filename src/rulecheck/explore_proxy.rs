//! A target's distance away from its guard (`explore_branch.rs`), for
//! conditions on the position: `count(c in board where c.suit == s) == 1`
//! can only be measured where the guard runs, with its `s`; but the nearest
//! any side is to one piece can be measured at every decision, by taking
//! the minimum over every value the guard's locals could hold. So a search
//! can push the position toward the guard's condition before the guard is
//! ever reached again.
//!
//! A local whose type is an enumeration or a player is taken over all its
//! values, once for the whole condition (the parts of an `and` measured for
//! the same values: the value nearest to all of them, not each part's
//! nearest value); a local of another type that the phase sets once, from
//! locals that are themselves set once (`let k = leader(s)` after `let s =
//! v.suit`), is read as its value; a part of the condition that still
//! reads any other local (a card, a number) is left out (an `and` keeps its
//! other parts, an `or` is then nothing to measure). The result is an
//! expression of the language, evaluated outside any frame (with scratch
//! locals, as a probe is).

use super::explore_dist::{Dist, as_expr};
use crate::graph::{Graph, Node, Phase};
use crate::hir::{Expr, Place, Ty};
use crate::syntax::ast::{AggKind, AssignOp, BinOp};

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

/// The one value the phase gives local `s`, if it is set exactly once
/// (`None` for a parameter, which is never set in its phase).
fn set_once(ph: &Phase, s: u16) -> Option<&Expr> {
    let mut sets = ph.nodes.iter().filter(|n| writes(n, s));
    match (sets.next(), sets.next()) {
        (Some(Node::Assign(_, AssignOp::Set, v)), None) => Some(v),
        _ => None,
    }
}

/// Whether local `s` holds one value wherever it is read after it is set:
/// a parameter never written, or a local set exactly once.
fn fixed(ph: &Phase, s: u16) -> bool {
    let writers = ph.nodes.iter().filter(|n| writes(n, s)).count();
    (s < ph.params && writers == 0) || set_once(ph, s).is_some()
}

/// `e` with every read of local `s` that it does not bind itself replaced
/// by `with`.
fn subst(e: &mut Expr, s: u16, with: &Expr) {
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

/// `e` with each local that has no domain, but one value set once from
/// fixed locals, read as that value; `None` if it still reads a local with
/// no domain (or one beyond the scratch locals). With `pins`, a parameter
/// of the phase that it never writes is left as it is and listed there (to
/// be read as a value found where the guard ran: [`pinned`]).
fn readable(ph: &Phase, mut e: Expr, mut pins: Option<&mut Vec<u16>>) -> Option<Expr> {
    for _ in 0..4 {
        let mut locals = Vec::new();
        free(&e, &mut Vec::new(), &mut locals);
        let mut open = false;
        for s in locals {
            if s >= SLOTS {
                return None;
            }
            if domain(*ph.local_types.get(s as usize)?).is_some() {
                continue;
            }
            if let Some(pins) = pins.as_deref_mut()
                && s < ph.params
                && !ph.nodes.iter().any(|n| writes(n, s))
            {
                if !pins.contains(&s) {
                    pins.push(s);
                }
                continue;
            }
            let v = set_once(ph, s)?;
            let mut reads = Vec::new();
            v.free_locals(&mut Vec::new(), &mut reads);
            if !reads.iter().all(|r| *r != s && fixed(ph, *r)) {
                return None;
            }
            let v = v.clone();
            subst(&mut e, s, &v);
            open = true;
        }
        if !open {
            return Some(e);
        }
    }
    None
}

/// `min(e for each value of each free local)`: every free local but the
/// `pins` has a domain ([`readable`]).
fn quantified(ph: &Phase, e: Expr, pins: &[u16]) -> Option<Expr> {
    let mut locals = Vec::new();
    free(&e, &mut Vec::new(), &mut locals);
    let mut out = e;
    for s in locals {
        if pins.contains(&s) {
            continue;
        }
        let coll = domain(*ph.local_types.get(s as usize)?)?;
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

/// The parts of `d` that can be measured outside the frame, as one
/// expression still reading the guard's enumeration and player locals.
fn measurable(ph: &Phase, d: &Dist, mut pins: Option<&mut Vec<u16>>) -> Option<Expr> {
    match d {
        Dist::Leaf(..) | Dist::Cmp(..) | Dist::Num(_) => readable(ph, as_expr(d), pins),
        Dist::And(ds) => ds
            .iter()
            .filter_map(|d| measurable(ph, d, pins.as_deref_mut()))
            .reduce(|a, b| Expr::Bin(BinOp::Add, Box::new(a), Box::new(b))),
        Dist::Or(ds) => ds
            .iter()
            .map(|d| measurable(ph, d, pins.as_deref_mut()))
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

/// The distance of `d` taken outside its frame, if any part of it can be:
/// its measurable parts, for the values of the guard's locals that bring
/// them nearest together.
pub(super) fn proxy(g: &Graph, phase: u16, d: &Dist) -> Option<Expr> {
    let ph = g.phases.get(phase as usize)?;
    quantified(ph, measurable(ph, d, None)?, &[])
}

/// For a guard with no [`proxy`]: its distance outside its frame with the
/// parameters of its phase that still stop it (a card, a number: no
/// domain to take them over) left as locals, to be read as the values they
/// had where the guard came nearest ([`pin`]); those parameters' slots.
/// `release(c)`'s loop over the home squares of `c`'s army becomes, for the
/// card freed in the nearest game, how many of them are empty now.
pub(super) fn pinned(g: &Graph, phase: u16, d: &Dist) -> Option<(Expr, Vec<u16>)> {
    let ph = g.phases.get(phase as usize)?;
    let mut pins = Vec::new();
    let e = measurable(ph, d, Some(&mut pins))?;
    let e = quantified(ph, e, &pins)?;
    (!pins.is_empty()).then_some((e, pins))
}

/// `e` with each of the `pins` (slots) read as its value in `values`.
pub(super) fn pin(e: &Expr, pins: &[u16], values: &[i32]) -> Expr {
    let mut out = e.clone();
    for (s, v) in pins.iter().zip(values) {
        subst(&mut out, *s, &Expr::Int(*v));
    }
    out
}

/// Whether `e` reads the state at all (a proxy of options and constants
/// only is no guide).
pub(super) fn reads_state(e: &Expr) -> bool {
    match e {
        Expr::Int(_)
        | Expr::Nothing
        | Expr::Opt(_)
        | Expr::PlayerCount
        | Expr::Players
        | Expr::EnumAll(_) => false,
        Expr::Not(x) | Expr::Neg(x) => reads_state(x),
        Expr::Bin(_, a, b) => reads_state(a) || reads_state(b),
        Expr::Cond(a, b, c) => reads_state(a) || reads_state(b) || reads_state(c),
        // `sum(1 for s in p.slots)` reads the zone it counts
        Expr::Agg {
            coll, body, filter, ..
        } => {
            reads_state(coll)
                || body.as_deref().is_some_and(reads_state)
                || filter.as_deref().is_some_and(reads_state)
        }
        _ => true,
    }
}
