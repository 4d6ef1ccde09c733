//! Common sub-expressions computed once: within one evaluation of a region
//! of an expression, two structurally equal pure sub-expressions (equal up
//! to the names of the slots they bind themselves: two expansions of the
//! same `fn` with the same argument expressions are equal) share one value.
//!
//! A region is a stretch of the tree in which the locals the expression
//! reads cannot change: the whole expression, the body of a `fn`'s
//! expansion (after its arguments are bound), the filter and body of an
//! aggregate for one element, and the condition of `would(...)` (read
//! against another table). The table cannot change while an expression is
//! evaluated (only `would`'s condition sees another one, and it is a region
//! of its own), so inside one region the same pure expression has one
//! value. A sub-expression belongs to the innermost region around it;
//! occurrences are shared only inside one region.
//!
//! The sharing is lazy, so the order of evaluation, short-circuits and the
//! first fault are those of the tree: each occurrence keeps its own code
//! and a bit in the context ([`Cx::valid`](super::compile::Cx)); the first
//! occurrence reached computes and keeps the value, the others read it.
//! Entering a region clears its bits. An expression that draws (`random`)
//! is never shared. Bits are numbered per compiled expression (at most
//! [`TEMPS`]); a nested compilation shares its outermost one's numbering.
//! This is all decided at load; evaluation only tests and sets bits.

use super::compile::{Cx, Val};
use crate::hir::{Builtin, Expr};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Most shared values per compiled expression.
pub(crate) const TEMPS: usize = 16;

#[derive(Default)]
struct Ctx {
    depth: u32,
    next: u32,
    /// Occurrence (by address) -> its bit.
    temps: HashMap<usize, u8>,
    /// Region root (by address) -> the bits of its shared values.
    regions: HashMap<usize, u32>,
}

thread_local! {
    static CTX: RefCell<Ctx> = RefCell::new(Ctx::default());
}

/// The compilation of one expression: the outermost one analyses the tree.
pub(crate) struct Root;

impl Root {
    pub(crate) fn enter(e: &Expr) -> Root {
        CTX.with(|c| {
            let mut c = c.borrow_mut();
            if c.depth == 0 {
                c.next = 0;
                c.temps.clear();
                c.regions.clear();
                let mut plan = Plan::default();
                plan.region(e, e, true);
                plan.assign(&mut c);
            }
            c.depth += 1;
        });
        Root
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        CTX.with(|c| c.borrow_mut().depth -= 1);
    }
}

/// The bit of `e` if it is a shared occurrence (asked once: the mapping is
/// taken, so the occurrence's own code is compiled plainly).
pub(crate) fn take_temp(e: &Expr) -> Option<u8> {
    CTX.with(|c| c.borrow_mut().temps.remove(&(e as *const Expr as usize)))
}

/// The bits a region rooted at `e` clears on entry (asked once).
pub(crate) fn take_region(e: &Expr) -> u32 {
    CTX.with(|c| {
        c.borrow_mut()
            .regions
            .remove(&(e as *const Expr as usize))
            .unwrap_or(0)
    })
}

/// The bits an aggregate rooted at `e` clears for each element (asked
/// once).
pub(crate) fn take_agg_region(e: &Expr) -> u32 {
    CTX.with(|c| c.borrow_mut().regions.remove(&agg_key(e)).unwrap_or(0))
}

/// An aggregate's per-element region has a key of its own (an address is
/// even, so one more is no expression's).
fn agg_key(e: &Expr) -> usize {
    e as *const Expr as usize | 1
}

/// An occurrence whose value is kept in bit `k` for its region.
pub(crate) fn shared(k: u8, inner: Val) -> Val {
    let (k, bit) = (k as usize, 1u32 << k);
    Box::new(move |cx: &mut Cx<'_>| {
        if cx.valid & bit != 0 {
            return cx.temps[k];
        }
        let v = inner(cx);
        cx.temps[k] = v;
        cx.valid |= bit;
        v
    })
}

/// A region's root: its shared values are cleared on entry.
pub(crate) fn region(mask: u32, inner: Val) -> Val {
    if mask == 0 {
        return inner;
    }
    Box::new(move |cx: &mut Cx<'_>| {
        cx.valid &= !mask;
        inner(cx)
    })
}

