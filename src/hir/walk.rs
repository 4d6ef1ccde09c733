//! Walks over an [`Expr`] tree: its direct children in evaluation order
//! (shared and mutable), whether it is a leaf, and the locals it reads
//! without binding. Visitors elsewhere match the variants they care about
//! and hand the others to these walks, so no other module lists every
//! variant.

use super::{Builtin, Expr};

/// The pattern of the expressions with no sub-expression (the one list
/// of them: [`Expr::is_leaf`] and the walks below use it).
macro_rules! leaf {
    () => {
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
            | Expr::Current
    };
}

/// The one list of an [`Expr`]'s direct children, in evaluation order,
/// written once for the shared and the mutable walk: the same match
/// binds by reference or by mutable reference after `self`'s type.
macro_rules! each_child {
    ($e:expr, $f:ident) => {
        match $e {
            Expr::PerPlayer(_, x)
            | Expr::PerCard(_, x)
            | Expr::Table(_, x)
            | Expr::Attr(_, x)
            | Expr::Zone(_, Some(x))
            | Expr::Not(x)
            | Expr::Neg(x) => $f(x),
            Expr::Index(a, b) | Expr::Bin(_, a, b) => {
                $f(a);
                $f(b);
            }
            Expr::Cond(a, b, c) => {
                $f(a);
                $f(b);
                $f(c);
            }
            Expr::Bind(args, body) => {
                for (_, x) in args {
                    $f(x);
                }
                $f(body);
            }
            Expr::Call(_, args) => {
                for x in args {
                    $f(x);
                }
            }
            Expr::Agg {
                coll, filter, body, ..
            } => {
                $f(coll);
                for x in [filter, body].into_iter().flatten() {
                    $f(x);
                }
            }
            leaf!() => {}
        }
    };
}

impl Expr {
    /// Whether this expression has no sub-expression and computes nothing:
    /// a constant, an option, a variable or local read, a whole collection.
    pub fn is_leaf(&self) -> bool {
        matches!(self, leaf!())
    }

    /// Whether `pred` holds for this expression or any expression inside it
    /// (a function's expansion included), looked at in evaluation order and
    /// stopping at the first.
    pub fn any(&self, pred: &mut impl FnMut(&Expr) -> bool) -> bool {
        if pred(self) {
            return true;
        }
        let mut found = false;
        self.for_each_child(|x| found = found || x.any(pred));
        found
    }

    /// Whether evaluating this calls `random` (also inside a function's
    /// expansion).
    pub fn draws(&self) -> bool {
        self.any(&mut |x| matches!(x, Expr::Call(Builtin::Random, _)))
    }

    /// Call `f` on each direct sub-expression, in the order the engine
    /// evaluates them (a function's arguments before its body, an
    /// aggregate's collection before its filter and body). The one walk
    /// of the tree: visitors match the variants they care about and hand
    /// the others here.
    pub fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        each_child!(self, f)
    }

    /// [`Expr::for_each_child`], each child given mutably: for rewrites
    /// that replace some nodes and leave the rest of the tree as it is.
    pub fn for_each_child_mut(&mut self, mut f: impl FnMut(&mut Expr)) {
        each_child!(self, f)
    }

    /// The locals this expression reads that it does not bind itself (a
    /// function's parameters, an aggregate's element) nor are in `bound`,
    /// each once, in the order first read.
    pub fn free_locals(&self, bound: &mut Vec<u16>, out: &mut Vec<u16>) {
        match self {
            Expr::Local(s) => {
                if !bound.contains(s) && !out.contains(s) {
                    out.push(*s);
                }
            }
            Expr::Bind(args, body) => {
                let mark = bound.len();
                for (s, x) in args {
                    x.free_locals(bound, out);
                    bound.push(*s);
                }
                body.free_locals(bound, out);
                bound.truncate(mark);
            }
            Expr::Agg {
                slot,
                coll,
                filter,
                body,
                ..
            } => {
                coll.free_locals(bound, out);
                bound.push(*slot);
                for x in [filter, body].into_iter().flatten() {
                    x.free_locals(bound, out);
                }
                bound.pop();
            }
            _ => self.for_each_child(|x| x.free_locals(bound, out)),
        }
    }
}
