//! The branch distance itself, for guided exploration (`explore.rs`):
//! what must hold for a guard to go the wanted way ([`Dist`], built from
//! the guard's condition by [`build`]; two squares wanted equal as the
//! king steps between them, `squares_apart`), a [`Target`] that holds
//! one, its measure in the guard's frame ([`Target::distance`]), and a
//! distance written as one expression of the rules language
//! ([`as_expr`], with the small builders of such expressions). `explore_branch.rs` says how a
//! distance is read, chooses the targets and steers toward them;
//! `explore_aim.rs`, `explore_loop.rs`, `explore_link.rs` and
//! `explore_proxy.rs` build targets and distances from the pieces here,
//! so no two of these modules import each other.

use crate::engine::{Code, Game, State};
use crate::graph::Graph;
use crate::hir::{Builtin, Expr, Ty};
use crate::syntax::ast::{AggKind, BinOp};
use std::sync::OnceLock;

/// The distance of a failed identity or yes/no test.
pub const FAR: u32 = 1000;
/// A numeric gap counts at most this much.
const CAP: u32 = 999;

/// What must hold for a guard to go the wanted way.
pub(super) enum Dist {
    /// A yes/no value that must be `.1`.
    Leaf(Expr, bool),
    /// A comparison that must hold (numeric: measured as a gap).
    Cmp(BinOp, Expr, Expr, bool),
    And(Vec<Dist>),
    Or(Vec<Dist>),
    /// A distance computed by an expression (`explore_aim.rs`).
    Num(Expr),
}

/// A guard and the branch of it no game has taken.
pub struct Target {
    pub phase: u16,
    pub node: u32,
    /// Where its distance is measured: its own node, or the start of the
    /// loop just before it (`explore_loop.rs`).
    pub at: u32,
    /// The branch wanted: the condition true (the body) or false.
    pub want: bool,
    /// For a choice: the option to be offered (`u16::MAX`: none, for the
    /// `otherwise`).
    pub arm: Option<u16>,
    pub(super) dist: Dist,
    /// The distance taken outside the guard's frame (`explore_proxy.rs`),
    /// to steer by where the guard does not run.
    pub proxy: Option<Expr>,
    /// The guard's parameters that `proxy` reads (their slots), to be read
    /// as their values where the guard came nearest (`explore_proxy::pinned`;
    /// empty for a proxy that reads none).
    pub pins: Vec<u16>,
    /// The options that shut the way to what `proxy` measures (flat arms,
    /// in order: `explore_keep.rs`).
    pub shut: Vec<usize>,
    /// `dist` compiled, on the first measure (`dist` is final by then).
    code: OnceLock<Compiled>,
}

/// A [`Dist`] with its expressions compiled once: measured at every run of
/// its guard, an expression would otherwise be compiled at each measure.
enum Compiled {
    Leaf(Code, bool),
    Cmp(BinOp, Code, Code, bool),
    And(Vec<Compiled>),
    Or(Vec<Compiled>),
    Num(Code),
}

impl Compiled {
    fn new(game: &Game, d: &Dist) -> Compiled {
        let all = |ds: &[Dist]| ds.iter().map(|d| Compiled::new(game, d)).collect();
        match d {
            Dist::Leaf(e, want) => Compiled::Leaf(game.code(e), *want),
            Dist::Cmp(op, a, b, numeric) => {
                Compiled::Cmp(*op, game.code(a), game.code(b), *numeric)
            }
            Dist::And(ds) => Compiled::And(all(ds)),
            Dist::Or(ds) => Compiled::Or(all(ds)),
            Dist::Num(e) => Compiled::Num(game.code(e)),
        }
    }
}

impl Target {
    pub(super) fn new(phase: usize, node: usize, want: bool, dist: Dist) -> Target {
        Target {
            phase: phase as u16,
            node: node as u32,
            at: node as u32,
            want,
            arm: None,
            dist,
            proxy: None,
            pins: Vec::new(),
            shut: Vec::new(),
            code: OnceLock::new(),
        }
    }

