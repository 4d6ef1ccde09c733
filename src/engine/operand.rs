//! Operands of compiled expressions: the small shapes that are
//! read in place by the closure that uses them instead of being a closure
//! of their own (an indirect call each).
//!
//! An [`Arg`] is a constant, a local or global read, or one of the most
//! frequent reads through a local: a table's value at a local key
//! (`dx[d]`), a card attribute of a local (`c.kind`), the number of cards
//! of a zone in a local (`count(u)`), its top card (`top(u)`) and an
//! attribute of that card (`top(u).side`), a per-card or per-player
//! variable of a local, the zone holding a local card (`zone_of(c)`) and
//! the column or row of a local cell (`x_of(z)`). Anything else is a call of its
//! compiled code ([`Arg::F`]). Each inline form computes exactly what its
//! closure computed: the same value, the same fault, in the same order.
//! Conditions built from these operands are in `cond.rs`.

use super::compile::{Cx, Val, konst, value};
use super::fault::Fault;
use super::geometry::cell_xy;
use crate::graph::Graph;
use crate::hir::{Builtin, Expr};

/// An operand: read in place, or a call of its compiled code.
pub(crate) enum Arg {
    K(i32),
    L(usize),
    G(usize),
    /// A table's values, at the key in a local.
    Tab(Box<[i32]>, usize),
    /// An attribute of the card in a local: (attributes per card, attribute, local).
    Attr(usize, usize, usize),
    /// The number of cards of the zone in a local.
    Size(usize),
    /// The top card of the zone in a local (none when it is empty).
    Top(usize),
    /// An attribute of the top card of the zone in a local.
    TopAttr(usize, usize, usize),
    /// A per-card variable (its first slot) of the card in a local.
    PerCard(usize, usize),
    /// The same for a variable in the byte slots (`width.rs`).
    PerCardByte(usize, usize),
    /// A per-player variable (its first slot) of the player in a local.
    PerPlayer(usize, usize),
    /// The zone instance holding the card in a local.
    ZoneOf(usize),
    /// The column (true) or row of the cell in a local (-1 off a board).
    Xy(bool, usize),
    F(Val),
}

/// The card attribute of `k` (a fault when `k` is no card).
#[inline(always)]
pub(super) fn attr(cx: &mut Cx<'_>, k: i32, na: usize, a: usize) -> i32 {
    match cx.card(k) {
        Some(k) => cx.g.tables.card_attrs[k * na + a],
        None => 0,
    }
}

/// The top card of zone `z` (a fault when `z` is no zone).
#[inline(always)]
fn top(cx: &mut Cx<'_>, z: i32) -> i32 {
    let Some(z) = cx.zone(z) else { return 0 };
    cx.c.zone(z).last().map_or(-1, |x| *x as i32)
}

impl Arg {
    #[inline(always)]
    pub fn get(&self, cx: &mut Cx<'_>) -> i32 {
        match self {
            Arg::K(k) => *k,
            Arg::L(s) => cx.locals[*s],
            Arg::G(v) => cx.c.vars[cx.c.var_base[*v] as usize],
            Arg::Tab(values, s) => {
                let k = cx.locals[*s];
                match values.get(k as usize) {
                    Some(v) => *v,
                    None => cx.fail(Fault::TableKeyNone),
                }
            }
            Arg::Attr(na, a, s) => {
                let k = cx.locals[*s];
                attr(cx, k, *na, *a)
            }
            Arg::Size(s) => {
                let z = cx.locals[*s];
                match cx.zone(z) {
                    Some(z) => cx.c.zone(z).len() as i32,
                    None => 0,
                }
            }
            Arg::Top(s) => {
                let z = cx.locals[*s];
                top(cx, z)
            }
            Arg::TopAttr(na, a, s) => {
                let z = cx.locals[*s];
                let k = top(cx, z);
                attr(cx, k, *na, *a)
            }
            Arg::PerCard(v, s) => {
                let k = cx.locals[*s];
                match cx.card(k) {
                    Some(k) => cx.c.vars[cx.c.var_base[*v] as usize + k],
                    None => 0,
                }
            }
            Arg::PerCardByte(v, s) => {
                let k = cx.locals[*s];
                match cx.card(k) {
                    Some(k) => i32::from(cx.c.bytes[cx.c.var_base[*v] as usize + k]),
                    None => 0,
                }
            }
            Arg::PerPlayer(v, s) => {
                let p = cx.locals[*s];
                match cx.player(p) {
                    Some(p) => cx.c.vars[cx.c.var_base[*v] as usize + p],
                    None => 0,
                }
            }
            Arg::ZoneOf(s) => {
                let k = cx.locals[*s];
                match cx.card(k) {
                    Some(k) => cx.c.card_zone(k) as i32,
                    None => 0,
                }
            }
            Arg::Xy(first, s) => {
                let z = cx.locals[*s];
                cell_xy(cx.g, cx.c, z).map_or(-1, |xy| if *first { xy.0 } else { xy.1 })
            }
            Arg::F(f) => f(cx),
        }
    }
}

/// The local `e` reads, if it is a plain local read.
fn local(e: &Expr) -> Option<usize> {
    match e {
        Expr::Local(s) => Some(*s as usize),
        _ => None,
    }
}

/// The zone local of `top(local)`.
fn top_of_local(e: &Expr) -> Option<usize> {
    match e {
        Expr::Call(Builtin::Top, args) if args.len() == 1 => local(&args[0]),
        _ => None,
    }
}

/// Compile an operand.
pub(crate) fn arg(g: &Graph, e: &Expr) -> Arg {
    if let Some(body) = super::inline::through(g, e) {
        return arg(g, &body);
    }
    let t = &g.tables;
    if let Some(k) = konst(t, e) {
        return Arg::K(k);
    }
    match e {
        Expr::Local(l) => return Arg::L(*l as usize),
        Expr::Global(v) => return Arg::G(*v as usize),
        _ => {}
    }
    if super::cse::plain(e) {
        let na = t.attrs.len();
        match e {
            Expr::Table(tb, key) => {
                if let Some(s) = local(key) {
                    return Arg::Tab(t.tables[*tb as usize].values.clone().into(), s);
                }
            }
            Expr::Attr(a, card) => {
                if let Some(s) = local(card) {
                    return Arg::Attr(na, *a as usize, s);
                }
                if let Some(s) = top_of_local(card).filter(|_| super::cse::plain(card)) {
                    return Arg::TopAttr(na, *a as usize, s);
                }
            }
            Expr::Call(Builtin::Size, args) if args.len() == 1 => {
                if let Some(s) = local(&args[0]) {
                    return Arg::Size(s);
                }
            }
            Expr::Call(Builtin::ZoneOf, args) if args.len() == 1 => {
                if let Some(s) = local(&args[0]) {
                    return Arg::ZoneOf(s);
                }
            }
            Expr::Call(b @ (Builtin::XOf | Builtin::YOf), args) if args.len() == 1 => {
                if let Some(s) = local(&args[0]) {
                    return Arg::Xy(*b == Builtin::XOf, s);
                }
            }
            Expr::PerCard(v, card) => {
                if let Some(s) = local(card) {
                    if g.in_bytes(*v as usize) {
                        return Arg::PerCardByte(*v as usize, s);
                    }
                    return Arg::PerCard(*v as usize, s);
                }
            }
            Expr::PerPlayer(v, p) => {
                if let Some(s) = local(p) {
                    return Arg::PerPlayer(*v as usize, s);
                }
            }
            _ => {
                if let Some(s) = top_of_local(e) {
                    return Arg::Top(s);
                }
            }
        }
    }
    Arg::F(value(g, e))
}