/// The analysis: candidates per region, grouped by structure.
#[derive(Default)]
struct Plan<'a> {
    /// (region root, candidates in evaluation order)
    regions: Vec<(usize, Vec<&'a Expr>)>,
}

impl<'a> Plan<'a> {
    /// Walk the region rooted at `root` (whose key is `key`'s address).
    fn region(&mut self, key: &'a Expr, root: &'a Expr, skip_root: bool) {
        let at = self.regions.len();
        self.regions.push((key as *const Expr as usize, Vec::new()));
        if skip_root {
            self.children(root, at);
        } else {
            self.visit(root, at);
        }
    }

    fn visit(&mut self, e: &'a Expr, at: usize) {
        if candidate(e) {
            self.regions[at].1.push(e);
        }
        self.children(e, at);
    }

    fn children(&mut self, e: &'a Expr, at: usize) {
        match e {
            Expr::Bind(args, body) => {
                for (_, x) in args {
                    self.visit(x, at);
                }
                self.region(body, body, true);
            }
            Expr::Agg {
                coll, filter, body, ..
            } => {
                self.visit(coll, at);
                let here = self.regions.len();
                self.regions.push((agg_key(e), Vec::new()));
                for x in [filter, body].into_iter().flatten() {
                    self.visit(x, here);
                }
            }
            Expr::Call(Builtin::Would, args) => {
                for (i, x) in args.iter().enumerate() {
                    if i == 2 {
                        self.region(x, x, true);
                    } else {
                        self.visit(x, at);
                    }
                }
            }
            _ => e.for_each_child(|x| self.visit(x, at)),
        }
    }

    /// Give a bit to each group of two or more equal candidates of a
    /// region, largest expressions first; the inside of a later
    /// occurrence of a group is not shared again.
    fn assign(self, c: &mut Ctx) {
        let mut skip: Vec<usize> = Vec::new();
        for (root, mut cands) in self.regions {
            // larger first, so a whole shared call wins over its parts
            cands.sort_by_key(|e| std::cmp::Reverse(size(e)));
            let mut groups: HashMap<u64, Vec<Vec<&Expr>>> = HashMap::new();
            for e in &cands {
                let h = shape(e);
                let list = groups.entry(h).or_default();
                match list.iter_mut().find(|g| same(g[0], e, &mut Vec::new())) {
                    Some(g) => g.push(e),
                    None => list.push(vec![e]),
                }
            }
            let mut mask = 0u32;
            for e in cands {
                let addr = e as *const Expr as usize;
                if skip.contains(&addr) || c.temps.contains_key(&addr) {
                    continue;
                }
                let h = shape(e);
                let Some(g) = groups
                    .get(&h)
                    .and_then(|l| l.iter().find(|g| g.iter().any(|x| std::ptr::eq(*x, e))))
                else {
                    continue;
                };
                let members: Vec<&Expr> = g
                    .iter()
                    .copied()
                    .filter(|x| !skip.contains(&(*x as *const Expr as usize)))
                    .collect();
                if members.len() < 2 || c.next as usize >= TEMPS {
                    continue;
                }
                let k = c.next as u8;
                c.next += 1;
                mask |= 1 << k;
                for (i, m) in members.iter().enumerate() {
                    c.temps.insert(*m as *const Expr as usize, k);
                    if i > 0 {
                        descendants(m, &mut skip);
                    }
                }
            }
            if mask != 0 {
                *c.regions.entry(root).or_default() |= mask;
            }
        }
    }
}

/// The addresses of every expression strictly inside `e`.
fn descendants(e: &Expr, out: &mut Vec<usize>) {
    e.for_each_child(|x| {
        out.push(x as *const Expr as usize);
        descendants(x, out);
    });
}

fn size(e: &Expr) -> usize {
    let mut n = 1;
    e.for_each_child(|x| n += size(x));
    n
}

/// Worth sharing: an operation (not a leaf nor a collection) that draws
/// nothing.
fn candidate(e: &Expr) -> bool {
    match e {
        Expr::Int(_)
        | Expr::Nothing
        | Expr::Opt(_)
        | Expr::Global(_)
        | Expr::Local(_)
        | Expr::Zone(_, None)
        | Expr::ZoneAll(_)
        | Expr::Region(..)
        | Expr::Players
        | Expr::EnumAll(_)
        | Expr::PlayerCount
        | Expr::Actor
        | Expr::Current => false,
        _ => pure(e) && (size(e) >= MIN_SIZE || loops(e)),
    }
}

