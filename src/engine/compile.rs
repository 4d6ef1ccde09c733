//! The expression compiler: a resolved [`Expr`] becomes a tree of closures
//! built once, at load (see `program.rs`). Each closure returns the plain
//! `i32` value; a fault (a card that is none, a division by zero) is
//! recorded in the context ([`Cx::fail`]) and the value returned is a
//! harmless 0, so operations that cannot fail carry no `Result`: the caller
//! looks at [`Cx::fault`] once, at the end. Loops stop at the first fault,
//! and the first fault is the one reported, as the tree walker did.
//!
//! At compile time: table lookups with a constant key, operators on
//! constants and conditions with a constant test are folded; comparisons
//! and arithmetic with a constant or a local operand get their own closure.
//! Builtins, collections and aggregates are in `compile_call.rs`.

use super::chance::Draws;
use super::coll::Coll;
use super::fault::Fault;
use super::table::Core;
use crate::graph::Graph;
use crate::hir::{Expr, Tables};
use crate::syntax::ast::BinOp;

/// A compiled value.
pub(crate) type Val = Box<dyn Fn(&mut Cx<'_>) -> i32 + Send + Sync>;
/// A compiled collection.
pub(crate) type Col = Box<dyn Fn(&mut Cx<'_>) -> Coll + Send + Sync>;

/// What compiled code runs against: the game, the table, the frame's
/// locals, the generator (none while listing moves) and the first fault.
pub struct Cx<'a> {
    pub g: &'a Graph,
    pub c: &'a Core,
    pub locals: &'a mut [i32],
    pub rng: Option<Draws<'a>>,
    pub fault: Option<Fault>,
    /// The scope of remembered function values (`memo.rs`); 0 until a
    /// remembered function first asks for it.
    pub epoch: u64,
    /// Values shared by equal sub-expressions (`cse.rs`), and which of
    /// them are computed in their current region.
    pub temps: [i32; super::cse::TEMPS],
    pub valid: u32,
}

impl Cx<'_> {
    /// Record a fault (the first one stays) and give the placeholder value.
    #[cold]
    #[inline(never)]
    pub fn fail(&mut self, f: Fault) -> i32 {
        if self.fault.is_none() {
            self.fault = Some(f);
        }
        0
    }

    /// `v` if it is a player, else a fault.
    #[inline]
    pub fn player(&mut self, v: i32) -> Option<usize> {
        if v < 0 || v >= self.c.n as i32 {
            self.fail(Fault::NoPlayer);
            return None;
        }
        Some(v as usize)
    }

    /// `v` if it is a card, else a fault.
    #[inline]
    pub fn card(&mut self, v: i32) -> Option<usize> {
        if v < 0 || v as usize >= self.c.card_count() {
            self.fail(Fault::NoCard);
            return None;
        }
        Some(v as usize)
    }

    /// `v` if it is a zone instance, else a fault.
    #[inline]
    pub fn zone(&mut self, v: i32) -> Option<usize> {
        if v < 0 || v as usize >= self.c.insts() {
            self.fail(Fault::NoZone);
            return None;
        }
        Some(v as usize)
    }
}

pub(crate) use super::operand::{Arg, arg};

