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
        let v = match v {
            Expr::Local(_) | Expr::Global(_) | Expr::Opt(_) | Expr::Int(_) => v.clone(),
            _ => Expr::Int(konst(&g.tables, v)?),
        };
        with.push((*slot, v));
    }
    let mut copy = (**body).clone();
    replace(&mut copy, &with);
    Some(copy)
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
