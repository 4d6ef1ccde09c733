//! `never-fired`: rules that can run (the static lints found no reason
//! they cannot) but did not, in any game of the simulation: phases and
//! reactions never called, statements never executed, and choice options
//! never taken. Coverage comes from the engine's observed runs: every
//! action-graph node executed is counted, and every arm chosen.
//!
//! Findings are mapped back to the HIR: a run of statements that never ran
//! is one finding; inside an option never chosen or a phase never called
//! nothing more is reported (a phase that never ran is explained by its
//! calls that never ran; only a reaction, which has no call, is reported
//! itself); code the static lints call dead is left to them. An `if` whose branch never ran, or a loop whose body never did,
//! gets a second label on its head.
//!
//! Code that could not run with the run's options (its gate needs a
//! condition on options that fails in every column: `if duel == 1 and ...`
//! with `duel = 0`) is not a finding but a note ([`Gated`]); see
//! `rulecheck/gate.rs`.

use super::{Context, Level, Lint, Pass};
use crate::check::hir::{Arm, Place, ProcKind, Stmt, StmtKind};
use crate::diag::{Diagnostic, Span};
use crate::graph::{Node, Phase};
use crate::rulecheck::fixed::{Binder, Fixed, Scope};
use crate::rulecheck::flow;
use crate::rulecheck::gate::{self, Need};
use crate::rulecheck::stats::Layout;
use std::cell::OnceCell;
use std::collections::BTreeSet;
use std::rc::Rc;

pub static LINT: Lint = Lint {
    name: "never-fired",
    level: Level::Warning,
    description: "a phase, statement or choice option that never ran in the simulated games",
    help: "check the conditions that lead here; if it is only rare, run more games (--games), or silence it with `# rulecheck: allow(never-fired)`",
    pass: Pass::Simulation,
};

/// What was counted, and how to say how many games it was.
pub struct Coverage<'a> {
    pub layout: &'a Layout,
    pub nodes: &'a [u64],
    pub arms: &'a [u64],
    /// "1000 games", "4000 games (4 columns)".
    pub games: String,
    /// Each column's option values and player count.
    pub columns: Vec<(&'a [i32], usize)>,
}

/// Code that never ran behind a gate that the run's options close.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gated {
    pub span: Span,
    /// The options the failing condition reads (indices).
    pub options: Vec<u16>,
    /// Whether the options switch it off only through what its conditions
    /// read (a card's attribute, a function, a phase's parameter).
    pub through: bool,
}

/// The conditions an option of a choice needs to be offered.
fn arm_needs(a: &Arm) -> Vec<Need<'_>> {
    let mut v = Vec::new();
    for e in a
        .guard
        .iter()
        .chain(a.bind.iter().flat_map(|b| b.filter.iter()))
    {
        gate::needs(e, true, &mut v);
    }
    v
}

struct Walk<'a, 'b> {
    cx: &'a Context<'b>,
    cov: &'a Coverage<'a>,
    phase: usize,
    ph: &'a Phase,
    live: &'a [bool],
    out: &'a mut Vec<Diagnostic>,
    gated: &'a mut Vec<Gated>,
    /// The loops and choices around the code walked, outermost first.
    binds: Vec<Binder<'b>>,
    /// Each column's partial evaluation, made when first needed.
    fixed: &'a OnceCell<Vec<Rc<Fixed<'b>>>>,
}

