//! The values an expression can take, worked out from the rules alone: card
//! attributes from the cards the decks hold, options from their ranges,
//! variables from their initial value and every write, counts from how many
//! cards (or enum values) can pass a filter. A value is an interval with,
//! when small, its exact set ([`Abs`]). Every comparison of every phase is
//! judged (`judge.rs`): whether it can be true and whether it can be
//! false, once for each value of the enum loop variables it depends on (so
//! `count(...) >= set_size[o]` is judged object by object). The lints
//! `constant-condition` and `unreachable-threshold` report what this finds.

use crate::check::hir::{Bind, Builtin, Expr, Hir, Place, Stmt, StmtKind, Ty};
use crate::diag::Span;
use crate::syntax::ast::{AggKind, AssignOp, BinOp};
use std::collections::BTreeSet;

/// Sets larger than this are kept as intervals only.
const SET_CAP: usize = 64;
const INF: i64 = i64::MAX / 4;

/// An over-approximation of the values of an integer expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abs {
    pub lo: i64,
    pub hi: i64,
    /// The exact values, when few.
    pub set: Option<BTreeSet<i64>>,
}

impl Abs {
    pub fn top() -> Abs {
        Abs {
            lo: -INF,
            hi: INF,
            set: None,
        }
    }
    pub fn one(v: i64) -> Abs {
        Abs::of([v])
    }
    pub fn range(lo: i64, hi: i64) -> Abs {
        if hi >= lo && hi - lo < SET_CAP as i64 {
            return Abs::of(lo..=hi);
        }
        Abs { lo, hi, set: None }
    }
    pub fn of(vals: impl IntoIterator<Item = i64>) -> Abs {
        let s: BTreeSet<i64> = vals.into_iter().collect();
        let (Some(&lo), Some(&hi)) = (s.first(), s.last()) else {
            return Abs::top();
        };
        Abs {
            lo,
            hi,
            set: (s.len() <= SET_CAP).then_some(s),
        }
    }
    pub fn is_top(&self) -> bool {
        self.lo <= -INF && self.hi >= INF
    }
    pub fn join(&self, o: &Abs) -> Abs {
        let set = match (&self.set, &o.set) {
            (Some(a), Some(b)) if a.len() + b.len() <= SET_CAP * 2 => {
                let u: BTreeSet<i64> = a.union(b).copied().collect();
                (u.len() <= SET_CAP).then_some(u)
            }
            _ => None,
        };
        Abs {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
            set,
        }
    }
    fn bools(may_true: bool, may_false: bool) -> Abs {
        match (may_true, may_false) {
            (true, true) => Abs::of([0, 1]),
            (true, false) => Abs::one(1),
            _ => Abs::one(0),
        }
    }
    fn may_true(&self) -> bool {
        self.set.as_ref().is_none_or(|s| s.iter().any(|v| *v != 0))
    }
    fn may_false(&self) -> bool {
        self.set
            .as_ref()
            .map_or(self.lo <= 0 && 0 <= self.hi, |s| s.contains(&0))
    }
    /// A short text of the values: `1, 2, 3` or `0..42` (names for an enum).
    pub fn show(&self, names: Option<&[String]>) -> String {
        let name = |v: i64| match names.and_then(|n| n.get(v as usize)) {
            Some(n) if v >= 0 => n.clone(),
            _ => v.to_string(),
        };
        if let Some(s) = &self.set
            && s.len() <= 12
        {
            return s.iter().map(|v| name(*v)).collect::<Vec<_>>().join(", ");
        }
        let end = |v: i64| {
            if v.abs() >= INF {
                "∞".to_string()
            } else {
                v.to_string()
            }
        };
        format!("{}..{}", end(self.lo), end(self.hi))
    }
}

/// Whether `a OP b` may be true and may be false.
pub(super) fn compare(op: BinOp, a: &Abs, b: &Abs) -> (bool, bool) {
    let test = |x: i64, y: i64| match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        _ => x >= y,
    };
    if let (Some(sa), Some(sb)) = (&a.set, &b.set) {
        let (mut t, mut f) = (false, false);
        for x in sa {
            for y in sb {
                if test(*x, *y) { t = true } else { f = true }
            }
        }
        return (t, f);
    }
    let overlap = a.lo <= b.hi && b.lo <= a.hi;
    let single = a.lo == a.hi && b.lo == b.hi;
    match op {
        BinOp::Eq => (overlap, !(single && a.lo == b.lo)),
        BinOp::Ne => (!(single && a.lo == b.lo), overlap),
        BinOp::Lt => (a.lo < b.hi, a.hi >= b.lo),
        BinOp::Le => (a.lo <= b.hi, a.hi > b.lo),
        BinOp::Gt => (a.hi > b.lo, a.lo <= b.hi),
        _ => (a.hi >= b.lo, a.lo < b.hi),
    }
}

