//! Conditions as jump code: a condition whose `and`/`or` chains nest
//! (an `or` inside an `and`), or that holds an `if` or the expansion of a
//! user `fn` that is not read in place, compiled into one flat vector of
//! atoms (`cond.rs`), each with the step to go to when it holds and when it
//! does not. Without it each nested part was an atom calling a closure of
//! its own (an indirect call, and the chain's loop again inside it).
//!
//! Order of evaluation, short-circuits and the first fault are the tree's:
//! `a and b` goes from `a` to `b` only where `a` holds, `a or b` only where
//! it does not, `not a` swaps the two steps, `if c then a else b` goes from
//! `c` to `a` or to `b`, and an expansion's bindings are steps that write
//! the parameters' slots in order before the body's first step (but for
//! parameters whose arguments are plain reads, read in place:
//! `inline::substitute`). A part
//! with something of its own to share (`cse.rs`), an expansion whose value
//! is remembered (`memo.rs`) and an `if` chain that may be a jump table
//! (`switch.rs`) stay one atom each, compiled as before.

use super::compile::{Cx, konst};
use super::cond::{Atom, Test, atom, dual};
use super::operand::arg;
use crate::graph::Graph;
use crate::hir::Expr;
use crate::syntax::ast::BinOp;

/// The condition holds: the walk ends true.
const TRUE: u32 = u32::MAX;
/// The condition does not hold: the walk ends false.
const FALSE: u32 = u32::MAX - 1;

/// One step of jump code: an atom, and where to go when it holds (`t`)
/// and when it does not (`f`): another step, [`TRUE`] or [`FALSE`]. A
/// binding ([`Atom::Set`]) holds and goes to `t`.
pub(crate) struct Step {
    atom: Atom,
    t: u32,
    f: u32,
}

/// Run jump code from its first step.
#[inline(always)]
pub(crate) fn run(steps: &[Step], cx: &mut Cx<'_>) -> bool {
    let mut pc = 0;
    loop {
        let Some(s) = steps.get(pc) else {
            return false; // unreachable: every target is a step or an end
        };
        let next = if s.atom.eval(cx) { s.t } else { s.f };
        if next >= FALSE {
            return next == TRUE;
        }
        pc = next as usize;
    }
}

/// Whether jump code is false for every empty zone instance bound to
/// `slot` without reading anything else: its first step is `count(slot)`
/// in a band without 0, going to the end false where it does not hold.
pub(crate) fn needs_cards_in(steps: &[Step], slot: usize) -> bool {
    steps
        .first()
        .is_some_and(|s| s.f == FALSE && s.atom.needs_cards_in(slot))
}

/// Whether `e` is part of a condition that jump code takes apart: a
/// plain node (nothing of its own to share) that is no constant.
fn open(g: &Graph, e: &Expr) -> bool {
    super::cse::plain(e) && konst(&g.tables, e).is_none()
}

/// Whether an `if` is taken apart: not when it starts an `if` chain that
/// may be a jump table (an equality test, or an `or` of equalities,
/// followed by `else if`).
fn open_if(c: &Expr, b: &Expr) -> bool {
    fn eqs(c: &Expr) -> bool {
        match c {
            Expr::Bin(BinOp::Eq, ..) => true,
            Expr::Bin(BinOp::Or, l, r) => eqs(l) && eqs(r),
            _ => false,
        }
    }
    !(matches!(b, Expr::Cond(..)) && eqs(c))
}

/// Does the condition `e` (negated when `neg`, inside a chain of `op`)
/// have something that only jump code flattens: a chain of the other
/// operator inside a chain, an `if`, or an expansion's bindings? Mirrors
/// [`Gen::emit`] without compiling anything.
fn nests(g: &Graph, e: &Expr, neg: bool, op: Option<BinOp>) -> bool {
    if let Some(body) = super::inline::through(g, e) {
        return nests(g, &body, neg, op);
    }
    if !open(g, e) {
        return false;
    }
    match e {
        Expr::Bin(o @ (BinOp::And | BinOp::Or), l, r) => {
            let o = if neg { dual(*o) } else { *o };
            op.is_some_and(|p| p != o) || nests(g, l, neg, Some(o)) || nests(g, r, neg, Some(o))
        }
        Expr::Not(x) => nests(g, x, !neg, op),
        Expr::Cond(c, _, b) => open_if(c, b),
        Expr::Bind(binds, body) => !super::memo::worth(binds, body),
        _ => false,
    }
}

/// The jump code of the condition `e` if it has something only jump code
/// flattens (see [`nests`]); else none, and the caller compiles a chain.
pub(crate) fn compile(g: &Graph, e: &Expr) -> Option<Test> {
    if !nests(g, e, false, None) {
        return None;
    }
    let mut code = Gen {
        g,
        steps: Vec::new(),
    };
    let first = code.emit(e, TRUE, FALSE);
    // steps were made last first: number them in order of evaluation
    let n = code.steps.len() as u32;
    let at = |x: u32| if x >= FALSE { x } else { n - 1 - x };
    debug_assert_eq!(at(first), 0);
    let steps = code
        .steps
        .into_iter()
        .rev()
        .map(|(atom, t, f)| Step {
            atom,
            t: at(t),
            f: at(f),
        })
        .collect();
    Some(Test::Jump(steps))
}

/// Jump code under construction, its steps made from the last to the
/// first (each step's targets exist when it is made).
struct Gen<'g> {
    g: &'g Graph,
    steps: Vec<(Atom, u32, u32)>,
}

impl Gen<'_> {
    fn push(&mut self, a: Atom, t: u32, f: u32) -> u32 {
        self.steps.push((a, t, f));
        self.steps.len() as u32 - 1
    }

    /// The first step of the code of `e` going to `t` where it holds and
    /// to `f` where it does not.
    fn emit(&mut self, e: &Expr, t: u32, f: u32) -> u32 {
        let g = self.g;
        if let Some(body) = super::inline::through(g, e) {
            return self.emit(&body, t, f);
        }
        if open(g, e) {
            match e {
                Expr::Bin(BinOp::And, l, r) => {
                    let r = self.emit(r, t, f);
                    return self.emit(l, r, f);
                }
                Expr::Bin(BinOp::Or, l, r) => {
                    let r = self.emit(r, t, f);
                    return self.emit(l, t, r);
                }
                Expr::Not(x) => return self.emit(x, f, t),
                Expr::Cond(c, a, b) if open_if(c, b) => {
                    if let Some(k) = konst(&g.tables, c) {
                        return self.emit(if k != 0 { a } else { b }, t, f);
                    }
                    let b = self.emit(b, t, f);
                    let a = self.emit(a, t, f);
                    return self.emit(c, a, b);
                }
                Expr::Bind(binds, body) if !super::memo::worth(binds, body) => {
                    // parameters whose arguments are reads are read in place
                    let copy = super::inline::substitute(g, binds, body);
                    let mut next = match &copy {
                        Some((_, c)) => self.emit(c, t, f),
                        None => self.emit(body, t, f),
                    };
                    for (i, (s, v)) in binds.iter().enumerate().rev() {
                        if copy.as_ref().is_some_and(|(r, _)| r[i]) {
                            continue;
                        }
                        let set = Atom::Set(*s as usize, arg(g, v)).fused();
                        next = self.push(set, next, next);
                    }
                    if let Some((_, c)) = &copy {
                        super::cse::forget(c);
                    }
                    return next;
                }
                _ => {}
            }
        }
        let a = atom(g, e);
        self.push(a, t, f)
    }
}
