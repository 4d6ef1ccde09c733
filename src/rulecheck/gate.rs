//! Whether code that never ran in a simulation was switched off by the
//! run's options rather than by the rules. A block runs only when its
//! gate holds (an `if` or `while` condition, a `for` filter, an option's
//! `when` guard or filter); the gate is split into the conditions it needs
//! (`a and b` needs both, `not (a or b)` needs both false). When one of them
//! reads only options, constants and the player count, it can be evaluated
//! for each column of the run; if it fails in every column, the code could
//! not run with these options, whatever the players did (`if duel == 1 and
//! ...` with `duel = 0`): `never-fired` makes it a note, not a warning.

use crate::check::hir::Expr;
use crate::syntax::ast::BinOp;

/// A condition a block needs: `expr` must be true (or false when `!want`).
#[derive(Clone, Copy)]
pub struct Need<'a> {
    pub expr: &'a Expr,
    pub want: bool,
}

/// Split `e` (wanted true or false) into the conditions it needs.
pub fn needs<'a>(e: &'a Expr, want: bool, out: &mut Vec<Need<'a>>) {
    match e {
        Expr::Not(x) => needs(x, !want, out),
        Expr::Bin(BinOp::And, a, b) if want => {
            needs(a, true, out);
            needs(b, true, out);
        }
        Expr::Bin(BinOp::Or, a, b) if !want => {
            needs(a, false, out);
            needs(b, false, out);
        }
        _ => out.push(Need { expr: e, want }),
    }
}

/// `x op y` as the engine computes it, or `None` where the engine faults
/// (an overflow, a division by zero): checked arithmetic, and `mod` is
/// Euclidean (`-7 mod 3` is 2) with `i32::MIN mod -1` 0, as in
/// `engine/compile.rs`.
pub(super) fn fold(op: BinOp, x: i32, y: i32) -> Option<i32> {
    Some(match op {
        BinOp::Or => i32::from(x != 0 || y != 0),
        BinOp::And => i32::from(x != 0 && y != 0),
        BinOp::Eq => i32::from(x == y),
        BinOp::Ne => i32::from(x != y),
        BinOp::Lt => i32::from(x < y),
        BinOp::Le => i32::from(x <= y),
        BinOp::Gt => i32::from(x > y),
        BinOp::Ge => i32::from(x >= y),
        BinOp::Add => x.checked_add(y)?,
        BinOp::Sub => x.checked_sub(y)?,
        BinOp::Mul => x.checked_mul(y)?,
        BinOp::Div => x.checked_div(y)?,
        BinOp::Mod if y == -1 => 0,
        BinOp::Mod => x.checked_rem_euclid(y)?,
        BinOp::Range | BinOp::In => return None,
    })
}

/// The value of an expression that reads only options, constants and the
/// player count (the options read are added to `read`); `None` for any
/// other expression, or one the engine would refuse (division by zero).
pub fn eval_fixed(e: &Expr, opts: &[i32], players: i32, read: &mut Vec<u16>) -> Option<i32> {
    Some(match e {
        Expr::Int(v) => *v,
        Expr::PlayerCount => players,
        Expr::Opt(i) => {
            read.push(*i);
            *opts.get(*i as usize)?
        }
        Expr::Not(a) => i32::from(eval_fixed(a, opts, players, read)? == 0),
        Expr::Neg(a) => eval_fixed(a, opts, players, read)?.checked_neg()?,
        Expr::Cond(c, a, b) => {
            if eval_fixed(c, opts, players, read)? != 0 {
                eval_fixed(a, opts, players, read)?
            } else {
                eval_fixed(b, opts, players, read)?
            }
        }
        Expr::Bin(op, a, b) => {
            let x = eval_fixed(a, opts, players, read)?;
            let y = eval_fixed(b, opts, players, read)?;
            fold(*op, x, y)?
        }
        _ => return None,
    })
}

/// The options read by the first need that fails in every column
/// (`(option values, players)` each), if there is one.
pub fn switched_off(needs: &[Need], columns: &[(&[i32], usize)]) -> Option<Vec<u16>> {
    'need: for n in needs {
        let mut read = Vec::new();
        for (opts, players) in columns {
            match eval_fixed(n.expr, opts, *players as i32, &mut read) {
                Some(v) if (v != 0) != n.want => {}
                _ => continue 'need,
            }
        }
        if read.is_empty() || columns.is_empty() {
            continue; // a constant condition is the rules' own doing
        }
        read.sort_unstable();
        read.dedup();
        return Some(read);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Bin(op, Box::new(a), Box::new(b))
    }

    #[test]
    fn folds_as_the_engine_computes() {
        assert_eq!(fold(BinOp::Mod, -7, 3), Some(2));
        assert_eq!(fold(BinOp::Mod, i32::MIN, -1), Some(0));
        assert_eq!(fold(BinOp::Mod, 5, 0), None);
        assert_eq!(fold(BinOp::Div, 7, 0), None);
        assert_eq!(fold(BinOp::Div, i32::MIN, -1), None);
        assert_eq!(fold(BinOp::Add, i32::MAX, 1), None);
        assert_eq!(fold(BinOp::Lt, 1, 2), Some(1));
        assert_eq!(fold(BinOp::In, 1, 2), None);
    }

    #[test]
    fn needs_split_and_evaluate() {
        // duel == 1 and <state>
        let e = bin(
            BinOp::And,
            bin(BinOp::Eq, Expr::Opt(0), Expr::Int(1)),
            Expr::Global(0),
        );
        let mut n = Vec::new();
        needs(&e, true, &mut n);
        assert_eq!(n.len(), 2);
        let off: &[i32] = &[0];
        let on: &[i32] = &[1];
        assert_eq!(switched_off(&n, &[(off, 2), (off, 3)]), Some(vec![0]));
        assert_eq!(switched_off(&n, &[(off, 2), (on, 2)]), None);
        // the else branch of the same `if` needs it false: not switched off
        let mut n = Vec::new();
        needs(&e, false, &mut n);
        assert_eq!(switched_off(&n, &[(off, 2)]), None);
        // a constant is not an option's doing
        let constant = bin(BinOp::Eq, Expr::Int(1), Expr::Int(2));
        let mut n = Vec::new();
        needs(&constant, true, &mut n);
        assert_eq!(switched_off(&n, &[(off, 2)]), None);
        // player_count counts: `first < player_count`
        let first = bin(BinOp::Lt, Expr::Opt(0), Expr::PlayerCount);
        let mut n = Vec::new();
        needs(&first, true, &mut n);
        let five: &[i32] = &[5];
        assert_eq!(switched_off(&n, &[(five, 2), (five, 4)]), Some(vec![0]));
        assert_eq!(switched_off(&n, &[(five, 6)]), None);
    }
}