/// The value of an expression known at load, if it is one (and cannot fault).
pub(crate) fn konst(t: &Tables, e: &Expr) -> Option<i32> {
    Some(match e {
        Expr::Int(i) => *i,
        Expr::Nothing => -1,
        Expr::Table(tb, key) => {
            let k = konst(t, key)?;
            *t.tables[*tb as usize]
                .values
                .get(usize::try_from(k).ok()?)?
        }
        Expr::Not(x) => i32::from(konst(t, x)? == 0),
        Expr::Neg(x) => konst(t, x)?.checked_neg()?,
        Expr::Cond(c, a, b) => {
            if konst(t, c)? != 0 {
                konst(t, a)?
            } else {
                konst(t, b)?
            }
        }
        Expr::Bin(op, l, r) => {
            let (a, b) = (konst(t, l)?, konst(t, r)?);
            match op {
                BinOp::Eq => i32::from(a == b),
                BinOp::Ne => i32::from(a != b),
                BinOp::Lt => i32::from(a < b),
                BinOp::Le => i32::from(a <= b),
                BinOp::Gt => i32::from(a > b),
                BinOp::Ge => i32::from(a >= b),
                BinOp::And => i32::from(a != 0 && b != 0),
                BinOp::Or => i32::from(a != 0 || b != 0),
                BinOp::Add => a.checked_add(b)?,
                BinOp::Sub => a.checked_sub(b)?,
                BinOp::Mul => a.checked_mul(b)?,
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// Compile an expression used as a value.
///
/// Long on purpose: one match arm per kind of expression, each a few lines
/// that hand over to a helper; splitting it would scatter the dispatch.
pub(crate) fn value(g: &Graph, e: &Expr) -> Val {
    let _root = super::cse::Root::enter(e);
    if let Some(k) = super::cse::take_temp(e) {
        return super::cse::shared(k, value(g, e));
    }
    let mask = super::cse::take_region(e);
    super::cse::region(mask, value_plain(g, e))
}

/// [`value`] without the sharing of common sub-expressions around it.
fn value_plain(g: &Graph, e: &Expr) -> Val {
    let t = &g.tables;
    if let Some(k) = konst(t, e) {
        return Box::new(move |_| k);
    }
    match e {
        Expr::Opt(o) => {
            let o = *o as usize;
            Box::new(move |cx| cx.c.opts[o])
        }
        Expr::Global(v) => {
            let v = *v as usize;
            Box::new(move |cx| cx.c.vars[cx.c.var_base[v] as usize])
        }
        Expr::Local(l) => {
            let l = *l as usize;
            Box::new(move |cx| cx.locals[l])
        }
        Expr::PerPlayer(v, p) => {
            let (v, p) = (*v as usize, arg(g, p));
            Box::new(move |cx| {
                let p = p.get(cx);
                match cx.player(p) {
                    Some(p) => cx.c.vars[cx.c.var_base[v] as usize + p],
                    None => 0,
                }
            })
        }
        Expr::PerCard(v, card) if g.in_bytes(*v as usize) => {
            let (v, card) = (*v as usize, arg(g, card));
            Box::new(move |cx| {
                let k = card.get(cx);
                match cx.card(k) {
                    Some(k) => i32::from(cx.c.bytes[cx.c.var_base[v] as usize + k]),
                    None => 0,
                }
            })
        }
        Expr::PerCard(v, card) => {
            let (v, card) = (*v as usize, arg(g, card));
            Box::new(move |cx| {
                let k = card.get(cx);
                match cx.card(k) {
                    Some(k) => cx.c.vars[cx.c.var_base[v] as usize + k],
                    None => 0,
                }
            })
        }
        Expr::Table(tb, key) => {
            let values = t.tables[*tb as usize].values.clone();
            let key = arg(g, key);
            Box::new(move |cx| {
                let k = key.get(cx);
                match values.get(k as usize) {
                    Some(v) => *v,
                    None => cx.fail(Fault::TableKeyNone),
                }
            })
        }
        Expr::Attr(a, card) => {
            let (na, a) = (t.attrs.len(), *a as usize);
            let card = arg(g, card);
            Box::new(move |cx| {
                let k = card.get(cx);
                match cx.card(k) {
                    Some(k) => cx.g.tables.card_attrs[k * na + a],
                    None => 0,
                }
            })
        }
        Expr::Zone(z, None) => {
            let z = *z as usize;
            Box::new(move |cx| cx.c.zone_base[z] as i32)
        }
        Expr::Zone(z, Some(p)) => {
            let (z, p) = (*z as usize, arg(g, p));
            Box::new(move |cx| {
                let p = p.get(cx);
                match cx.player(p) {
                    Some(p) => cx.c.zone_base[z] as i32 + p as i32,
                    None => 0,
                }
            })
        }
        Expr::ZoneAll(_) | Expr::Players | Expr::EnumAll(_) | Expr::Region(..) => {
            Box::new(|cx| cx.fail(Fault::CollectionAsValue))
        }
        Expr::PlayerCount => Box::new(|cx| cx.c.n as i32),
        Expr::Actor => Box::new(|cx| cx.c.actor),
        Expr::Current => Box::new(|cx| cx.c.current),
        Expr::Index(z, i) => {
            let (z, i) = (arg(g, z), arg(g, i));
            Box::new(move |cx| {
                let z = z.get(cx);
                let Some(z) = cx.zone(z) else { return 0 };
                let i = i.get(cx);
                let zone = cx.c.zone(z);
                if i < 0 || i as usize >= zone.len() {
                    -1
                } else {
                    zone[i as usize] as i32
                }
            })
        }
        Expr::Not(_) => match super::cond::test(g, e) {
            // a negated chain or comparison is a test; a plain operand is read
            super::cond::Test::One(super::cond::Atom::IsNot(x)) => {
                Box::new(move |cx| i32::from(x.get(cx) == 0))
            }
            super::cond::Test::One(super::cond::Atom::IsNotF(f)) => {
                Box::new(move |cx| i32::from(f(cx) == 0))
            }
            t => t.apply(Truth),
        },
        Expr::Neg(x) => {
            let x = arg(g, x);
            Box::new(move |cx| match x.get(cx).checked_neg() {
                Some(v) => v,
                None => cx.fail(Fault::Overflow),
            })
        }
        Expr::Bind(binds_e, body_e) => {
            if let Some(body) = super::inline::through(g, e) {
                return value(g, &body);
            }
            // parameters whose arguments are reads are read in place
            let copy = super::inline::substitute(g, binds_e, body_e);
            let replaced = |i: usize| copy.as_ref().is_some_and(|(r, _)| r[i]);
            let body_x: &Expr = copy.as_ref().map_or(&**body_e, |(_, b)| &**b);
            let whole = konst(t, body_e).is_none() && !matches!(**body_e, Expr::Bind(..));
            if whole && super::memo::worth(binds_e, body_e) {
                // every argument is the key, the bound ones first
                let (mut binds, mut reads) = (Vec::new(), Vec::new());
                for (i, (s, v)) in binds_e.iter().enumerate() {
                    let to = if replaced(i) { &mut reads } else { &mut binds };
                    to.push((*s as usize, arg(g, v)));
                }
                let bound = binds.len();
                binds.append(&mut reads);
                let v = remembered(binds, bound, body_parts(g, body_x));
                if let Some((_, c)) = &copy {
                    super::cse::forget(c);
                }
                return v;
            }
            let binds: Vec<(usize, Arg)> = binds_e
                .iter()
                .enumerate()
                .filter(|(i, _)| !replaced(*i))
                .map(|(_, (s, v))| (*s as usize, arg(g, v)))
                .collect();
            let body = arg(g, body_x);
            if let Some((_, c)) = &copy {
                super::cse::forget(c);
            }
            if binds.is_empty() {
                return match body {
                    Arg::F(f) => f,
                    body => Box::new(move |cx| body.get(cx)),
                };
            }
            if binds.len() == 1 {
                let (s, v) = binds.into_iter().next().expect("one binding");
                return Box::new(move |cx| {
                    let x = v.get(cx);
                    cx.locals[s] = x;
                    body.get(cx)
                });
            }
            Box::new(move |cx| {
                for (s, v) in &binds {
                    let x = v.get(cx);
                    cx.locals[*s] = x;
                }
                body.get(cx)
            })
        }
        Expr::Cond(..) => cond(g, e),
        Expr::Bin(op @ (BinOp::And | BinOp::Or), ..) => {
            super::cond::chain_test(g, *op, e).apply(Truth)
        }
        Expr::Bin(op, l, r) => binary(g, *op, l, r),
        Expr::Call(b, args) => super::compile_call::call(g, *b, args),
        Expr::Agg {
            kind,
            slot,
            coll,
            filter,
            body,
        } => super::compile_call::aggregate(
            g,
            super::cse::take_agg_region(e),
            *kind,
            *slot,
            coll,
            filter.as_deref(),
            body.as_deref(),
        ),
        Expr::Int(_) | Expr::Nothing => unreachable!("folded above"),
    }
}

/// An `if` and the `else if`s that follow it (while each has nothing of
/// its own to share): the tests tried in order, the first that holds
/// giving its arm's value, else the last `else`.
fn cond(g: &Graph, e: &Expr) -> Val {
    use super::cond::test;
    let mut arms = Vec::new();
    let mut cur = e;
    while let Expr::Cond(c, a, b) = cur {
        arms.push((test(g, c), arg(g, a)));
        cur = b;
        if !super::cse::plain(cur) || konst(&g.tables, cur).is_some() {
            break;
        }
    }
    let other = arg(g, cur);
    if arms.len() == 1 {
        let (t, a) = arms.pop().expect("one arm");
        return t.apply(Choice(a, other));
    }
    let arms = match super::switch::switch(arms, other) {
        Ok(v) => return v,
        Err(back) => back,
    };
    let other = arms.1;
    let arms = arms.0.into_boxed_slice();
    Box::new(move |cx| {
        for (t, a) in &arms {
            if t.eval(cx) {
                return a.get(cx);
            }
        }
        other.get(cx)
    })
}

/// An `and`/`or` chain's value: 1 where its test holds.
struct Truth;

impl super::cond::UseTest for Truth {
    type Out = Val;
    fn with<F: Fn(&mut Cx<'_>) -> bool + Send + Sync + 'static>(self, f: F) -> Val {
        Box::new(move |cx| i32::from(f(cx)))
    }
}

/// An `if` with one test: its arm's value where the test holds, else the
/// other.
struct Choice(Arg, Arg);

impl super::cond::UseTest for Choice {
    type Out = Val;
    fn with<F: Fn(&mut Cx<'_>) -> bool + Send + Sync + 'static>(self, f: F) -> Val {
        let Choice(a, other) = self;
        Box::new(move |cx| if f(cx) { a.get(cx) } else { other.get(cx) })
    }
}

/// A looping body's code as [`value`] gives it, the clearing of its
/// region's shared values ([`super::cse::region`]) returned apart (its
/// mask) for the caller to do in its own closure.
fn body_parts(g: &Graph, e: &Expr) -> (u32, Val) {
    let _root = super::cse::Root::enter(e);
    if let Some(k) = super::cse::take_temp(e) {
        return (0, super::cse::shared(k, value(g, e)));
    }
    (super::cse::take_region(e), value_plain(g, e))
}

/// A user function's expansion whose value is remembered per argument
/// values within a scope (see `memo.rs`): one closure per number of
/// parameters, so the binding is unrolled, and the body's region cleared
/// here rather than in a closure of its own. Every argument is part of the
/// key; only the first `bound` are written into their slots (the others
/// are reads the body reads in place, `inline::substitute`). Once its
/// watch has switched remembering off, a call costs the bound arguments
/// and the body.
fn remembered(binds: Vec<(usize, Arg)>, bound: usize, (mask, body): (u32, Val)) -> Val {
    macro_rules! by_count {
        ($($n:literal)*) => {
            match binds.len() {
                $($n => {
                    let b: [(usize, Arg); $n] = match binds.try_into() {
                        Ok(b) => b,
                        Err(_) => unreachable!("{} bindings", $n),
                    };
                    remembered_n(b, bound, mask, body)
                })*
                n => unreachable!("a remembered function has 1 to {} parameters, not {n}",
                    super::memo::MAX_ARGS),
            }
        };
    }
    // one arm per count `memo::worth` lets through (1 to MAX_ARGS)
    const { assert!(super::memo::MAX_ARGS == 4) };
    by_count!(1 2 3 4)
}

/// [`remembered`] with `N` parameters.
fn remembered_n<const N: usize>(
    binds: [(usize, Arg); N],
    bound: usize,
    mask: u32,
    body: Val,
) -> Val {
    use super::memo::{MAX_ARGS, Watch, get, put, site};
    const { assert!(N <= MAX_ARGS) };
    let site = site();
    let watch = Watch::new();
    let bound = bound.min(N);
    Box::new(move |cx| {
        if watch.off() {
            for (s, v) in &binds[..bound] {
                let x = v.get(cx);
                cx.locals[*s] = x;
            }
            cx.valid &= !mask;
            return body(cx);
        }
        let mut key = [0i32; MAX_ARGS];
        for (i, (s, v)) in binds.iter().enumerate() {
            let x = v.get(cx);
            key[i] = x;
            if i < bound {
                cx.locals[*s] = x;
            }
        }
        if cx.fault.is_some() {
            return 0;
        }
        if cx.epoch == 0 {
            cx.epoch = super::memo::epoch_for(cx.c);
        }
        if let Some(v) = get(cx.epoch, site, &key) {
            watch.saw(true);
            return v;
        }
        watch.saw(false);
        cx.valid &= !mask;
        let v = body(cx);
        if cx.fault.is_none() {
            put(cx.epoch, site, key, v);
        }
        v
    })
}

/// A comparison: its own closure for a local or constant operand.
macro_rules! compare {
    ($g:expr, $t:expr, $l:expr, $r:expr, $op:tt) => {{
        match ($l, konst($t, $r)) {
            (Expr::Local(s), Some(k)) => {
                let s = *s as usize;
                Box::new(move |cx: &mut Cx<'_>| i32::from(cx.locals[s] $op k)) as Val
            }
            (l, Some(k)) => {
                let l = arg($g, l);
                Box::new(move |cx: &mut Cx<'_>| i32::from(l.get(cx) $op k)) as Val
            }
            (l, None) => {
                let (l, r) = (arg($g, l), arg($g, $r));
                Box::new(move |cx: &mut Cx<'_>| {
                    let a = l.get(cx);
                    i32::from(a $op r.get(cx))
                }) as Val
            }
        }
    }};
}

/// Checked arithmetic: an overflow is a fault.
macro_rules! arith {
    ($g:expr, $t:expr, $l:expr, $r:expr, $method:ident) => {{
        match konst($t, $r) {
            Some(k) => {
                let l = arg($g, $l);
                Box::new(move |cx: &mut Cx<'_>| match l.get(cx).$method(k) {
                    Some(v) => v,
                    None => cx.fail(Fault::Overflow),
                }) as Val
            }
            None => {
                let (l, r) = (arg($g, $l), arg($g, $r));
                Box::new(move |cx: &mut Cx<'_>| {
                    let a = l.get(cx);
                    match a.$method(r.get(cx)) {
                        Some(v) => v,
                        None => cx.fail(Fault::Overflow),
                    }
                }) as Val
            }
        }
    }};
}

fn binary(g: &Graph, op: BinOp, l: &Expr, r: &Expr) -> Val {
    let t = &g.tables;
    match op {
        BinOp::Eq => compare!(g, t, l, r, ==),
        BinOp::Ne => compare!(g, t, l, r, !=),
        BinOp::Lt => compare!(g, t, l, r, <),
        BinOp::Le => compare!(g, t, l, r, <=),
        BinOp::Gt => compare!(g, t, l, r, >),
        BinOp::Ge => compare!(g, t, l, r, >=),
        BinOp::Add => arith!(g, t, l, r, checked_add),
        BinOp::Sub => arith!(g, t, l, r, checked_sub),
        BinOp::Mul => arith!(g, t, l, r, checked_mul),
        BinOp::And | BinOp::Or => unreachable!("chains are compiled by `value_plain`"),
        BinOp::In => {
            let (l, rc) = (arg(g, l), super::compile_call::coll(g, r));
            Box::new(move |cx| {
                let v = l.get(cx);
                let coll = rc(cx);
                if cx.fault.is_some() {
                    return 0;
                }
                i32::from(coll.contains(cx.g, cx.c, v))
            })
        }
        BinOp::Range => Box::new(|cx| cx.fail(Fault::RangeAsValue)),
        BinOp::Div => {
            let (l, r) = (arg(g, l), arg(g, r));
            Box::new(move |cx| {
                let a = l.get(cx);
                let b = r.get(cx);
                if b == 0 {
                    return cx.fail(Fault::DivisionByZero);
                }
                match a.checked_div(b) {
                    Some(v) => v,
                    None => cx.fail(Fault::Overflow),
                }
            })
        }
        BinOp::Mod => {
            let (l, r) = (arg(g, l), arg(g, r));
            Box::new(move |cx| {
                let a = l.get(cx);
                let b = r.get(cx);
                if b == 0 {
                    return cx.fail(Fault::DivisionByZero);
                }
                // i32::MIN mod -1 is 0 mathematically; rem_euclid would
                // overflow on it, so it is answered here
                if b == -1 { 0 } else { a.rem_euclid(b) }
            })
        }
    }
}
