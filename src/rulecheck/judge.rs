//! Judging every comparison of a rules file with the value sets of
//! `values.rs`: each phase is walked with what its locals can hold (a loop
//! over an enum binds its variable to the values its filter lets through, a
//! `let` assigned once to its value), and each comparison is evaluated once
//! for every combination of the enum loop variables it reads (at most 256).
//! A comparison that no combination makes true, or none makes false, is a
//! [`Site`]; so is a count compared with a threshold it cannot reach for
//! some of the values (`set_size[o]` for `o = cloak` only).

use super::values::{Abs, Site, Val, Values, bind_values, compare, enum_of, is_cmp};
use crate::check::hir::{Bind, Expr, Hir, Place, Stmt, StmtKind};
use crate::diag::Span;
use crate::graph::fmt_expr;
use crate::syntax::ast::{AggKind, BinOp};
use std::collections::BTreeMap;

type Env = Vec<Option<Val>>;

struct Judge<'a> {
    v: Values<'a>,
    hir: &'a Hir,
    text: &'a str,
    locals: &'a [String],
    /// Per local slot: the enum it ranges over, when bound by an enum loop.
    enum_slot: BTreeMap<u16, u16>,
    /// Local slots assigned more than once (their values are not tracked).
    reassigned: Vec<bool>,
    out: Vec<Site>,
}

/// Every comparison that is impossible one way.
pub fn comparisons(hir: &Hir, text: &str) -> Vec<Site> {
    let mut all: Vec<Site> = Vec::new();
    let params = param_values(hir);
    for (pi, p) in hir.procs.iter().enumerate() {
        let mut counts = vec![0u32; p.locals as usize + 1];
        super::values::walk_stmts(&p.body, &mut |s| {
            if let StmtKind::Assign(Place::Local(l), ..) = &s.kind
                && let Some(c) = counts.get_mut(*l as usize)
            {
                *c += 1;
            }
        });
        let mut j = Judge {
            v: Values::new(hir),
            hir,
            text,
            locals: &p.local_names,
            enum_slot: BTreeMap::new(),
            reassigned: counts.iter().map(|c| *c > 1).collect(),
            out: Vec::new(),
        };
        let mut env: Env = vec![None; p.locals as usize];
        for (i, v) in params[pi].iter().enumerate() {
            if let Some(v) = v
                && !v.is_top()
            {
                env[i] = Some(Val::Num(v.clone()));
            }
        }
        j.stmts(&p.body, &mut env);
        for s in j.out {
            if !all.iter().any(|x| x.span == s.span && x.text == s.text) {
                all.push(s);
            }
        }
    }
    all
}

/// Per phase, the values each parameter can get: the arguments of every
/// call, joined (evaluated without knowing the caller's locals).
fn param_values(hir: &Hir) -> Vec<Vec<Option<Abs>>> {
    let v = Values::new(hir);
    let mut out: Vec<Vec<Option<Abs>>> = hir
        .procs
        .iter()
        .map(|p| vec![None; p.params.len()])
        .collect();
    for p in &hir.procs {
        super::values::walk_stmts(&p.body, &mut |s| {
            if let StmtKind::Call(callee, args) = &s.kind
                && let Some(slots) = out.get_mut(*callee as usize)
            {
                for (slot, a) in slots.iter_mut().zip(args) {
                    let x = v.eval(a, &mut Vec::new());
                    *slot = Some(slot.take().map_or(x.clone(), |y| y.join(&x)));
                }
            }
        });
    }
    out
}

/// The first line of a span.
fn first_line(text: &str, span: Span) -> Span {
    let s = text
        .get(span.start as usize..span.end as usize)
        .unwrap_or("");
    let end = s.find('\n').unwrap_or(s.len());
    let line = &s[..end];
    let line = line.trim_end().trim_end_matches('{').trim_end();
    Span::new(span.start as usize, span.start as usize + line.len().max(1))
}

/// A comparison tried for every combination of its loop variables:
/// whether it was ever true or false, the combinations where it was not
/// true (named, with both sides), and the values each side took.
#[derive(Default)]
struct Tries {
    any_t: bool,
    any_f: bool,
    dead: Vec<(String, Abs, Abs)>,
    left: Option<Abs>,
    right: Option<Abs>,
}

