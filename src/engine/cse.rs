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
use std::collections::{HashMap, HashSet};
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
                BUDGET.with(|b| b.set(COMPARE_BUDGET));
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

/// Whether `e` has nothing of its own to do for the sharing: it is no
/// shared occurrence and no region root that clears bits. Such a node may
/// be fused into the code that uses it (`operand.rs`) instead of being
/// compiled by `compile::value`.
pub(crate) fn plain(e: &Expr) -> bool {
    CTX.with(|c| {
        let c = c.borrow();
        let key = e as *const Expr as usize;
        !c.temps.contains_key(&key) && c.regions.get(&key).is_none_or(|m| *m == 0)
    })
}

/// Is `e` no shared occurrence (its value computed where it stands)?
pub(crate) fn unshared(e: &Expr) -> bool {
    CTX.with(|c| !c.borrow().temps.contains_key(&(e as *const Expr as usize)))
}

/// Move the marks of `from` and of every node inside it to the same
/// node of `to`, a copy of it whose leaves may differ
/// (`inline::substitute`).
pub(crate) fn carry(from: &Expr, to: &Expr) {
    CTX.with(|c| {
        let c = &mut *c.borrow_mut();
        let mut stack = vec![(from, to)];
        while let Some((from, to)) = stack.pop() {
            if c.temps.is_empty() && c.regions.is_empty() {
                return;
            }
            let (a, b) = (from as *const Expr as usize, to as *const Expr as usize);
            if let Some(k) = c.temps.remove(&a) {
                c.temps.insert(b, k);
            }
            for (a, b) in [(a, b), (agg_key(from), agg_key(to))] {
                if let Some(m) = c.regions.remove(&a) {
                    c.regions.insert(b, m);
                }
            }
            // the children of both, paired in order (the same shape)
            let start = stack.len();
            from.for_each_child(|x| stack.push((x, x)));
            let mut i = start;
            to.for_each_child(|y| {
                if let Some(p) = stack.get_mut(i) {
                    p.1 = y;
                }
                i += 1;
            });
            debug_assert_eq!(i, stack.len());
        }
    });
}

/// Drop the marks left on `e` and the nodes inside it: a copy compiled
/// and about to be dropped, whose addresses may be reused.
pub(crate) fn forget(e: &Expr) {
    CTX.with(|c| {
        let c = &mut *c.borrow_mut();
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            if c.temps.is_empty() && c.regions.is_empty() {
                return;
            }
            c.temps.remove(&(e as *const Expr as usize));
            c.regions.remove(&(e as *const Expr as usize));
            c.regions.remove(&agg_key(e));
            e.for_each_child(|x| stack.push(x));
        }
    });
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

/// Most candidates looked at per region, and groups compared per
/// structure hash: the analysis stays linear on any input.
const MAX_CANDIDATES: usize = 4096;
const MAX_BUCKET: usize = 8;

/// What the walk knows of a sub-expression: its size, whether it draws
/// nothing, whether it loops.
#[derive(Clone, Copy)]
struct Facts {
    size: usize,
    pure: bool,
    loops: bool,
    /// The structure's hash, slots left out (see [`tag`]).
    hash: u64,
}

/// A candidate: its size, its structure's hash, the expression.
type Cand<'a> = (usize, u64, &'a Expr);

/// The analysis: candidates per region, grouped by structure.
#[derive(Default)]
struct Plan<'a> {
    /// (region key, its candidates)
    regions: Vec<(usize, Vec<Cand<'a>>)>,
}

impl<'a> Plan<'a> {
    /// Walk the region rooted at `root` (keyed by `key`'s address).
    fn region(&mut self, key: &'a Expr, root: &'a Expr, skip_root: bool) -> Facts {
        let at = self.regions.len();
        self.regions.push((key as *const Expr as usize, Vec::new()));
        if skip_root {
            self.children(root, at)
        } else {
            self.visit(root, at)
        }
    }

    fn visit(&mut self, e: &'a Expr, at: usize) -> Facts {
        let f = self.children(e, at);
        if candidate(e, f) && self.regions[at].1.len() < MAX_CANDIDATES {
            self.regions[at].1.push((f.size, f.hash, e));
        }
        f
    }

    /// The children of `e` walked (each in its region); the facts of `e`.
    fn children(&mut self, e: &'a Expr, at: usize) -> Facts {
        let mut f = Facts {
            size: 1,
            pure: !matches!(e, Expr::Call(Builtin::Random, _)),
            loops: matches!(e, Expr::Agg { .. } | Expr::Call(Builtin::Would, _)),
            hash: tag(e),
        };
        let add = |f: &mut Facts, x: Facts| {
            f.hash = (f.hash.rotate_left(5) ^ x.hash).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            f.size += x.size;
            f.pure &= x.pure;
            f.loops |= x.loops;
        };
        match e {
            Expr::Bind(args, body) => {
                for (_, x) in args {
                    let x = self.visit(x, at);
                    add(&mut f, x);
                }
                let x = self.region(body, body, true);
                add(&mut f, x);
            }
            Expr::Agg {
                coll, filter, body, ..
            } => {
                let x = self.visit(coll, at);
                add(&mut f, x);
                let here = self.regions.len();
                self.regions.push((agg_key(e), Vec::new()));
                for x in [filter, body].into_iter().flatten() {
                    let x = self.visit(x, here);
                    add(&mut f, x);
                }
            }
            Expr::Call(Builtin::Would, args) => {
                for (i, x) in args.iter().enumerate() {
                    let x = if i == 2 {
                        self.region(x, x, true)
                    } else {
                        self.visit(x, at)
                    };
                    add(&mut f, x);
                }
            }
            _ => {
                let mut kids = Vec::new();
                e.for_each_child(|x| kids.push(x));
                for x in kids {
                    let x = self.visit(x, at);
                    add(&mut f, x);
                }
            }
        }
        f
    }