/// The findings of a simulation whose counts are `cov`; code behind gates
/// on fixed options goes to `gated`.
pub fn run(cx: &Context, cov: &Coverage, out: &mut Vec<Diagnostic>, gated: &mut Vec<Gated>) {
    let live = cx.liveness();
    let fixed = OnceCell::new();
    for (i, proc) in cx.hir.procs.iter().enumerate() {
        let (Some(ph), Some(live_nodes)) = (cx.graph.phases.get(i), live.nodes.get(i)) else {
            continue;
        };
        if !live.phases.get(i).copied().unwrap_or(false) && proc.kind != ProcKind::Start {
            continue; // unreachable-phase
        }
        let base = cov.layout.node_base[i];
        let ran = cov.nodes[base..base + ph.nodes.len()]
            .iter()
            .any(|n| *n > 0);
        if !ran {
            // A phase or turn runs when a call to it runs: the calls that
            // never ran are reported (or noted) where they are. A reaction
            // has no call: it is reported itself.
            if proc.kind == ProcKind::Reaction {
                out.push(LINT.at(
                    ph.span,
                    format!("reaction `{}` never ran in {}", ph.name, cov.games),
                    "no card ever entered the zone that opens it",
                ));
            }
            continue;
        }
        let mut w = Walk {
            cx,
            cov,
            phase: i,
            ph,
            live: live_nodes,
            out,
            gated,
            binds: Vec::new(),
            fixed: &fixed,
        };
        w.block(&proc.body, None, &[]);
    }
}

#[derive(PartialEq)]
enum Ran {
    Yes,
    No,
    /// Cannot run at all (left to `unreachable-node`).
    Dead,
}

impl<'a, 'b> Walk<'a, 'b> {
    fn ran(&self, s: &Stmt) -> Ran {
        let base = self.cov.layout.node_base[self.phase];
        let (mut any_live, mut any) = (false, false);
        for (n, span) in self.ph.spans.iter().enumerate() {
            if span.start >= s.span.start && span.end <= s.span.end {
                any = true;
                if self.cov.nodes[base + n] > 0 {
                    return Ran::Yes;
                }
                any_live |= self.live[n];
            }
        }
        if any && !any_live { Ran::Dead } else { Ran::No }
    }

    /// Whether code that needs `needs` and never ran was switched off by
    /// the run's options: then it is noted in `gated` and true is returned.
    fn switched_off(&mut self, span: Span, needs: &[Need]) -> bool {
        if let Some(options) = gate::switched_off(needs, &self.cov.columns) {
            self.gated.push(Gated {
                span,
                options,
                through: false,
            });
            return true;
        }
        if self.cov.columns.is_empty() {
            return false;
        }
        // through what the conditions read, all together, or through a
        // loop's or choice's collection that can hold nothing
        let cx = self.cx;
        let fixed = self.fixed.get_or_init(|| {
            let cols = &self.cov.columns;
            cols.iter().map(|(o, p)| cx.fixed(o, *p)).collect()
        });
        let mut read = BTreeSet::new();
        for f in fixed {
            let scope = f.scope(self.phase, &self.binds);
            if let Some(r) = nothing_bound(&self.binds, &scope) {
                read.extend(r);
                continue;
            }
            if needs.is_empty() {
                return false;
            }
            let (holds, r) = f.can_hold(needs, &scope);
            if holds {
                return false;
            }
            read.extend(r);
        }
        if read.is_empty() {
            return false; // the rules' own doing
        }
        self.gated.push(Gated {
            span,
            options: read.into_iter().collect(),
            through: true,
        });
        true
    }