/// A sub-expression smaller than this that does not loop costs about what
/// testing for its shared value does: not shared.
const MIN_SIZE: usize = 6;

/// Does `e` loop (an aggregate or `would`)?
fn loops(e: &Expr) -> bool {
    if matches!(e, Expr::Agg { .. } | Expr::Call(Builtin::Would, _)) {
        return true;
    }
    let mut l = false;
    e.for_each_child(|x| l = l || loops(x));
    l
}

fn pure(e: &Expr) -> bool {
    if let Expr::Call(Builtin::Random, _) = e {
        return false;
    }
    let mut ok = true;
    e.for_each_child(|x| ok = ok && pure(x));
    ok
}

/// A hash of the structure, slots left out (so equal expressions up to the
/// slots they bind hash alike).
fn shape(e: &Expr) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    hash_into(e, &mut h);
    h.finish()
}

fn hash_into(e: &Expr, h: &mut impl Hasher) {
    std::mem::discriminant(e).hash(h);
    match e {
        Expr::Int(i) => i.hash(h),
        Expr::Opt(x) | Expr::Global(x) | Expr::ZoneAll(x) | Expr::EnumAll(x) => x.hash(h),
        Expr::PerPlayer(v, _) | Expr::PerCard(v, _) | Expr::Table(v, _) | Expr::Attr(v, _) => {
            v.hash(h)
        }
        Expr::Zone(z, x) => (z, x.is_some()).hash(h),
        Expr::Region(a, b) => (a, b).hash(h),
        Expr::Bin(op, ..) => std::mem::discriminant(op).hash(h),
        Expr::Call(b, args) => (std::mem::discriminant(b), args.len()).hash(h),
        Expr::Bind(args, _) => args.len().hash(h),
        Expr::Agg { kind, .. } => std::mem::discriminant(kind).hash(h),
        _ => {}
    }
    e.for_each_child(|x| hash_into(x, h));
}