    /// Give a bit to each group of two or more equal candidates of a
    /// region, largest expressions first; the inside of a later
    /// occurrence of a group is not shared again.
    fn assign(self, c: &mut Ctx) {
        let mut skip: HashSet<usize> = HashSet::new();
        for (root, mut cands) in self.regions {
            // larger first, so a whole shared call wins over its parts
            cands.sort_by_key(|(n, _, _)| std::cmp::Reverse(*n));
            // structure hash -> groups (indexes into `cands`)
            let mut groups: HashMap<u64, Vec<Vec<usize>>> = HashMap::new();
            let mut group_of = vec![(0u64, usize::MAX); cands.len()];
            for (i, (_, h, e)) in cands.iter().enumerate() {
                let h = *h;
                let list = groups.entry(h).or_default();
                let found = list
                    .iter()
                    .take(MAX_BUCKET)
                    .position(|g| same(cands[g[0]].2, e, &mut Vec::new()));
                let gi = match found {
                    Some(gi) => gi,
                    None if list.len() < MAX_BUCKET => {
                        list.push(Vec::new());
                        list.len() - 1
                    }
                    None => continue,
                };
                list[gi].push(i);
                group_of[i] = (h, gi);
            }
            let mut mask = 0u32;
            for i in 0..cands.len() {
                let (h, gi) = group_of[i];
                let addr = cands[i].2 as *const Expr as usize;
                if gi == usize::MAX || skip.contains(&addr) || c.temps.contains_key(&addr) {
                    continue;
                }
                let members: Vec<&Expr> = groups[&h][gi]
                    .iter()
                    .map(|j| cands[*j].2)
                    .filter(|x| !skip.contains(&(*x as *const Expr as usize)))
                    .collect();
                if members.len() < 2 || c.next as usize >= TEMPS {
                    continue;
                }
                let k = c.next as u8;
                c.next += 1;
                mask |= 1 << k;
                for (n, m) in members.iter().enumerate() {
                    c.temps.insert(*m as *const Expr as usize, k);
                    if n > 0 {
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
fn descendants(e: &Expr, out: &mut HashSet<usize>) {
    e.for_each_child(|x| {
        if out.insert(x as *const Expr as usize) {
            descendants(x, out);
        }
    });
}

/// Worth sharing: an operation (not a leaf nor a collection) that draws
/// nothing, large enough or looping.
fn candidate(e: &Expr, f: Facts) -> bool {
    !e.is_leaf() && f.pure && (f.size >= MIN_SIZE || f.loops)
}

/// A sub-expression smaller than this that does not loop costs about what
/// testing for its shared value does: not shared.
const MIN_SIZE: usize = 6;

/// A hash of one node, its slots left out (so equal expressions up to the
/// slots they bind hash alike); the children are folded in by the walk.
fn tag(e: &Expr) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::mem::discriminant(e).hash(&mut h);
    match e {
        Expr::Int(i) => i.hash(&mut h),
        Expr::Opt(x) | Expr::Global(x) | Expr::ZoneAll(x) | Expr::EnumAll(x) => x.hash(&mut h),
        Expr::PerPlayer(v, _) | Expr::PerCard(v, _) | Expr::Table(v, _) | Expr::Attr(v, _) => {
            v.hash(&mut h)
        }
        Expr::Zone(z, x) => (z, x.is_some()).hash(&mut h),
        Expr::Region(a, b) => (a, b).hash(&mut h),
        Expr::Bin(op, ..) => std::mem::discriminant(op).hash(&mut h),
        Expr::Call(b, args) => (std::mem::discriminant(b), args.len()).hash(&mut h),
        Expr::Bind(args, _) => args.len().hash(&mut h),
        Expr::Agg {
            kind, filter, body, ..
        } => (
            std::mem::discriminant(kind),
            filter.is_some(),
            body.is_some(),
        )
            .hash(&mut h),
        _ => {}
    }
    h.finish()
}

/// Nodes [`same`] may still visit in this analysis: comparing stays
/// bounded on any input (past it, nothing more is found equal).
const COMPARE_BUDGET: u64 = 1 << 21;

thread_local! {
    static BUDGET: std::cell::Cell<u64> = const { std::cell::Cell::new(COMPARE_BUDGET) };
}

/// Structural equality up to the slots bound inside (`pairs`: the slots
/// bound so far on each side, innermost last).
fn same(a: &Expr, b: &Expr, pairs: &mut Vec<(u16, u16)>) -> bool {
    use Expr as E;
    let spent = BUDGET.with(|b| {
        let left = b.get();
        b.set(left.saturating_sub(1));
        left == 0
    });
    if spent {
        return false;
    }
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

    fn facts(e: &Expr) -> Facts {
        let mut p = Plan::default();
        p.regions.push((0, Vec::new()));
        p.visit(e, 0)
    }

    #[test]
    fn equal_up_to_the_slots_they_bind() {
        let a = call(Expr::Local(0), 5, 6);
        // another expansion, other slots, the same argument: equal
        assert!(same(&a, &call(Expr::Local(0), 7, 8), &mut Vec::new()));
        assert_eq!(facts(&a).hash, facts(&call(Expr::Local(0), 7, 8)).hash);
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
        assert!(!candidate(&draw, facts(&draw)));
        assert!(!candidate(&Expr::Local(3), facts(&Expr::Local(3))));
        let c = call(Expr::Local(0), 5, 6);
        assert!(candidate(&c, facts(&c)));
        // a call that draws inside is not pure
        let d = call(draw, 5, 6);
        assert!(!candidate(&d, facts(&d)));
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