    /// Identity across rounds (the target list is rebuilt every round).
    pub fn key(&self) -> (u16, u32, bool, u16) {
        (self.phase, self.node, self.want, self.arm.unwrap_or(0))
    }

    /// How far `state`, stopped at this guard, is from the wanted branch.
    pub fn distance(&self, game: &Game, state: &State) -> u32 {
        eval(
            self.code.get_or_init(|| Compiled::new(game, &self.dist)),
            game,
            state,
        )
    }
}

fn eval(d: &Compiled, game: &Game, st: &State) -> u32 {
    match d {
        Compiled::Leaf(e, want) => match st.eval_code_in_frame(game, e) {
            Ok(v) if (v != 0) == *want => 0,
            _ => FAR,
        },
        Compiled::Cmp(op, a, b, numeric) => {
            let (Ok(x), Ok(y)) = (
                st.eval_code_in_frame(game, a),
                st.eval_code_in_frame(game, b),
            ) else {
                return FAR;
            };
            let (x, y) = (x as i64, y as i64);
            let gap = match op {
                BinOp::Eq => (x - y).abs(),
                BinOp::Ne => i64::from(x == y),
                BinOp::Lt => (x - y + 1).max(0),
                BinOp::Le => (x - y).max(0),
                BinOp::Gt => (y - x + 1).max(0),
                _ => (y - x).max(0),
            };
            match gap {
                0 => 0,
                g if *numeric => (g.min(CAP as i64)) as u32,
                _ => FAR,
            }
        }
        Compiled::And(ds) => ds
            .iter()
            .fold(0u32, |s, d| s.saturating_add(eval(d, game, st))),
        Compiled::Or(ds) => ds.iter().map(|d| eval(d, game, st)).min().unwrap_or(0),
        Compiled::Num(e) => match st.eval_code_in_frame(game, e) {
            Ok(v) => (v.max(0) as u32).min(FAR),
            Err(_) => FAR,
        },
    }
}

fn wrap(binds: &[(u16, Expr)], e: &Expr) -> Expr {
    if binds.is_empty() {
        e.clone()
    } else {
        Expr::Bind(binds.to_vec(), Box::new(e.clone()))
    }
}

fn negate(op: BinOp) -> BinOp {
    match op {
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        _ => BinOp::Lt,
    }
}

/// Whether a side is a number (`Some(true)`), surely not one (a card,
/// player, enum value or `none`: `Some(false)`), or unknown.
fn numeric_side(g: &Graph, phase: u16, e: &Expr) -> Option<bool> {
    let t = &g.tables;
    let var = |id: &u16| t.vars.get(*id as usize).map(|v| v.ty == Ty::Int);
    match e {
        Expr::Attr(a, _) => t.attrs.get(*a as usize).map(|a| a.ty == Ty::Int),
        Expr::Global(v) | Expr::PerPlayer(v, _) | Expr::PerCard(v, _) => var(v),
        Expr::Local(s) => g
            .phases
            .get(phase as usize)
            .and_then(|p| p.local_types.get(*s as usize))
            .map(|ty| *ty == Ty::Int),
        Expr::Nothing | Expr::Actor | Expr::Current | Expr::Index(..) => Some(false),
        Expr::Agg { kind, .. } => Some(!matches!(kind, AggKind::First)),
        Expr::Opt(_) | Expr::PlayerCount | Expr::Neg(_) => Some(true),
        Expr::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod, ..) => Some(true),
        Expr::Bind(_, body) => numeric_side(g, phase, body),
        Expr::Cond(_, a, b) => numeric_side(g, phase, a).or_else(|| numeric_side(g, phase, b)),
        _ => None,
    }
}