pub(super) fn is_cmp(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

/// What a local slot holds during the analysis.
#[derive(Clone, Debug)]
pub(super) enum Val {
    Num(Abs),
    /// One particular card (inside a count over cards).
    Card(usize),
}

/// The analysis of one file.
pub struct Values<'a> {
    pub(super) hir: &'a Hir,
    /// Per variable: every value it can hold.
    vars: Vec<Abs>,
    /// Per attribute: the values the cards carry.
    attrs: Vec<Abs>,
}

/// A comparison judged impossible one way, for some or every value of the
/// loop variables it depends on.
#[derive(Clone, Debug)]
pub struct Site {
    /// The statement (or choice option) holding it: its first line.
    /// `text` is the comparison in backquotes, or `this comparison`.
    pub span: Span,
    pub text: String,
    /// Whether it compares a count with a threshold.
    pub threshold: bool,
    /// `Some(true)`: can never be true; `Some(false)`: can never be false.
    pub never: bool,
    /// The values of each side (for every assignment judged).
    pub left: String,
    pub right: String,
    /// For a comparison impossible only for some loop values: which
    /// (`o = cloak`); empty when impossible for every one.
    pub only_for: Vec<String>,
}

impl<'a> Values<'a> {
    pub fn new(hir: &'a Hir) -> Values<'a> {
        let t = &hir.tables;
        let na = t.attrs.len();
        let attrs = (0..na)
            .map(|a| Abs::of((0..t.cards.len()).map(|c| t.card_attrs[c * na + a] as i64)))
            .collect();
        let mut v = Values {
            hir,
            vars: vec![Abs::top(); t.vars.len()],
            attrs,
        };
        // Each variable: its initial value joined with every write (other
        // variables read as anything: one pass, no fixpoint).
        let mut acc: Vec<Option<Abs>> = t
            .vars
            .iter()
            .map(|x| Some(v.eval(&x.init, &mut Vec::new())))
            .collect();
        for p in &hir.procs {
            walk_stmts(&p.body, &mut |s| {
                if let StmtKind::Assign(
                    Place::Global(i) | Place::PerPlayer(i, _) | Place::PerCard(i, _),
                    op,
                    e,
                ) = &s.kind
                {
                    let val = v.eval(e, &mut Vec::new());
                    let slot = &mut acc[*i as usize];
                    if let Some(cur) = slot.take() {
                        *slot = match op {
                            AssignOp::Set => Some(cur.join(&val)),
                            AssignOp::Add if val.lo >= 0 => Some(Abs::range(cur.lo, INF)),
                            AssignOp::Sub if val.lo >= 0 => Some(Abs::range(-INF, cur.hi)),
                            _ => None,
                        };
                    }
                }
            });
        }
        v.vars = acc
            .into_iter()
            .zip(&t.vars)
            .map(|(a, info)| match (a, info.ty) {
                (_, Ty::Player | Ty::Card | Ty::Zone) => Abs::top(),
                (Some(a), _) => a,
                (None, _) => Abs::top(),
            })
            .collect();
        v
    }

    fn local(env: &[Option<Val>], s: u16) -> Option<&Val> {
        env.get(s as usize).and_then(|x| x.as_ref())
    }

    pub(super) fn set_local(env: &mut Vec<Option<Val>>, s: u16, v: Option<Val>) {
        let s = s as usize;
        if env.len() <= s {
            env.resize(s + 1, None);
        }
        env[s] = v;
    }

    /// The values of `e` with the locals of `env`. One arm per kind of
    /// expression, so it is kept whole (a long match, one case each).
    pub(super) fn eval(&self, e: &Expr, env: &mut Vec<Option<Val>>) -> Abs {
        let t = &self.hir.tables;
        let ncards = t.cards.len() as i64;
        match e {
            Expr::Int(i) => Abs::one(*i as i64),
            Expr::Nothing => Abs::one(-1),
            Expr::Opt(o) => {
                let o = &t.options[*o as usize];
                Abs::range(o.min as i64, o.max as i64)
            }
            Expr::Global(v) | Expr::PerPlayer(v, _) | Expr::PerCard(v, _) => {
                self.vars[*v as usize].clone()
            }
            Expr::Local(s) => match Self::local(env, *s) {
                Some(Val::Num(a)) => a.clone(),
                _ => Abs::top(),
            },
            Expr::Table(tb, k) => {
                let tb = &t.tables[*tb as usize];
                let keys = self.eval(k, env);
                match &keys.set {
                    Some(s) => Abs::of(
                        s.iter()
                            .filter_map(|k| tb.values.get(*k as usize).map(|v| *v as i64)),
                    ),
                    None => Abs::of(tb.values.iter().map(|v| *v as i64)),
                }
            }
            Expr::Attr(a, c) => match c.as_ref() {
                Expr::Local(s) if matches!(Self::local(env, *s), Some(Val::Card(_))) => {
                    let Some(Val::Card(id)) = Self::local(env, *s) else {
                        unreachable!()
                    };
                    Abs::one(t.card_attrs[id * t.attrs.len() + *a as usize] as i64)
                }
                _ => self.attrs[*a as usize].clone(),
            },
            Expr::PlayerCount => Abs::range(t.min_players as i64, t.max_players as i64),
            Expr::Not(x) => {
                let x = self.eval(x, env);
                Abs::bools(x.may_false(), x.may_true())
            }
            Expr::Neg(x) => {
                let x = self.eval(x, env);
                match &x.set {
                    Some(s) => Abs::of(s.iter().map(|v| -v)),
                    None => Abs::range(-x.hi, -x.lo),
                }
            }
            Expr::Cond(c, a, b) => {
                let c = self.eval(c, env);
                match (c.may_true(), c.may_false()) {
                    (true, false) => self.eval(a, env),
                    (false, true) => self.eval(b, env),
                    _ => self.eval(a, env).join(&self.eval(b, env)),
                }
            }
            Expr::Bind(args, body) => {
                for (s, x) in args {
                    let v = self.bind_value(x, env);
                    Self::set_local(env, *s, v);
                }
                self.eval(body, env)
            }
            Expr::Bin(op, a, b) => self.bin(*op, a, b, env),
            Expr::Call(f, args) => match f {
                Builtin::Size => Abs::range(0, ncards),
                Builtin::Pos => Abs::range(-1, ncards - 1),
                Builtin::Random => {
                    let (a, b) = (self.eval(&args[0], env), self.eval(&args[1], env));
                    Abs::range(a.lo, b.hi)
                }
                Builtin::Knows | Builtin::InZone | Builtin::Would => Abs::of([0, 1]),
                _ => Abs::top(),
            },
            Expr::Agg {
                kind,
                slot,
                coll,
                filter,
                body,
            } => self.agg(*kind, *slot, coll, filter.as_deref(), body.as_deref(), env),
            _ => Abs::top(),
        }
    }

    /// A local bound to an expression: a card stays a card.
    pub(super) fn bind_value(&self, x: &Expr, env: &mut Vec<Option<Val>>) -> Option<Val> {
        if let Expr::Local(s) = x
            && let Some(v @ Val::Card(_)) = Self::local(env, *s)
        {
            return Some(v.clone());
        }
        Some(Val::Num(self.eval(x, env)))
    }

    fn bin(&self, op: BinOp, a: &Expr, b: &Expr, env: &mut Vec<Option<Val>>) -> Abs {
        let (x, y) = (self.eval(a, env), self.eval(b, env));
        match op {
            BinOp::And => Abs::bools(x.may_true() && y.may_true(), x.may_false() || y.may_false()),
            BinOp::Or => Abs::bools(x.may_true() || y.may_true(), x.may_false() && y.may_false()),
            op if is_cmp(op) => {
                let (t, f) = compare(op, &x, &y);
                Abs::bools(t, f)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let f = |p: i64, q: i64| match op {
                    BinOp::Add => p.saturating_add(q),
                    BinOp::Sub => p.saturating_sub(q),
                    _ => p.saturating_mul(q),
                };
                if let (Some(sa), Some(sb)) = (&x.set, &y.set)
                    && sa.len() * sb.len() <= 256
                {
                    return Abs::of(sa.iter().flat_map(|p| sb.iter().map(move |q| f(*p, *q))));
                }
                if x.is_top() || y.is_top() || op == BinOp::Mul {
                    return Abs::top();
                }
                match op {
                    BinOp::Add => Abs::range(f(x.lo, y.lo), f(x.hi, y.hi)),
                    _ => Abs::range(f(x.lo, y.hi), f(x.hi, y.lo)),
                }
            }
            _ => Abs::top(),
        }
    }

    fn agg(
        &self,
        kind: AggKind,
        slot: u16,
        coll: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        env: &mut Vec<Option<Val>>,
    ) -> Abs {
        let t = &self.hir.tables;
        // the elements the filter may let through, each bound in turn
        let elems: Vec<Val> = match coll {
            Expr::Zone(..) | Expr::ZoneAll(_) => (0..t.cards.len()).map(Val::Card).collect(),
            Expr::EnumAll(e) => (0..t.enums[*e as usize].values.len() as i64)
                .map(|v| Val::Num(Abs::one(v)))
                .collect(),
            _ => {
                return match kind {
                    AggKind::Any | AggKind::All => Abs::of([0, 1]),
                    _ => Abs::top(),
                };
            }
        };
        let saved = Self::local(env, slot).cloned();
        let (mut may, mut must) = (0i64, 0i64);
        let mut bodies: Option<Abs> = None;
        let mut sum = (0i64, 0i64);
        for el in elems {
            Self::set_local(env, slot, Some(el));
            let f = filter.map_or(Abs::one(1), |f| self.eval(f, env));
            if !f.may_true() {
                continue;
            }
            may += 1;
            must += i64::from(!f.may_false());
            if let Some(b) = body {
                let v = self.eval(b, env);
                sum = (sum.0 + v.lo.min(0), sum.1 + v.hi.max(0));
                bodies = Some(bodies.map_or(v.clone(), |x| x.join(&v)));
            }
        }
        Self::set_local(env, slot, saved);
        let cards = matches!(coll, Expr::Zone(..) | Expr::ZoneAll(_));
        match kind {
            AggKind::Count => Abs::range(if cards { 0 } else { must }, may),
            AggKind::Any => Abs::bools(may > 0, cards || must == 0),
            AggKind::All => Abs::of([0, 1]),
            AggKind::Sum if sum.0 > -INF && sum.1 < INF => Abs::range(sum.0, sum.1),
            AggKind::Min | AggKind::Max if !cards && must > 0 => bodies.unwrap_or_else(Abs::top),
            _ => Abs::top(),
        }
    }
}

/// Every statement of a body, depth first.
pub(super) fn walk_stmts(body: &[Stmt], f: &mut impl FnMut(&Stmt)) {
    for s in body {
        f(s);
        match &s.kind {
            StmtKind::If(_, a, b) => {
                walk_stmts(a, f);
                walk_stmts(b, f);
            }
            StmtKind::Loop(b) | StmtKind::While(_, b) | StmtKind::For(_, b) => walk_stmts(b, f),
            StmtKind::Choose {
                arms, otherwise, ..
            } => {
                for a in arms {
                    walk_stmts(&a.body, f);
                }
                if let Some(o) = otherwise {
                    walk_stmts(o, f);
                }
            }
            StmtKind::Window { arms, .. } => {
                for a in arms {
                    walk_stmts(&a.body, f);
                }
            }
            _ => {}
        }
    }
}

/// The enum type of an expression, when it is one (for naming values).
pub(super) fn enum_of(hir: &Hir, e: &Expr) -> Option<u16> {
    let t = &hir.tables;
    let ty = match e {
        Expr::Attr(a, _) => t.attrs[*a as usize].ty,
        Expr::Global(v) | Expr::PerPlayer(v, _) | Expr::PerCard(v, _) => t.vars[*v as usize].ty,
        Expr::Bind(_, b) => return enum_of(hir, b),
        Expr::Cond(_, a, b) => return enum_of(hir, a).or_else(|| enum_of(hir, b)),
        _ => return None,
    };
    match ty {
        Ty::Enum(e) => Some(e),
        _ => None,
    }
}

/// Whether a bind ranges over an enum (its values, after the filter).
pub(super) fn bind_values(v: &Values, b: &Bind, env: &mut Vec<Option<Val>>) -> Option<Val> {
    match &b.coll {
        Expr::EnumAll(e) => {
            let n = v.hir.tables.enums[*e as usize].values.len() as i64;
            let mut keep = Vec::new();
            for x in 0..n {
                Values::set_local(env, b.slot, Some(Val::Num(Abs::one(x))));
                let ok = b.filter.as_ref().is_none_or(|f| v.eval(f, env).may_true());
                if ok {
                    keep.push(x);
                }
            }
            Some(Val::Num(Abs::of(keep)))
        }
        Expr::Bin(BinOp::Range, lo, hi) => {
            let (lo, hi) = (v.eval(lo, env), v.eval(hi, env));
            Some(Val::Num(Abs::range(lo.lo, hi.hi)))
        }
        _ => None,
    }
}