impl Judge<'_> {
    fn stmts(&mut self, body: &[Stmt], env: &mut Env) {
        for s in body {
            self.stmt(s, env);
        }
    }

    /// Judge the comparisons in a statement and follow what it binds. One
    /// arm per kind of statement, so it is kept whole (a long match, one
    /// case each).
    fn stmt(&mut self, s: &Stmt, env: &mut Env) {
        let at = first_line(self.text, s.span);
        match &s.kind {
            StmtKind::Assign(place, _, e) => {
                self.expr(e, env, at);
                if let Place::Local(l) = place {
                    let v = if self.reassigned.get(*l as usize).copied().unwrap_or(true) {
                        None
                    } else {
                        self.v.bind_value(e, env)
                    };
                    Values::set_local(env, *l, v);
                }
            }
            StmtKind::If(c, a, b) => {
                self.expr(c, env, at);
                self.stmts(a, env);
                self.stmts(b, env);
            }
            StmtKind::While(c, b) => {
                self.expr(c, env, at);
                self.stmts(b, env);
            }
            StmtKind::Loop(b) => self.stmts(b, env),
            StmtKind::For(bind, b) => {
                if let Some(f) = &bind.filter {
                    Values::set_local(env, bind.slot, None);
                    self.expr(f, env, at);
                }
                self.bind(bind.slot, &bind.coll, bind_values(&self.v, bind, env), env);
                self.stmts(b, env);
            }
            StmtKind::Choose {
                arms, otherwise, ..
            } => {
                for a in arms {
                    let at = first_line(self.text, a.span);
                    if let Some(bind) = &a.bind {
                        if let Some((slot, coll)) = &a.also {
                            // A second source: all its values (the first unknown).
                            Values::set_local(env, bind.slot, None);
                            let all = Bind {
                                slot: *slot,
                                coll: coll.clone(),
                                filter: None,
                            };
                            let w = bind_values(&self.v, &all, env);
                            self.bind(*slot, coll, w, env);
                        }
                        let v = bind_values(&self.v, bind, env);
                        self.bind(bind.slot, &bind.coll, v, env);
                    }
                    if let Some(g) = &a.guard {
                        self.expr(g, env, at);
                    }
                    self.stmts(&a.body, env);
                }
                if let Some(o) = otherwise {
                    self.stmts(o, env);
                }
            }
            StmtKind::Window {
                slot, arms, filter, ..
            } => {
                Values::set_local(env, *slot, None);
                if let Some(f) = filter {
                    self.expr(f, env, at);
                }
                for a in arms {
                    self.stmts(&a.body, env);
                }
            }
            StmtKind::Move { what, to, .. } => {
                self.expr(what, env, at);
                self.expr(to, env, at);
            }
            StmtKind::Call(_, args) => {
                for a in args {
                    self.expr(a, env, at);
                }
            }
            _ => {}
        }
    }

    fn bind(&mut self, slot: u16, coll: &Expr, v: Option<Val>, env: &mut Env) {
        match coll {
            Expr::EnumAll(e) => {
                self.enum_slot.insert(slot, *e);
            }
            _ => {
                self.enum_slot.remove(&slot);
            }
        }
        Values::set_local(env, slot, v);
    }

    /// Look for comparisons inside `e`, judging each.
    fn expr(&mut self, e: &Expr, env: &mut Env, at: Span) {
        match e {
            Expr::Bin(op, a, b) => {
                if is_cmp(*op) {
                    self.judge(*op, a, b, env, at);
                }
                self.expr(a, env, at);
                self.expr(b, env, at);
            }
            Expr::Bind(args, body) => {
                // a function's body is judged for every argument it may
                // get, not for this call's (a parameter passed `none` here
                // is not a constant condition of the function)
                for (s, x) in args {
                    self.expr(x, env, at);
                    self.enum_slot.remove(s);
                    Values::set_local(env, *s, None);
                }
                self.expr(body, env, at);
            }
            Expr::Agg {
                slot,
                coll,
                filter,
                body,
                ..
            } => {
                self.expr(coll, env, at);
                let v = match coll.as_ref() {
                    Expr::EnumAll(en) => {
                        let n = self.hir.tables.enums[*en as usize].values.len() as i64;
                        Some(Val::Num(Abs::of(0..n)))
                    }
                    _ => None,
                };
                self.bind(*slot, coll, v, env);
                for x in [filter, body].into_iter().flatten() {
                    self.expr(x, env, at);
                }
            }
            Expr::Not(x) | Expr::Neg(x) | Expr::Attr(_, x) | Expr::Table(_, x) => {
                self.expr(x, env, at)
            }
            Expr::Cond(c, a, b) => {
                for x in [c, a, b] {
                    self.expr(x, env, at);
                }
            }
            Expr::Call(_, args) => {
                for a in args {
                    self.expr(a, env, at);
                }
            }
            _ => {}
        }
    }

    /// The enum loop variables that `a` and `b` read, each with its values
    /// (`None`: too many combinations to try).
    fn loop_vars(&self, a: &Expr, b: &Expr, env: &Env) -> Option<Vec<(u16, Vec<i64>)>> {
        let (mut slots, mut bound) = (Vec::new(), Vec::new());
        reads(a, &mut slots, &mut bound);
        reads(b, &mut slots, &mut bound);
        slots.sort_unstable();
        slots.dedup();
        let vars: Vec<(u16, Vec<i64>)> = slots
            .into_iter()
            .filter(|s| self.enum_slot.contains_key(s) && !bound.contains(s))
            .filter_map(|s| match env.get(s as usize) {
                Some(Some(Val::Num(x))) => x
                    .set
                    .as_ref()
                    .filter(|v| (2..=16).contains(&v.len()))
                    .map(|v| (s, v.iter().copied().collect())),
                _ => None,
            })
            .collect();
        let combos: usize = vars.iter().map(|(_, v)| v.len()).product();
        (combos <= 256).then_some(vars)
    }

    /// The comparison evaluated once for each combination of the loop
    /// variables' values (`env` is left as it was).
    fn tries(
        &self,
        (op, a, b): (BinOp, &Expr, &Expr),
        vars: &[(u16, Vec<i64>)],
        env: &mut Env,
    ) -> Tries {
        let combos: usize = vars.iter().map(|(_, v)| v.len()).product();
        let saved: Vec<Option<Val>> = vars.iter().map(|(s, _)| env[*s as usize].clone()).collect();
        let mut out = Tries::default();
        for k in 0..combos {
            let mut rest = k;
            let mut names = Vec::new();
            for (s, vals) in vars {
                let x = vals[rest % vals.len()];
                rest /= vals.len();
                Values::set_local(env, *s, Some(Val::Num(Abs::one(x))));
                names.push(self.name_value(*s, x));
            }
            let (x, y) = (self.v.eval(a, env), self.v.eval(b, env));
            let (t, f) = compare(op, &x, &y);
            out.any_t |= t;
            out.any_f |= f;
            if !t {
                out.dead.push((names.join(", "), x.clone(), y.clone()));
            }
            out.left = Some(out.left.map_or(x.clone(), |l| l.join(&x)));
            out.right = Some(out.right.map_or(y.clone(), |r| r.join(&y)));
        }
        for ((s, _), v) in vars.iter().zip(saved) {
            env[*s as usize] = v;
        }
        out
    }

    fn judge(&mut self, op: BinOp, a: &Expr, b: &Expr, env: &mut Env, at: Span) {
        let Some(vars) = self.loop_vars(a, b, env) else {
            return;
        };
        let Tries {
            any_t,
            any_f,
            dead,
            left,
            right,
        } = self.tries((op, a, b), &vars, env);
        let threshold = is_count(a) || is_count(b);
        let (Some(left), Some(right)) = (left, right) else {
            return;
        };
        if left.is_top() && right.is_top() {
            return;
        }
        let text = fmt_expr(
            &self.hir.tables,
            self.locals,
            &Expr::Bin(op, Box::new(a.clone()), Box::new(b.clone())),
        );
        // a function's expansion prints badly: name the comparison instead
        let text = match text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
            Some(t) if t.len() <= 60 && !t.contains('[') => format!("`{t}`"),
            _ => "this comparison".to_string(),
        };
        let names = |e: &Expr| {
            enum_of(self.hir, e).map(|en| self.hir.tables.enums[en as usize].values.clone())
        };
        let (ln, rn) = (names(a), names(b));
        let site = |never: bool, only_for: Vec<String>, l: &Abs, r: &Abs| Site {
            span: at,
            text: text.clone(),
            threshold,
            never,
            left: l.show(ln.as_deref().or(rn.as_deref())),
            right: r.show(rn.as_deref().or(ln.as_deref())),
            only_for,
        };
        if !any_t {
            self.out.push(site(true, Vec::new(), &left, &right));
        } else if !any_f {
            self.out.push(site(false, Vec::new(), &left, &right));
        } else if threshold && !dead.is_empty() && !vars.is_empty() {
            let (_, l, r) = &dead[0];
            let only: Vec<String> = dead.iter().map(|d| d.0.clone()).collect();
            self.out.push(site(true, only, l, r));
        }
    }

    fn name_value(&self, slot: u16, x: i64) -> String {
        let var = self
            .locals
            .get(slot as usize)
            .cloned()
            .unwrap_or_else(|| format!("${slot}"));
        let val = self
            .enum_slot
            .get(&slot)
            .and_then(|e| self.hir.tables.enums[*e as usize].values.get(x as usize))
            .cloned()
            .unwrap_or_else(|| x.to_string());
        format!("{var} = {val}")
    }
}

/// Whether an expression is a count (possibly inside a function's expansion).
fn is_count(e: &Expr) -> bool {
    match e {
        Expr::Agg {
            kind: AggKind::Count,
            ..
        } => true,
        Expr::Bind(_, b) => is_count(b),
        _ => false,
    }
}

/// The local slots an expression reads (through function expansions too),
/// and those it binds itself.
fn reads(e: &Expr, out: &mut Vec<u16>, bound: &mut Vec<u16>) {
    match e {
        Expr::Local(s) => out.push(*s),
        Expr::Bind(args, _) => bound.extend(args.iter().map(|(s, _)| *s)),
        Expr::Agg { slot, .. } => bound.push(*slot),
        _ => {}
    }
    e.for_each_child(|x| reads(x, out, bound));
}