/// Whether a side surely is a zone (a board's cell or another zone).
fn zone_side(g: &Graph, phase: u16, e: &Expr) -> bool {
    let t = &g.tables;
    let var = |id: &u16| t.vars.get(*id as usize).is_some_and(|v| v.ty == Ty::Zone);
    match e {
        Expr::Zone(..) => true,
        Expr::Call(b, _) => matches!(b, Builtin::Cell | Builtin::ZoneOf | Builtin::Shift),
        Expr::Global(v) | Expr::PerPlayer(v, _) | Expr::PerCard(v, _) => var(v),
        Expr::Local(s) => g
            .phases
            .get(phase as usize)
            .and_then(|p| p.local_types.get(*s as usize))
            .is_some_and(|ty| *ty == Ty::Zone),
        Expr::Bind(_, body) => zone_side(g, phase, body),
        Expr::Cond(_, a, b) => zone_side(g, phase, a) || zone_side(g, phase, b),
        _ => false,
    }
}

/// How far apart two zones are, as an expression: 0 when they are the
/// same zone, the king-step (Chebyshev) distance between their coordinates
/// when both are cells of a board (at least 1: two boards' cells may share
/// coordinates), [`FAR`] otherwise. An identity test of squares thus gets
/// nearer as a piece lands nearer the square it must land on.
pub(super) fn squares_apart(a: Expr, b: Expr) -> Expr {
    let coord = |which: Builtin, z: &Expr| Expr::Call(which, vec![z.clone()]);
    let gap = |which: Builtin| {
        let d = bin(BinOp::Sub, coord(which, &a), coord(which, &b));
        cond(
            bin(BinOp::Lt, d.clone(), int(0)),
            Expr::Neg(Box::new(d.clone())),
            d,
        )
    };
    let (dx, dy) = (gap(Builtin::XOf), gap(Builtin::YOf));
    let king = cond(bin(BinOp::Gt, dx.clone(), dy.clone()), dx, dy);
    let off = bin(
        BinOp::Or,
        bin(BinOp::Lt, coord(Builtin::XOf, &a), int(0)),
        bin(BinOp::Lt, coord(Builtin::XOf, &b), int(0)),
    );
    cond(
        bin(BinOp::Eq, a.clone(), b.clone()),
        int(0),
        cond(
            off,
            int(FAR),
            cond(
                bin(BinOp::Lt, king.clone(), int(1)),
                int(1),
                at_most(king, FAR - 1),
            ),
        ),
    )
}

pub(super) fn build(g: &Graph, phase: u16, e: &Expr, want: bool, binds: &[(u16, Expr)]) -> Dist {
    match e {
        Expr::Not(x) => build(g, phase, x, !want, binds),
        Expr::Bind(bs, body) => {
            let mut all = binds.to_vec();
            all.extend(bs.iter().cloned());
            build(g, phase, body, want, &all)
        }
        Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
            let sides = vec![
                build(g, phase, a, want, binds),
                build(g, phase, b, want, binds),
            ];
            // not (a and b) = not a or not b
            if (*op == BinOp::And) == want {
                Dist::And(sides)
            } else {
                Dist::Or(sides)
            }
        }
        Expr::Bin(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => {
            let op = if want { *op } else { negate(*op) };
            if op == BinOp::Eq && zone_side(g, phase, a) && zone_side(g, phase, b) {
                return Dist::Num(squares_apart(wrap(binds, a), wrap(binds, b)));
            }
            let numeric = numeric_side(g, phase, a) != Some(false)
                && numeric_side(g, phase, b) != Some(false);
            Dist::Cmp(op, wrap(binds, a), wrap(binds, b), numeric)
        }
        Expr::Agg {
            kind: kind @ (AggKind::Any | AggKind::All),
            slot,
            coll,
            filter: Some(f),
            body: None,
        } => Dist::Num(wrap(
            binds,
            &quantifier(g, phase, *kind, *slot, coll, f, want),
        )),
        _ => Dist::Leaf(wrap(binds, e), want),
    }
}

