//! Bounds the partial evaluation of `fixed.rs` knows without knowing a
//! value: a count of cards is never negative, so a comparison of an
//! unknown count with a known number is sometimes decided all the same.

use crate::hir::Expr;
use crate::syntax::ast::BinOp;

/// Whether `e` is never negative, whatever the state (`count(Z)`).
pub fn nonneg(e: &Expr) -> bool {
    matches!(e, Expr::Call(crate::hir::Builtin::Size, _))
}

/// `op` with its sides swapped (`x < n` is `n > x`).
pub fn flip(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        BinOp::Eq | BinOp::Ne => op,
        _ => return None,
    })
}

/// `n op y` for an unknown `n >= 0`, where that decides it (`count(Z) <
/// 0` never holds, `count(Z) >= 0` always does).
pub fn at_least_zero(op: BinOp, y: i32) -> Option<i32> {
    match op {
        BinOp::Lt if y <= 0 => Some(0),
        BinOp::Le if y < 0 => Some(0),
        BinOp::Eq if y < 0 => Some(0),
        BinOp::Ge if y <= 0 => Some(1),
        BinOp::Gt if y < 0 => Some(1),
        BinOp::Ne if y < 0 => Some(1),
        _ => None,
    }
}
