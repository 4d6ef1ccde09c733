//! Conditions of compiled expressions, read in place by their user.
//!
//! A [`Test`] is a condition: a comparison of two operands ([`Arg`],
//! `operand.rs`), an operand's truth, or a chain of them joined by one of
//! `and`/`or` (a chain is evaluated left to right, stopping where the
//! tree's short-circuit stops). Conditions of `if`, aggregate filters,
//! `not` and `and`/`or` values use it. A node is fused into its user only
//! when the sharing of common sub-expressions (`cse.rs`) gives it nothing
//! of its own to do.

use super::compile::{Cx, Val, konst};
use super::operand::{Arg, arg, attr};
use crate::graph::Graph;
use crate::hir::Expr;
use crate::syntax::ast::BinOp;

/// A comparison operator.
#[derive(Clone, Copy)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn of(op: BinOp) -> Option<Cmp> {
        Some(match op {
            BinOp::Eq => Cmp::Eq,
            BinOp::Ne => Cmp::Ne,
            BinOp::Lt => Cmp::Lt,
            BinOp::Le => Cmp::Le,
            BinOp::Gt => Cmp::Gt,
            BinOp::Ge => Cmp::Ge,
            _ => return None,
        })
    }
}

impl Cmp {
    /// The operator of the negated comparison.
    fn not(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Le => Cmp::Gt,
            Cmp::Gt => Cmp::Le,
            Cmp::Ge => Cmp::Lt,
        }
    }

    #[inline(always)]
    fn holds(self, a: i32, b: i32) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// The values a comparison with a constant accepts: `lo..=lo + span`, or
/// (`out`) every value outside it. Tested with one subtraction and one
/// unsigned comparison, whatever the operator.
#[derive(Clone, Copy)]
pub(crate) struct Band {
    lo: i32,
    span: u32,
    out: bool,
}

impl Band {
    /// The band of `v op k` (none for `v < i32::MIN`, `v > i32::MAX`).
    fn of(op: Cmp, k: i32) -> Option<Band> {
        let (lo, hi, out) = match op {
            Cmp::Eq => (k, k, false),
            Cmp::Ne => (k, k, true),
            Cmp::Lt => (i32::MIN, k.checked_sub(1)?, false),
            Cmp::Le => (i32::MIN, k, false),
            Cmp::Gt => (k.checked_add(1)?, i32::MAX, false),
            Cmp::Ge => (k, i32::MAX, false),
        };
        Some(Band {
            lo,
            span: hi.wrapping_sub(lo) as u32,
            out,
        })
    }

    /// The values this band refuses.
    fn not(self) -> Band {
        Band {
            out: !self.out,
            ..self
        }
    }

    #[inline(always)]
    fn holds(self, v: i32) -> bool {
        (v.wrapping_sub(self.lo) as u32 <= self.span) != self.out
    }
}

/// One condition without a chain inside.
pub(crate) enum Atom {
    /// Two operands compared (left first).
    Cmp(Cmp, Arg, Arg),
    /// An operand compared with a constant.
    CmpK(Cmp, Arg, i32),
    /// An operand compared with a constant, as a band.
    In(Arg, Band),
    /// A local compared with a constant (`Arg::L` in a band).
    LocalIn(usize, Band),
    /// The number of cards of the zone in a local compared with a
    /// constant (`Arg::Size` in a band).
    SizeIn(usize, Band),
    /// An attribute of the card in a local compared with a constant
    /// (`Arg::Attr` in a band).
    AttrIn(usize, usize, usize, Band),
    /// An operand is not 0.
    Is(Arg),
    /// An operand is 0 (`not x`).
    IsNot(Arg),
    /// An operand written into a local; holds (a binding of jump code,
    /// `jump.rs`, which never negates it).
    Set(usize, Arg),
    // The most frequent operand forms of the atoms above, each read by
    // its own atom: one jump on the atom's form instead of one more on
    // each operand's (`fused` makes them).
    /// `Is` of a call of compiled code.
    IsF(Val),
    /// `IsNot` of a call of compiled code.
    IsNotF(Val),
    /// `In` of a call of compiled code.
    InF(Val, Band),
    /// `Set` of a local.
    SetL(usize, usize),
}

