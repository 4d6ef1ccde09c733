//! The expression compiler, continued: builtin calls, collections and
//! aggregates (`count`, `any`, `all`, `first`, `sum`, `min`, `max`), each
//! compiled once into a closure (see `compile.rs` for the conventions:
//! plain values, faults recorded in the context). An aggregate walks its
//! collection once with a cursor and stops at the first fault.

use super::coll::Coll;
use super::compile::{Arg, Col, Cx, Val, arg, konst};
use super::cond::UseTest;
use super::fault::Fault;
use super::geometry::{at_xy, board_cell, cell_xy, shift_at, shift_with, step_index};
use crate::graph::Graph;
use crate::hir::{Builtin, Expr};
use crate::syntax::ast::{AggKind, BinOp};

/// Compile a call of a builtin.
///
/// Long on purpose: one short match arm per builtin, so the whole builtin
/// set compiles in one place and reads beside `hir::Builtin`.
pub(crate) fn call(g: &Graph, b: Builtin, args: &[Expr]) -> Val {
    let op = |i: usize| arg(g, &args[i]);
    match b {
        Builtin::Top | Builtin::Bottom => {
            let (z, top) = (op(0), b == Builtin::Top);
            Box::new(move |cx| {
                let z = z.get(cx);
                let Some(z) = cx.zone(z) else { return 0 };
                let zone = cx.c.zone(z);
                let card = if top { zone.last() } else { zone.first() };
                card.map_or(-1, |x| *x as i32)
            })
        }
        Builtin::Size => {
            let z = op(0);
            Box::new(move |cx| {
                let z = z.get(cx);
                match cx.zone(z) {
                    Some(z) => cx.c.zone(z).len() as i32,
                    None => 0,
                }
            })
        }
        Builtin::Next | Builtin::Prev => {
            let (p, k) = (op(0), if b == Builtin::Next { 1 } else { -1 });
            Box::new(move |cx| {
                let p = p.get(cx);
                match cx.player(p) {
                    Some(p) => cx.c.step(p as i32, k),
                    None => 0,
                }
            })
        }
        Builtin::Owner => {
            let card = op(0);
            Box::new(move |cx| {
                let k = card.get(cx);
                match cx.card(k) {
                    Some(k) => cx.c.inst_owner[cx.c.card_zone(k) as usize] as i32,
                    None => 0,
                }
            })
        }
        Builtin::Pos => {
            let card = op(0);
            Box::new(move |cx| {
                let k = card.get(cx);
                match cx.card(k) {
                    Some(k) => cx.c.position(k as u16) as i32,
                    None => 0,
                }
            })
        }
        Builtin::Seat => {
            let i = op(0);
            Box::new(move |cx| {
                let i = i.get(cx);
                if i < 0 || i >= cx.c.n as i32 {
                    return cx.fail(Fault::SeatOutOfRange);
                }
                i
            })
        }
        Builtin::Random => {
            let (lo, hi) = (op(0), op(1));
            Box::new(move |cx| {
                let lo = lo.get(cx);
                let hi = hi.get(cx);
                if cx.fault.is_some() {
                    // the tree walker stopped before drawing
                    return 0;
                }
                if hi < lo {
                    return cx.fail(Fault::RandomBounds);
                }
                let drawn = match cx.rng.as_mut() {
                    Some(draws) => draws.range(lo, hi),
                    None => Ok(lo),
                };
                drawn.unwrap_or_else(|f| cx.fail(f))
            })
        }
        Builtin::Order => Box::new(|cx| cx.fail(Fault::OrderAsValue)),
        Builtin::Ray | Builtin::Moves => Box::new(|cx| cx.fail(Fault::RayAsValue)),
        Builtin::Knows => {
            let (p, card) = (op(0), op(1));
            Box::new(move |cx| {
                let p = p.get(cx);
                let Some(p) = cx.player(p) else { return 0 };
                let k = card.get(cx);
                match cx.card(k) {
                    Some(k) => ((cx.c.known[k] >> p) & 1) as i32,
                    None => 0,
                }
            })
        }
        Builtin::InZone => {
            let (card, z) = (op(0), op(1));
            Box::new(move |cx| {
                let k = card.get(cx);
                let Some(k) = cx.card(k) else { return 0 };
                let z = z.get(cx);
                match cx.zone(z) {
                    Some(z) => i32::from(cx.c.card_zone(k) as usize == z),
                    None => 0,
                }
            })
        }
        Builtin::ZoneOf => {
            let card = op(0);
            Box::new(move |cx| {
                let k = card.get(cx);
                match cx.card(k) {
                    Some(k) => cx.c.card_zone(k) as i32,
                    None => 0,
                }
            })
        }
        Builtin::Cell => {
            let (x, y) = (op(0), op(1));
            Box::new(move |cx| {
                let (x, y) = (x.get(cx), y.get(cx));
                match cx.g.tables.boards.first() {
                    Some(b) => at_xy(b, cx.c, x, y),
                    None => cx.fail(Fault::CellNeedsBoard),
                }
            })
        }
        Builtin::XOf | Builtin::YOf => {
            let (z, first) = (op(0), b == Builtin::XOf);
            Box::new(move |cx| {
                let z = z.get(cx);
                cell_xy(cx.g, cx.c, z).map_or(-1, |xy| if first { xy.0 } else { xy.1 })
            })
        }
        Builtin::Shift => {
            let z = op(0);
            let (kx, ky) = (konst(&g.tables, &args[1]), konst(&g.tables, &args[2]));
            match (kx, ky) {
                (Some(dx), Some(dy)) if step_index(dx, dy).is_some() => {
                    // this step's index, found once
                    let s = step_index(dx, dy).unwrap_or_default();
                    Box::new(move |cx| {
                        let z = z.get(cx);
                        shift_at(cx.g, cx.c, z, s, (dx, dy))
                    })
                }
                _ => {
                    let (dx, dy) = (op(1), op(2));
                    Box::new(move |cx| {
                        let z = z.get(cx);
                        let (dx, dy) = (dx.get(cx), dy.get(cx));
                        shift_with(cx.g, cx.c, z, dx, dy)
                    })
                }
            }
        }
        Builtin::Would => super::would::would(op(0), op(1), op(2)),
    }
}

