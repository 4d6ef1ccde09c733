//! Small user functions read in place: the expansion of a `fn`
//! (`Expr::Bind`: its arguments bound into fresh slots, then its body) is
//! compiled as its body with each parameter replaced by its argument, when
//! every argument is a local, a global, an option or a constant and the
//! body does not loop (no aggregate, no `would`, where remembering or
//! sharing pay).
//!
//! The value is the same: such an argument cannot fault or draw, and
//! nothing the body does can change it (the table is fixed during an
//! evaluation, and the body binds only slots of its own), so reading it
//! where the body reads the parameter gives what the bound slot gave, in
//! the same order of evaluation and faults. The parameter slots are no
//! longer written, and nothing reads them outside the body. What is gained
//! is the binding and the call of the expansion, and the body's reads
//! become operands and tests of their user (`operand.rs`): with
//! `fn empty(z: zone) -> bool = count(z) == 0`, `empty(u)` is one
//! comparison read in the caller's closure. Sub-expressions the body
//! shared (`cse.rs`) are computed at each occurrence in the copy; without
//! a loop in the body they are small reads.
//!
//! Any other expansion (its body loops, or some arguments are more than
//! reads) gets the same replacement for the parameters whose arguments
//! are reads ([`substitute`]): only the other parameters are bound, in
//! order, and a remembered expansion (`memo.rs`) still keys on every
//! argument. Its copy keeps the body's shared values (`cse::carry`).
//!
//! The copy is made while compiling and dropped after it: compiled code
//! keeps no reference to expressions.

use super::compile::konst;
use crate::graph::Graph;
use crate::hir::{Builtin, Expr};

/// The body of the expansion `e` with its parameters replaced, if `e` is
/// an expansion that may be read in place (and is not itself a value
/// shared with another occurrence).
pub(crate) fn through(g: &Graph, e: &Expr) -> Option<Expr> {
    let Expr::Bind(binds, body) = e else {
        return None;
    };
    if !super::cse::unshared(e) || loops(body) {
        return None;
    }
    let mut with = Vec::with_capacity(binds.len());
    for (slot, v) in binds {
        with.push((*slot, read(g, v)?));
    }
    let mut copy = (**body).clone();
    replace(&mut copy, &with);
    Some(copy)
}

/// The argument `v` as a read that may stand for its parameter in the
/// body: a local, a global, an option or a constant (none of which can
/// fault, draw or change while the body is evaluated).
fn read(g: &Graph, v: &Expr) -> Option<Expr> {
    match v {
        Expr::Local(_) | Expr::Global(_) | Expr::Opt(_) | Expr::Int(_) => Some(v.clone()),
        _ => Some(Expr::Int(konst(&g.tables, v)?)),
    }
}

/// An expansion that [`through`] does not read in place (its body loops,
/// or some arguments are more than reads), with the parameters whose
/// arguments are reads replaced in a copy of its body, as `through` does:
/// which parameters were replaced (their bindings are dropped; the others
/// are bound as before, in their order) and the copy. None when no
/// argument is a read. The same argument as `through`'s keeps the value:
/// the bindings left and the body write only slots of their own, so a
/// replaced read gives what its slot held.
///
/// The copy carries the sharing marks of the body (`cse::carry`), so its
/// shared values stay shared; the caller compiles it, then drops what is
/// left of its marks with `cse::forget` before the copy goes.
pub(crate) fn substitute(
    g: &Graph,
    binds: &[(u16, Expr)],
    body: &Expr,
) -> Option<(Vec<bool>, Box<Expr>)> {
    let mut with = Vec::new();
    let mut replaced = Vec::with_capacity(binds.len());
    for (slot, v) in binds {
        let r = read(g, v);
        replaced.push(r.is_some());
        if let Some(r) = r {
            with.push((*slot, r));
        }
    }
    if with.is_empty() {
        return None;
    }
    let mut copy = Box::new(body.clone());
    replace(&mut copy, &with);
    super::cse::carry(body, &copy);
    Some((replaced, copy))
}

/// Does `e` loop (an aggregate or `would`, its own or an inner expansion's)?
pub(super) fn loops(e: &Expr) -> bool {
    e.any(&mut |x| matches!(x, Expr::Agg { .. } | Expr::Call(Builtin::Would, _)))
}

/// Replace the reads of the slots in `with` by their expressions.
fn replace(e: &mut Expr, with: &[(u16, Expr)]) {
    match e {
        Expr::Local(s) => {
            if let Some((_, v)) = with.iter().find(|w| w.0 == *s) {
                *e = v.clone();
            }
        }
        _ => e.for_each_child_mut(|x| replace(x, with)),
    }
}