impl Atom {
    /// The negated condition: the same reads in the same order, the
    /// truth inverted.
    fn not(self) -> Atom {
        match self {
            Atom::Cmp(c, l, r) => Atom::Cmp(c.not(), l, r),
            Atom::CmpK(c, l, k) => Atom::CmpK(c.not(), l, k),
            Atom::In(l, b) => Atom::In(l, b.not()),
            Atom::LocalIn(s, b) => Atom::LocalIn(s, b.not()),
            Atom::SizeIn(s, b) => Atom::SizeIn(s, b.not()),
            Atom::AttrIn(na, a, s, b) => Atom::AttrIn(na, a, s, b.not()),
            Atom::Is(x) => Atom::IsNot(x),
            Atom::IsNot(x) => Atom::Is(x),
            a @ (Atom::Set(..) | Atom::SetL(..)) => a,
            Atom::IsF(f) => Atom::IsNotF(f),
            Atom::IsNotF(f) => Atom::IsF(f),
            Atom::InF(f, b) => Atom::InF(f, b.not()),
        }
    }

    /// This atom with its most frequent operand forms read by an atom of
    /// their own (the same reads in the same order).
    pub(super) fn fused(self) -> Atom {
        match self {
            Atom::Is(Arg::F(f)) => Atom::IsF(f),
            Atom::IsNot(Arg::F(f)) => Atom::IsNotF(f),
            Atom::In(Arg::F(f), b) => Atom::InF(f, b),
            Atom::Set(s, Arg::L(l)) => Atom::SetL(s, l),
            a => a,
        }
    }

    /// Whether this atom is `count(slot)` in a band without 0.
    pub(super) fn needs_cards_in(&self, slot: usize) -> bool {
        matches!(self, Atom::SizeIn(s, b) if *s == slot && !b.holds(0))
    }

    #[inline(always)]
    pub(super) fn eval(&self, cx: &mut Cx<'_>) -> bool {
        match self {
            Atom::Cmp(op, l, r) => {
                let a = l.get(cx);
                op.holds(a, r.get(cx))
            }
            Atom::CmpK(op, l, k) => op.holds(l.get(cx), *k),
            Atom::In(l, b) => b.holds(l.get(cx)),
            Atom::LocalIn(s, b) => b.holds(cx.locals[*s]),
            Atom::SizeIn(s, b) => {
                let z = cx.locals[*s];
                let n = match cx.zone(z) {
                    Some(z) => cx.c.zone_len(z) as i32,
                    None => 0,
                };
                b.holds(n)
            }
            Atom::AttrIn(na, a, s, b) => {
                let k = cx.locals[*s];
                b.holds(attr(cx, k, *na, *a))
            }
            Atom::Is(x) => x.get(cx) != 0,
            Atom::IsNot(x) => x.get(cx) == 0,
            Atom::Set(s, x) => {
                let v = x.get(cx);
                cx.locals[*s] = v;
                true
            }
            Atom::IsF(f) => f(cx) != 0,
            Atom::IsNotF(f) => f(cx) == 0,
            Atom::InF(f, b) => b.holds(f(cx)),
            Atom::SetL(s, l) => {
                cx.locals[*s] = cx.locals[*l];
                true
            }
        }
    }
}

/// Do all of `atoms` hold (tried in order, stopping at the first that
/// does not)? A plain loop, so that each atom's code is inlined into the
/// chain's instead of being a call per atom.
#[inline(always)]
fn all(atoms: &[Atom], cx: &mut Cx<'_>) -> bool {
    for a in atoms {
        if !a.eval(cx) {
            return false;
        }
    }
    true
}

/// Does one of `atoms` hold (tried in order, stopping at the first that
/// does)? A plain loop, as [`all`].
#[inline(always)]
fn any(atoms: &[Atom], cx: &mut Cx<'_>) -> bool {
    for a in atoms {
        if a.eval(cx) {
            return true;
        }
    }
    false
}

/// A condition: one atom, or a chain of atoms all of which (`and`) or one
/// of which (`or`) must hold, tried left to right, or jump code
/// (`jump.rs`) for chains that nest.
pub(crate) enum Test {
    One(Atom),
    All(Box<[Atom]>),
    Any(Box<[Atom]>),
    Jump(Box<[super::jump::Step]>),
}