/// Compile an expression used as a collection.
///
/// Long on purpose: one match arm per kind of collection expression.
pub(crate) fn coll(g: &Graph, e: &Expr) -> Col {
    let _root = super::cse::Root::enter(e);
    const EMPTY: Coll = Coll::Range(0, -1);
    match e {
        Expr::ZoneAll(z) => {
            let c = Coll::ZoneAll(*z);
            Box::new(move |_| c)
        }
        Expr::Region(b, r) => {
            let c = Coll::Region(*b, *r);
            Box::new(move |_| c)
        }
        Expr::Players => Box::new(|_| Coll::Players),
        Expr::EnumAll(en) => {
            let c = Coll::Enum(*en);
            Box::new(move |_| c)
        }
        Expr::Call(Builtin::Moves, args) => {
            let [start, pattern, facing, n] = [0, 1, 2, 3].map(|i| arg(g, &args[i]));
            Box::new(move |cx| {
                let s = start.get(cx);
                if s < 0 || board_cell(cx.g, cx.c, s).is_none() {
                    cx.fail(Fault::MovesNotFromCell);
                    return EMPTY;
                }
                Coll::Moves {
                    start: s as u16,
                    pattern: pattern.get(cx).max(0) as u16,
                    facing: facing.get(cx).rem_euclid(4) as u8,
                    n: n.get(cx).clamp(0, 255) as u8,
                }
            })
        }
        Expr::Call(Builtin::Ray, args) => {
            let [start, dx, dy, n] = [0, 1, 2, 3].map(|i| arg(g, &args[i]));
            Box::new(move |cx| {
                let s = start.get(cx);
                if s < 0 || board_cell(cx.g, cx.c, s).is_none() {
                    cx.fail(Fault::RayNotFromCell);
                    return EMPTY;
                }
                let clamp = |v: i32| v.clamp(-64, 64) as i8;
                Coll::Ray {
                    start: s as u16,
                    dx: clamp(dx.get(cx)),
                    dy: clamp(dy.get(cx)),
                    n: n.get(cx).clamp(0, 255) as u8,
                }
            })
        }
        Expr::Call(Builtin::Order, args) => {
            let p = arg(g, &args[0]);
            Box::new(move |cx| {
                let p = p.get(cx);
                match cx.player(p) {
                    Some(p) => Coll::Order(p as i32),
                    None => EMPTY,
                }
            })
        }
        Expr::Bin(BinOp::Range, lo, hi) => {
            let (lo, hi) = (arg(g, lo), arg(g, hi));
            Box::new(move |cx| {
                let lo = lo.get(cx);
                let hi = hi.get(cx);
                if cx.fault.is_some() {
                    return EMPTY;
                }
                Coll::Range(lo, hi)
            })
        }
        other => {
            let z = arg(g, other);
            Box::new(move |cx| {
                let z = z.get(cx);
                match cx.zone(z) {
                    Some(z) => Coll::Zone(z as u16),
                    None => EMPTY,
                }
            })
        }
    }
}