    /// `head`: a label for the statement that owns this block, used when
    /// none of the block ran; `needs`: what the block needs to run (its
    /// own condition and those of the blocks around it).
    fn block(&mut self, stmts: &'b [Stmt], head: Option<(Span, &str)>, needs: &[Need<'b>]) {
        let mark = self.binds.len();
        self.statements(stmts, head, needs);
        self.binds.truncate(mark);
    }

    fn statements(&mut self, stmts: &'b [Stmt], head: Option<(Span, &str)>, needs: &[Need<'b>]) {
        let mut i = 0;
        while i < stmts.len() {
            if let StmtKind::Assign(Place::Local(l), _, e) = &stmts[i].kind {
                self.binds.push(Binder::Let(*l, e));
            }
            match self.ran(&stmts[i]) {
                Ran::Dead => i += 1,
                Ran::Yes => {
                    self.inside(&stmts[i], needs);
                    i += 1;
                }
                Ran::No => {
                    let first = i;
                    while i < stmts.len() && self.ran(&stmts[i]) == Ran::No {
                        i += 1;
                    }
                    let span = stmts[first].span.to(stmts[i - 1].span);
                    if self.switched_off(span, needs) {
                        continue;
                    }
                    let what = if i - first == 1 {
                        "this statement never ran"
                    } else {
                        "these statements never ran"
                    };
                    let mut d = LINT.at(span, format!("never ran in {}", self.cov.games), what);
                    let whole = first == 0 && i == stmts.len();
                    if let (true, Some((span, text))) = (whole, head) {
                        d = d.label(span, text);
                    }
                    self.out.push(d);
                }
            }
        }
    }

    /// Look inside a statement that ran (inside blocks that need `needs`).
    fn inside(&mut self, s: &'b Stmt, needs: &[Need<'b>]) {
        let head =
            |word: &str| Span::new(s.span.start as usize, s.span.start as usize + word.len());
        let and = |e: Option<&'b crate::check::hir::Expr>, want: bool| {
            let mut v = needs.to_vec();
            if let Some(e) = e {
                gate::needs(e, want, &mut v);
            }
            v
        };
        match &s.kind {
            StmtKind::If(c, then, els) => {
                let head = head("if");
                let (yes, no) = (and(Some(c), true), and(Some(c), false));
                self.block(then, Some((head, "this condition was never true")), &yes);
                self.block(els, Some((head, "this condition was always true")), &no);
            }
            StmtKind::While(c, body) => {
                let head = Some((head("while"), "this condition was never true"));
                self.block(body, head, &and(Some(c), true));
            }
            StmtKind::For(b, body) => {
                let head = Some((head("for"), "this loop never had anything to go through"));
                let yes = and(b.filter.as_ref(), true);
                self.binds.push(Binder::Each(b));
                self.block(body, head, &yes);
                self.binds.pop();
            }
            StmtKind::Choose {
                arms, otherwise, ..
            } => {
                self.arms(s.span, arms, needs);
                if let Some(o) = otherwise {
                    let head = Some((head("choose"), "there was always an option"));
                    self.block(o, head, needs);
                }
            }
            StmtKind::Window { arms, .. } => self.arms(s.span, arms, needs),
            _ => {
                for b in flow::child_blocks(s) {
                    self.block(b, None, needs);
                }
            }
        }
    }

    fn arms(&mut self, choose: Span, arms: &'b [Arm], needs: &[Need<'b>]) {
        let node = self
            .ph
            .nodes
            .iter()
            .zip(&self.ph.spans)
            .position(|(n, span)| matches!(n, Node::Choose { .. }) && *span == choose);
        for (j, a) in arms.iter().enumerate() {
            let taken = node.is_none_or(|node| {
                self.cov
                    .layout
                    .arm(self.phase as u16, node as u32, j as u16)
                    .is_none_or(|k| self.cov.arms[k] > 0)
            });
            let mut own = needs.to_vec();
            own.extend(arm_needs(a));
            if let Some(b) = &a.bind {
                self.binds.push(Binder::Each(b));
            }
            if taken {
                self.block(&a.body, None, &own);
            } else {
                let label = label_span(self.cx, a.span);
                if !self.switched_off(label, &own) {
                    self.out.push(LINT.at(
                        label,
                        format!("this option was never chosen in {}", self.cov.games),
                        "never chosen",
                    ));
                }
            }
            if a.bind.is_some() {
                self.binds.pop();
            }
        }
    }
}

/// The options that leave a loop's or choice's variable around the code
/// nothing to hold (its zone can hold no card with these options: the
/// moves that would fill it are switched off), if they do.
fn nothing_bound(binds: &[Binder], scope: &Scope) -> Option<BTreeSet<u16>> {
    binds.iter().find_map(|b| match b {
        Binder::Each(b) => match scope.get(b.slot as usize) {
            Some(Some(k)) if k.vals.is_empty() && !k.read.is_empty() => Some(k.read.clone()),
            _ => None,
        },
        Binder::Let(..) => None,
    })
}

/// An arm's quoted label, from its opening quote to the closing one.
fn label_span(cx: &Context, arm: Span) -> Span {
    let text = cx.text(arm);
    match text.strip_prefix('"').and_then(|t| t.find('"')) {
        Some(close) => Span::new(arm.start as usize, arm.start as usize + close + 2),
        None => arm,
    }
}