/// A user of a test that compiles its own closure around it: given the
/// test as a plain function, each shape of test a closure of its own (no
/// dispatch on the shape when it runs).
pub(crate) trait UseTest {
    type Out;
    fn with<F: Fn(&mut Cx<'_>) -> bool + Send + Sync + 'static>(self, f: F) -> Self::Out;
}

impl Test {
    /// Hand this test to `u` as a function of its own shape: the most
    /// frequent single atoms, a lone atom, an `and` chain, an `or` chain.
    pub fn apply<U: UseTest>(self, u: U) -> U::Out {
        match self {
            Test::One(Atom::SizeIn(s, b)) => u.with(move |cx| {
                let z = cx.locals[s];
                let n = match cx.zone(z) {
                    Some(z) => cx.c.zone_len(z) as i32,
                    None => 0,
                };
                b.holds(n)
            }),
            Test::One(Atom::AttrIn(na, a, s, b)) => u.with(move |cx| {
                let k = cx.locals[s];
                b.holds(attr(cx, k, na, a))
            }),
            Test::One(Atom::LocalIn(s, b)) => u.with(move |cx| b.holds(cx.locals[s])),
            Test::One(Atom::IsF(f)) => u.with(move |cx| f(cx) != 0),
            Test::One(a) => u.with(move |cx| a.eval(cx)),
            Test::All(atoms) => u.with(move |cx| all(&atoms, cx)),
            Test::Any(atoms) => u.with(move |cx| any(&atoms, cx)),
            Test::Jump(steps) => u.with(move |cx| super::jump::run(&steps, cx)),
        }
    }

    /// Whether this test is false for every empty zone instance bound to
    /// `slot` without reading anything else: its first atom, which must
    /// hold for the rest to count, is `count(slot)` in a band without 0.
    pub fn needs_cards_in(&self, slot: usize) -> bool {
        let first = match self {
            Test::One(a) => a,
            Test::All(atoms) => match atoms.first() {
                Some(a) => a,
                None => return false,
            },
            Test::Any(_) => return false,
            Test::Jump(steps) => return super::jump::needs_cards_in(steps, slot),
        };
        first.needs_cards_in(slot)
    }

    /// The operand and constants of this test if it is one equality of a
    /// local, or of an attribute of the card in a local, with a constant,
    /// or an `or` chain of such equalities (or small bands) of one
    /// operand: the test holds exactly when the operand is one of the
    /// constants (an `if` chain of such tests on one operand is a jump
    /// table). None when the constants would be more than `most`.
    pub fn eq_keys(&self, most: u32) -> Option<(super::switch::Key, Vec<i32>)> {
        let atoms = match self {
            Test::One(a) => std::slice::from_ref(a),
            Test::Any(atoms) => atoms,
            _ => return None,
        };
        let mut key = None;
        let mut ks = Vec::new();
        for a in atoms {
            let (k, b) = match a {
                Atom::LocalIn(s, b) => (super::switch::Key::Local(*s), b),
                Atom::AttrIn(na, a, s, b) => (super::switch::Key::Attr(*na, *a, *s), b),
                _ => return None,
            };
            if b.out || b.span >= most || key.is_some_and(|first| first != k) {
                return None;
            }
            key = Some(k);
            ks.extend((0..=b.span).map(|d| b.lo.wrapping_add(d as i32)));
            if ks.len() > most as usize {
                return None;
            }
        }
        Some((key?, ks))
    }