/// Compile an aggregate: the collection walked once, each element bound to
/// `slot`, stopping early where the answer is known or at a fault.
pub(crate) fn aggregate(
    g: &Graph,
    shared: u32,
    kind: AggKind,
    slot: u16,
    coll: &Expr,
    filter: Option<&Expr>,
    body: Option<&Expr>,
) -> Val {
    let slot = slot as usize;
    let items = self::coll(g, coll);
    let filter = filter.map(|f| super::cond::test(g, f));
    let body = body.map(|b| arg(g, b));
    let skip = filter.as_ref().is_some_and(|f| f.needs_cards_in(slot));
    let walk = Walk {
        shared,
        kind,
        slot,
        items,
        body,
        skip,
    };
    match filter {
        Some(f) => f.apply(walk),
        None => walk.with(|_| true),
    }
}

/// An aggregate but its filter, which it takes as a function of its own
/// (`Test::apply`), so each shape of filter has its loop compiled.
struct Walk {
    shared: u32,
    kind: AggKind,
    slot: usize,
    items: Col,
    body: Option<Arg>,
    skip: bool,
}

impl UseTest for Walk {
    type Out = Val;
    fn with<F: Fn(&mut Cx<'_>) -> bool + Send + Sync + 'static>(self, f: F) -> Val {
        let Walk {
            shared,
            kind,
            slot,
            items,
            body,
            skip,
        } = self;
        if skip {
            walk::<true, F>(shared, kind, slot, items, f, body)
        } else {
            walk::<false, F>(shared, kind, slot, items, f, body)
        }
    }
}

/// The aggregate's loop over `items`. With `SKIP_EMPTY` (a filter false
/// for every empty zone instance, `Test::needs_cards_in`), an element that
/// is an empty instance is passed over without binding it or running the
/// filter (a ray or pattern skips it inside its board walk): the filter
/// would read nothing else and give false, so the answer and the faults
/// are the same (the element's slot is read only inside the filter and
/// body, which do not run for it).
///
/// Long on purpose: one closure per family of aggregates (count; any, all,
/// first; sum, min, max). Each is a hot loop, written out whole so that it
/// compiles into one function with the filter and body inlined.
fn walk<const SKIP_EMPTY: bool, F: Fn(&mut Cx<'_>) -> bool + Send + Sync + 'static>(
    shared: u32,
    kind: AggKind,
    slot: usize,
    items: Col,
    filter: F,
    body: Option<Arg>,
) -> Val {
    // does the element pass the filter (bound first)? The walk
    // (`for_each_in::<SKIP_EMPTY>`) gives no empty instance with SKIP_EMPTY.
    let pass = move |cx: &mut Cx<'_>, v: i32| -> bool {
        cx.locals[slot] = v;
        // values shared inside the filter and body are per element
        cx.valid &= !shared;
        filter(cx)
    };
    match kind {
        AggKind::Count => Box::new(move |cx| {
            let items = items(cx);
            if cx.fault.is_some() {
                return 0;
            }
            let (g, c) = (cx.g, cx.c);
            let mut n = 0;
            items.for_each_in::<SKIP_EMPTY>(g, c, |v| {
                n += i32::from(pass(cx, v));
                cx.fault.is_none()
            });
            n
        }),
        AggKind::Any | AggKind::All | AggKind::First => Box::new(move |cx| {
            let items = items(cx);
            if cx.fault.is_some() {
                return 0;
            }
            let (g, c) = (cx.g, cx.c);
            let mut found = -1;
            let all = kind == AggKind::All;
            let done = items.for_each_in::<SKIP_EMPTY>(g, c, |v| {
                let p = pass(cx, v);
                if cx.fault.is_some() {
                    return false;
                }
                if all {
                    return p;
                }
                if p {
                    found = v;
                }
                !p
            });
            match kind {
                AggKind::Any => i32::from(!done),
                AggKind::All => i32::from(done),
                _ => found,
            }
        }),
        AggKind::Sum | AggKind::Min | AggKind::Max => Box::new(move |cx| {
            let items = items(cx);
            if cx.fault.is_some() {
                return 0;
            }
            let (g, c) = (cx.g, cx.c);
            let mut acc: Option<i32> = None;
            items.for_each_in::<SKIP_EMPTY>(g, c, |v| {
                if !pass(cx, v) {
                    return cx.fault.is_none();
                }
                let x = match &body {
                    Some(b) => b.get(cx),
                    None => v,
                };
                acc = Some(match (kind, acc) {
                    (_, None) => x,
                    (AggKind::Sum, Some(a)) => match a.checked_add(x) {
                        Some(s) => s,
                        None => cx.fail(Fault::Overflow),
                    },
                    (AggKind::Min, Some(a)) => a.min(x),
                    (_, Some(a)) => a.max(x),
                });
                cx.fault.is_none()
            });
            acc.unwrap_or(0)
        }),
    }
}
