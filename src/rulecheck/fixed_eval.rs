//! The partial evaluator of [`Fixed`]: an expression's value with the
//! options as constants and each local's value given (`None`: unknown),
//! and the walk over every combination of the values a scope's locals can
//! hold (at most [`MAX_COMBOS`]).

use super::fixed::{Fixed, Scope};
use super::fixed_bounds as bounds;
use crate::hir::Expr;
use crate::syntax::ast::BinOp;
use std::collections::BTreeSet;

/// Combinations of values tried for one expression.
const MAX_COMBOS: usize = 4096;

impl Fixed<'_> {
    /// The value of `e` with its locals' values in `locals` (`None`:
    /// unknown); the options read are added to `read`.
    pub(super) fn eval(
        &self,
        e: &Expr,
        locals: &mut Vec<Option<i32>>,
        read: &mut Vec<u16>,
    ) -> Option<i32> {
        Some(match e {
            Expr::Int(v) => *v,
            Expr::PlayerCount => self.players,
            Expr::Opt(i) => {
                read.push(*i);
                *self.opts.get(*i as usize)?
            }
            Expr::Local(s) => (*locals.get(*s as usize)?)?,
            Expr::Attr(a, c) => {
                let c = self.eval(c, locals, read)?;
                let n = self.hir.tables.attrs.len();
                let at = usize::try_from(c).ok()? * n + *a as usize;
                *self.hir.tables.card_attrs.get(at)?
            }
            Expr::Table(t, x) => {
                let x = self.eval(x, locals, read)?;
                let t = self.hir.tables.tables.get(*t as usize)?;
                *t.values.get(usize::try_from(x).ok()?)?
            }
            Expr::Bind(args, body) => {
                let mut saved = Vec::with_capacity(args.len());
                for (s, x) in args {
                    let v = self.eval(x, locals, read);
                    let slot = locals.get_mut(*s as usize)?;
                    saved.push((*s, std::mem::replace(slot, v)));
                }
                let v = self.eval(body, locals, read);
                for (s, old) in saved.into_iter().rev() {
                    locals[s as usize] = old;
                }
                v?
            }
            Expr::Not(a) => i32::from(self.eval(a, locals, read)? == 0),
            Expr::Neg(a) => self.eval(a, locals, read)?.checked_neg()?,
            Expr::Cond(c, a, b) => {
                if self.eval(c, locals, read)? != 0 {
                    self.eval(a, locals, read)?
                } else {
                    self.eval(b, locals, read)?
                }
            }
            Expr::Bin(BinOp::And, a, b) => match self.eval(a, locals, read) {
                Some(0) => 0,
                x => match (x, self.eval(b, locals, read)) {
                    (_, Some(0)) => 0,
                    (Some(_), Some(_)) => 1,
                    _ => return None,
                },
            },
            Expr::Bin(BinOp::Or, a, b) => match self.eval(a, locals, read) {
                Some(x) if x != 0 => 1,
                x => match (x, self.eval(b, locals, read)) {
                    (_, Some(y)) if y != 0 => 1,
                    (Some(_), Some(_)) => 0,
                    _ => return None,
                },
            },
            Expr::Bin(op, a, b) => {
                let (x, y) = (self.eval(a, locals, read), self.eval(b, locals, read));
                let (x, y) = match (x, y) {
                    (Some(x), Some(y)) => (x, y),
                    (None, Some(y)) if bounds::nonneg(a) => return bounds::at_least_zero(*op, y),
                    (Some(x), None) if bounds::nonneg(b) => {
                        return bounds::at_least_zero(bounds::flip(*op)?, x);
                    }
                    _ => return None,
                };
                super::gate::fold(*op, x, y)?
            }
            _ => return None,
        })
    }

    /// Call `f` with the locals set to each combination of the values of
    /// the slots in `free` (`false`: some slot is unknown, or there are too
    /// many combinations). `f` returns whether to go on.
    pub(super) fn each(
        &self,
        free: &[u16],
        scope: &Scope,
        read: &mut BTreeSet<u16>,
        f: &mut dyn FnMut(&mut Vec<Option<i32>>) -> bool,
    ) -> bool {
        let mut sets: Vec<(u16, Vec<i32>)> = Vec::new();
        let mut combos = 1usize;
        for s in free {
            let Some(Some(k)) = scope.get(*s as usize) else {
                return false;
            };
            read.extend(&k.read);
            combos = combos.saturating_mul(k.vals.len());
            sets.push((*s, k.vals.iter().copied().collect()));
        }
        if combos > MAX_COMBOS {
            return false;
        }
        let mut locals = vec![None; scope.len().max(1)];
        for k in 0..combos {
            let mut rest = k;
            for (s, vals) in &sets {
                locals[*s as usize] = Some(vals[rest % vals.len()]);
                rest /= vals.len();
            }
            if !f(&mut locals) {
                break;
            }
        }
        true
    }
}