    #[inline(always)]
    pub fn eval(&self, cx: &mut Cx<'_>) -> bool {
        match self {
            Test::One(a) => a.eval(cx),
            Test::All(atoms) => all(atoms, cx),
            Test::Any(atoms) => any(atoms, cx),
            Test::Jump(steps) => super::jump::run(steps, cx),
        }
    }
}

/// Compile a condition without a chain.
pub(super) fn atom(g: &Graph, e: &Expr) -> Atom {
    atom_of(g, e).fused()
}

/// [`atom`] before its operand forms are fused.
fn atom_of(g: &Graph, e: &Expr) -> Atom {
    if let Some(body) = super::inline::through(g, e) {
        return atom_of(g, &body);
    }
    if super::cse::plain(e) {
        match e {
            Expr::Bin(op, l, r) => {
                if let Some(c) = Cmp::of(*op)
                    && konst(&g.tables, e).is_none()
                {
                    return match konst(&g.tables, r) {
                        Some(k) => against(c, arg(g, l), k),
                        None => Atom::Cmp(c, arg(g, l), arg(g, r)),
                    };
                }
            }
            Expr::Not(x) if konst(&g.tables, e).is_none() => return Atom::IsNot(arg(g, x)),
            _ => {}
        }
    }
    Atom::Is(arg(g, e))
}

/// An operand compared with a constant: in a band, the most frequent
/// operands read by their own atom.
fn against(c: Cmp, l: Arg, k: i32) -> Atom {
    let Some(b) = Band::of(c, k) else {
        return Atom::CmpK(c, l, k);
    };
    match l {
        Arg::L(s) => Atom::LocalIn(s, b),
        Arg::Size(s) => Atom::SizeIn(s, b),
        Arg::Attr(na, a, s) => Atom::AttrIn(na, a, s, b),
        l => Atom::In(l, b),
    }
}

/// The other of `and` and `or`: the operator of a negated chain.
pub(super) fn dual(op: BinOp) -> BinOp {
    if op == BinOp::And {
        BinOp::Or
    } else {
        BinOp::And
    }
}

/// The operator of the chain `e` is (negated when `neg`) once small
/// functions are read in place and negations pushed inward
/// (`not (a or b)` is `not a and not b`); none for a single condition.
/// Mirrors [`parts`] without compiling anything.
fn chain_op(g: &Graph, e: &Expr, neg: bool) -> Option<BinOp> {
    if let Some(body) = super::inline::through(g, e) {
        return chain_op(g, &body, neg);
    }
    if super::cse::plain(e) && konst(&g.tables, e).is_none() {
        match e {
            Expr::Bin(o @ (BinOp::And | BinOp::Or), ..) => {
                return Some(if neg { dual(*o) } else { *o });
            }
            Expr::Not(x) => return chain_op(g, x, !neg),
            _ => {}
        }
    }
    None
}

/// Compile `e` (negated when `neg`) as parts of a chain of `op` (`and` or
/// `or`), appended to `out` in order of evaluation. A part that is itself
/// a chain of `op` with nothing of its own to share or to clear is walked
/// into: a nested `and` in an `and`, the body of a small function read in
/// place (`inline.rs`), and a negated chain of the other operator
/// (`not (a or b)` in an `and` is `not a`, `not b`). The order of
/// evaluation, the short-circuits and the first fault are the tree's: a
/// negated part is evaluated as the part, its truth inverted.
fn parts(g: &Graph, op: BinOp, e: &Expr, neg: bool, out: &mut Vec<Atom>) {
    if let Some(body) = super::inline::through(g, e) {
        return parts(g, op, &body, neg, out);
    }
    if super::cse::plain(e) && konst(&g.tables, e).is_none() {
        match e {
            Expr::Bin(o @ (BinOp::And | BinOp::Or), l, r) if (*o == op) != neg => {
                parts(g, op, l, neg, out);
                parts(g, op, r, neg, out);
                return;
            }
            Expr::Not(x) => return parts(g, op, x, !neg, out),
            _ => {}
        }
    }
    let a = atom(g, e);
    out.push(if neg { a.not() } else { a });
}

/// Compile the chain of `and` (or `or`) whose root is `e` (itself compiled
/// by `value` or known to be plain).
pub(crate) fn chain_test(g: &Graph, op: BinOp, e: &Expr) -> Test {
    if let Some(t) = super::jump::compile(g, e) {
        return t;
    }
    let mut atoms = Vec::new();
    parts(g, op, e, false, &mut atoms);
    let atoms: Box<[Atom]> = atoms.into();
    if op == BinOp::And {
        Test::All(atoms)
    } else {
        Test::Any(atoms)
    }
}

/// Compile a condition (an `if`'s test, an aggregate's filter, a `not`).
pub(crate) fn test(g: &Graph, e: &Expr) -> Test {
    let _root = super::cse::Root::enter(e);
    if let Some(t) = super::jump::compile(g, e) {
        return t;
    }
    match chain_op(g, e, false) {
        Some(op) => chain_test(g, op, e),
        None => {
            let mut one = Vec::with_capacity(1);
            parts(g, BinOp::And, e, false, &mut one);
            match <[Atom; 1]>::try_from(one) {
                Ok([a]) => Test::One(a),
                Err(atoms) => Test::All(atoms.into()),
            }
        }
    }
}