/// How far `any(x in coll where f)` (or `all`) is from being `want`, as an
/// expression: an `any` wanted false is as far as its witnesses
/// (`count(x in coll where f)`), an `all` wanted true as its
/// counter-examples (`count(x in coll where not f)`); an `any` wanted true
/// (an `all` wanted false) as near as the nearest element is to passing
/// (failing) `f`, [`FAR`] when `coll` is empty. Each is 0 exactly when the
/// quantifier is `want`.
fn quantifier(
    g: &Graph,
    phase: u16,
    kind: AggKind,
    slot: u16,
    coll: &Expr,
    f: &Expr,
    want: bool,
) -> Expr {
    // `any` wanted false and `all` wanted true both count the elements
    // whose filter is `kind == any`
    if want == (kind == AggKind::All) {
        let f = if kind == AggKind::All {
            Expr::Not(Box::new(f.clone()))
        } else {
            f.clone()
        };
        return Expr::Agg {
            kind: AggKind::Count,
            slot,
            coll: Box::new(coll.clone()),
            filter: Some(Box::new(f)),
            body: None,
        };
    }
    let each = as_expr(&build(g, phase, f, kind == AggKind::Any, &[]));
    nearest_of(slot, coll, each)
}

pub(super) fn int(v: u32) -> Expr {
    Expr::Int(v as i32)
}

pub(super) fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Bin(op, Box::new(a), Box::new(b))
}

pub(super) fn cond(c: Expr, a: Expr, b: Expr) -> Expr {
    Expr::Cond(Box::new(c), Box::new(a), Box::new(b))
}

pub(super) fn agg(
    kind: AggKind,
    slot: u16,
    coll: &Expr,
    filter: Option<Expr>,
    body: Option<Expr>,
) -> Expr {
    Expr::Agg {
        kind,
        slot,
        coll: Box::new(coll.clone()),
        filter: filter.map(Box::new),
        body: body.map(Box::new),
    }
}

/// `x` held to at most `cap`.
pub(super) fn at_most(x: Expr, cap: u32) -> Expr {
    cond(bin(BinOp::Gt, x.clone(), int(cap)), int(cap), x)
}

/// A distance as one expression of the language (0 when it holds), to be
/// taken the minimum of over a collection.
pub fn as_expr(d: &Dist) -> Expr {
    match d {
        Dist::Leaf(e, want) => {
            let holds = if *want {
                e.clone()
            } else {
                Expr::Not(Box::new(e.clone()))
            };
            cond(holds, int(0), int(FAR))
        }
        Dist::Cmp(op, a, b, numeric) => {
            let holds = bin(*op, a.clone(), b.clone());
            if !numeric {
                return cond(holds, int(0), int(FAR));
            }
            let (a, b) = (a.clone(), b.clone());
            let gap = match op {
                BinOp::Eq => cond(
                    bin(BinOp::Gt, a.clone(), b.clone()),
                    bin(BinOp::Sub, a.clone(), b.clone()),
                    bin(BinOp::Sub, b, a),
                ),
                BinOp::Ne => int(1),
                BinOp::Lt => bin(BinOp::Add, bin(BinOp::Sub, a, b), int(1)),
                BinOp::Le => bin(BinOp::Sub, a, b),
                BinOp::Gt => bin(BinOp::Add, bin(BinOp::Sub, b, a), int(1)),
                _ => bin(BinOp::Sub, b, a),
            };
            cond(holds, int(0), at_most(gap, FAR - 1))
        }
        Dist::And(ds) => ds
            .iter()
            .map(as_expr)
            .reduce(|a, b| bin(BinOp::Add, a, b))
            .unwrap_or(int(0)),
        Dist::Or(ds) => ds
            .iter()
            .map(as_expr)
            .reduce(|a, b| cond(bin(BinOp::Lt, a.clone(), b.clone()), a, b))
            .unwrap_or(int(0)),
        Dist::Num(e) => e.clone(),
    }
}

/// `min(body for slot in coll)`, [`FAR`] when `coll` is empty.
pub(super) fn nearest_of(slot: u16, coll: &Expr, body: Expr) -> Expr {
    let count = agg(AggKind::Count, slot, coll, None, None);
    cond(
        bin(BinOp::Eq, count, int(0)),
        int(FAR),
        agg(AggKind::Min, slot, coll, None, Some(body)),
    )
}