/// Structural equality up to the slots bound inside (`pairs`: the slots
/// bound so far on each side, innermost last).
fn same(a: &Expr, b: &Expr, pairs: &mut Vec<(u16, u16)>) -> bool {
    use Expr as E;
    let all = |xs: &[&Expr], ys: &[&Expr], pairs: &mut Vec<(u16, u16)>| {
        xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y, pairs))
    };
    match (a, b) {
        (E::Local(x), E::Local(y)) => match pairs.iter().rev().find(|p| p.0 == *x || p.1 == *y) {
            Some(p) => p.0 == *x && p.1 == *y,
            None => x == y,
        },
        (E::Int(x), E::Int(y)) => x == y,
        (E::Nothing, E::Nothing)
        | (E::Players, E::Players)
        | (E::PlayerCount, E::PlayerCount)
        | (E::Actor, E::Actor)
        | (E::Current, E::Current) => true,
        (E::Opt(x), E::Opt(y))
        | (E::Global(x), E::Global(y))
        | (E::ZoneAll(x), E::ZoneAll(y))
        | (E::EnumAll(x), E::EnumAll(y)) => x == y,
        (E::Region(a1, b1), E::Region(a2, b2)) => a1 == a2 && b1 == b2,
        (E::PerPlayer(v, x), E::PerPlayer(w, y))
        | (E::PerCard(v, x), E::PerCard(w, y))
        | (E::Table(v, x), E::Table(w, y))
        | (E::Attr(v, x), E::Attr(w, y)) => v == w && same(x, y, pairs),
        (E::Zone(z, x), E::Zone(w, y)) => {
            z == w
                && match (x, y) {
                    (None, None) => true,
                    (Some(x), Some(y)) => same(x, y, pairs),
                    _ => false,
                }
        }
        (E::Not(x), E::Not(y)) | (E::Neg(x), E::Neg(y)) => same(x, y, pairs),
        (E::Index(a1, b1), E::Index(a2, b2)) => same(a1, a2, pairs) && same(b1, b2, pairs),
        (E::Bin(o1, a1, b1), E::Bin(o2, a2, b2)) => {
            o1 == o2 && same(a1, a2, pairs) && same(b1, b2, pairs)
        }
        (E::Cond(a1, b1, c1), E::Cond(a2, b2, c2)) => all(&[a1, b1, c1], &[a2, b2, c2], pairs),
        (E::Call(f, xs), E::Call(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y, pairs))
        }
        (E::Bind(xs, b1), E::Bind(ys, b2)) => {
            if xs.len() != ys.len() || !xs.iter().zip(ys).all(|(x, y)| same(&x.1, &y.1, pairs)) {
                return false;
            }
            let mark = pairs.len();
            pairs.extend(xs.iter().zip(ys).map(|(x, y)| (x.0, y.0)));
            let ok = same(b1, b2, pairs);
            pairs.truncate(mark);
            ok
        }
        (
            E::Agg {
                kind: k1,
                slot: s1,
                coll: c1,
                filter: f1,
                body: d1,
            },
            E::Agg {
                kind: k2,
                slot: s2,
                coll: c2,
                filter: f2,
                body: d2,
            },
        ) => {
            if k1 != k2 || !same(c1, c2, pairs) {
                return false;
            }
            pairs.push((*s1, *s2));
            let opt = |x: &Option<Box<Expr>>, y: &Option<Box<Expr>>, p: &mut Vec<(u16, u16)>| match (
                x, y,
            ) {
                (None, None) => true,
                (Some(x), Some(y)) => same(x, y, p),
                _ => false,
            };
            let ok = opt(f1, f2, pairs) && opt(d1, d2, pairs);
            pairs.pop();
            ok
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::{AggKind, BinOp};

    /// An expansion `f(arg)` of `fn f(p) = count(u in players where u == p)`,
    /// its parameter in `p` and its element in `el`.
    fn call(arg: Expr, p: u16, el: u16) -> Expr {
        let body = Expr::Agg {
            kind: AggKind::Count,
            slot: el,
            coll: Box::new(Expr::Players),
            filter: Some(Box::new(Expr::Bin(
                BinOp::Eq,
                Box::new(Expr::Local(el)),
                Box::new(Expr::Local(p)),
            ))),
            body: None,
        };
        Expr::Bind(vec![(p, arg)], Box::new(body))
    }

    #[test]
    fn equal_up_to_the_slots_they_bind() {
        let a = call(Expr::Local(0), 5, 6);
        // another expansion, other slots, the same argument: equal
        assert!(same(&a, &call(Expr::Local(0), 7, 8), &mut Vec::new()));
        assert_eq!(shape(&a), shape(&call(Expr::Local(0), 7, 8)));
        // another argument: not equal
        assert!(!same(&a, &call(Expr::Local(1), 7, 8), &mut Vec::new()));
        // a body reading a free slot where the other reads its parameter
        let free = Expr::Bind(
            vec![(7, Expr::Local(0))],
            Box::new(Expr::Not(Box::new(Expr::Local(2)))),
        );
        let param = Expr::Bind(
            vec![(9, Expr::Local(0))],
            Box::new(Expr::Not(Box::new(Expr::Local(9)))),
        );
        assert!(!same(&free, &param, &mut Vec::new()));
    }

    #[test]
    fn draws_are_never_shared_and_leaves_are_not_worth_it() {
        let draw = Expr::Call(Builtin::Random, vec![Expr::Int(0), Expr::Int(9)]);
        assert!(!candidate(&draw));
        assert!(!candidate(&Expr::Local(3)));
        assert!(candidate(&call(Expr::Local(0), 5, 6)));
    }

    #[test]
    fn two_equal_calls_in_one_region_share_a_bit() {
        let e = Expr::Bin(
            BinOp::Add,
            Box::new(call(Expr::Local(0), 5, 6)),
            Box::new(call(Expr::Local(0), 7, 8)),
        );
        let root = Root::enter(&e);
        let Expr::Bin(_, a, b) = &e else {
            unreachable!()
        };
        let (ka, kb) = (take_temp(a), take_temp(b));
        assert!(ka.is_some());
        assert_eq!(ka, kb);
        assert_eq!(take_region(&e), 1 << ka.unwrap_or(0));
        drop(root);
    }
}
