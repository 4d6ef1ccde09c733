//! The values each phase's parameters can get, with a column's options
//! fixed (for `fixed.rs`): the join of the arguments of every call,
//! evaluated where the call is (inside its loops, choices and `let`s,
//! where the conditions around it may hold), to a fixpoint over the calls.

use super::fixed::{Binder, Fixed, Known, MAX_VALUES, Scope};
use super::gate::Need;
use crate::hir::{Expr, ProcKind, Stmt, StmtKind};

/// Rounds of the fixpoint over the phases' parameters.
const ROUNDS: usize = 16;

impl<'a> Fixed<'a> {
    /// Per phase, per parameter: the join of its calls' arguments.
    pub(super) fn param_values(&self) -> Vec<Scope> {
        // a phase is entered by its calls; other procedures by the engine
        let mut params: Vec<Scope> = self
            .hir
            .procs
            .iter()
            .map(|p| match p.kind {
                ProcKind::Phase => vec![Some(Known::default()); p.params.len()],
                _ => vec![None; p.params.len()],
            })
            .collect();
        for _ in 0..ROUNDS {
            let mut next = params.clone();
            let me = Fixed {
                hir: self.hir,
                opts: self.opts.clone(),
                players: self.players,
                swept: self.swept.clone(),
                swept_read: self.swept_read.clone(),
                holds: self.holds.clone(),
                cut: self.cut.clone(),
                locals: self.locals.clone(),
                params: params.clone(),
                assigned: self.assigned.clone(),
            };
            for (pi, p) in self.hir.procs.iter().enumerate() {
                me.calls(pi, &p.body, &mut Vec::new(), &[], &mut next);
            }
            if next == params {
                return params;
            }
            params = next;
        }
        // no fixpoint: nothing is known of the parameters
        self.hir
            .procs
            .iter()
            .map(|p| vec![None; p.params.len()])
            .collect()
    }

    /// Join the arguments of the calls in `body` (inside `binds`, where
    /// `needs` hold) into `out`.
    fn calls<'b>(
        &self,
        pi: usize,
        body: &'b [Stmt],
        binds: &mut Vec<Binder<'b>>,
        needs: &[Need<'b>],
        out: &mut [Scope],
    ) {
        let mark = binds.len();
        for s in body {
            let and = |e: Option<&'b Expr>, want: bool| {
                let mut v = needs.to_vec();
                if let Some(e) = e {
                    super::gate::needs(e, want, &mut v);
                }
                v
            };
            match &s.kind {
                StmtKind::Call(callee, args) => {
                    let scope = self.scope(pi, binds);
                    let Some(slots) = out.get_mut(*callee as usize) else {
                        continue;
                    };
                    for (slot, a) in slots.iter_mut().zip(args) {
                        let v = self.values(a, needs, &scope);
                        *slot = match (slot.take(), v) {
                            (Some(mut x), Some(y)) if x.vals.len() + y.vals.len() <= MAX_VALUES => {
                                x.vals.extend(y.vals);
                                x.read.extend(y.read);
                                Some(x)
                            }
                            _ => None,
                        };
                    }
                }
                StmtKind::Assign(crate::hir::Place::Local(l), _, e) => {
                    binds.push(Binder::Let(*l, e))
                }
                StmtKind::If(c, a, b) => {
                    self.calls(pi, a, binds, &and(Some(c), true), out);
                    self.calls(pi, b, binds, &and(Some(c), false), out);
                }
                StmtKind::While(c, b) => self.calls(pi, b, binds, &and(Some(c), true), out),
                StmtKind::For(b, inner) => {
                    binds.push(Binder::Each(b));
                    self.calls(pi, inner, binds, &and(b.filter.as_ref(), true), out);
                    binds.pop();
                }
                StmtKind::Choose { arms, .. } | StmtKind::Window { arms, .. } => {
                    for a in arms {
                        if let Some(b) = &a.bind {
                            binds.push(Binder::Each(b));
                        }
                        let mut own = needs.to_vec();
                        for e in a
                            .guard
                            .iter()
                            .chain(a.bind.iter().flat_map(|b| b.filter.iter()))
                        {
                            super::gate::needs(e, true, &mut own);
                        }
                        self.calls(pi, &a.body, binds, &own, out);
                        if a.bind.is_some() {
                            binds.pop();
                        }
                    }
                    if let StmtKind::Choose {
                        otherwise: Some(o), ..
                    } = &s.kind
                    {
                        self.calls(pi, o, binds, needs, out);
                    }
                }
                _ => {
                    for b in super::flow::child_blocks(s) {
                        self.calls(pi, b, binds, needs, out);
                    }
                }
            }
        }
        binds.truncate(mark);
    }
}
