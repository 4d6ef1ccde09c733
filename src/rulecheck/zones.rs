//! Where cards go: the zone flow of a rules file, from the HIR alone. Every
//! `move`, `move all`, `deal` and `swap` is an edge from the zones its cards
//! can come from to the zones they can go to. A card's source is worked out
//! from its expression: `top(Z)`, `bottom(Z)`, an index of `Z`, or a local
//! bound from those (`let`, `for`, a choice's `for`, a window, a phase's
//! parameter through the arguments of its calls). A source that cannot be
//! known (a board cell, a card held in a variable) makes the flow
//! `uncertain`: then any zone may be left, and lints built on it stay quiet.
//!
//! `zone-never-left` uses it: a zone that cards enter but never leave, and
//! that nothing reads, drains a draw pile that is refilled.

use crate::diag::Span;
use crate::hir::{Builtin, Expr, Hir, Stmt, StmtKind};
use std::collections::BTreeSet;

/// The zones a value can come from (`None`: any zone).
type Src = Option<BTreeSet<u16>>;

/// The flow of cards between zones.
pub struct Flow {
    /// Some move's cards could come from any zone.
    pub uncertain: bool,
    /// Per zone: cards can be moved out of it.
    pub left: Vec<bool>,
    /// Per zone: cards are drawn from it (`top`, `bottom` or `deal`).
    pub drawn: Vec<bool>,
    /// Per zone: the first statement that moves cards into it.
    pub entered: Vec<Option<Span>>,
    /// Per zone: an expression reads it (other than as a move's target).
    pub read: Vec<bool>,
    /// Edges (from, to) between zones.
    pub edges: BTreeSet<(u16, u16)>,
}

impl Flow {
    /// Whether cards leaving `from` can end up in `to`.
    pub fn reaches(&self, from: u16, to: u16) -> bool {
        let mut seen = BTreeSet::from([from]);
        let mut todo = vec![from];
        while let Some(z) = todo.pop() {
            for &(a, b) in self.edges.range((z, 0)..=(z, u16::MAX)) {
                debug_assert_eq!(a, z);
                if b == to {
                    return true;
                }
                if seen.insert(b) {
                    todo.push(b);
                }
            }
        }
        false
    }

    /// Whether cards are moved into `z` from another zone by some rule.
    pub fn refilled(&self, z: u16) -> bool {
        self.edges.iter().any(|&(a, b)| b == z && a != z)
    }
}

fn union(a: &mut Src, b: &Src) -> bool {
    match (a.as_mut(), b) {
        (None, _) => false,
        (Some(_), None) => {
            *a = None;
            true
        }
        (Some(x), Some(y)) => {
            let n = x.len();
            x.extend(y);
            x.len() != n
        }
    }
}

struct Walk<'a> {
    hir: &'a Hir,
    /// Per procedure, per local slot: where its value can come from.
    env: Vec<Vec<Src>>,
    changed: bool,
    /// Filled on the last pass only.
    flow: Option<Flow>,
}

impl Walk<'_> {
    fn bind(&mut self, proc: usize, slot: u16, src: &Src) {
        if let Some(s) = self.env[proc].get_mut(slot as usize) {
            self.changed |= union(s, src);
        }
    }

    fn src(&mut self, proc: usize, e: &Expr) -> Src {
        match e {
            Expr::Local(s) => self.env[proc].get(*s as usize).cloned().unwrap_or(None),
            Expr::Zone(z, _) | Expr::ZoneAll(z) => {
                let board = self.hir.tables.zones.get(*z as usize).and_then(|i| i.board);
                if board.is_some() {
                    None
                } else {
                    Some(BTreeSet::from([*z]))
                }
            }
            Expr::Nothing => Some(BTreeSet::new()),
            Expr::Call(Builtin::Top | Builtin::Bottom | Builtin::ZoneOf, args) => {
                match args.first() {
                    Some(a) => self.src(proc, a),
                    None => None,
                }
            }
            Expr::Index(z, _) => self.src(proc, z),
            Expr::Cond(_, a, b) => {
                let mut x = self.src(proc, a);
                let y = self.src(proc, b);
                union(&mut x, &y);
                x
            }
            Expr::Agg { coll, .. } => self.src(proc, coll),
            Expr::Bind(binds, body) => {
                for (slot, v) in binds {
                    let s = self.src(proc, v);
                    self.bind(proc, *slot, &s);
                }
                self.src(proc, body)
            }
            _ => None,
        }
    }

    /// Bind the slots every expression in `e` binds, and note the zones it reads.
    fn expr(&mut self, proc: usize, e: &Expr) {
        match e {
            Expr::Zone(z, owner) => {
                self.read(*z);
                if let Some(o) = owner {
                    self.expr(proc, o);
                }
            }
            Expr::ZoneAll(z) => self.read(*z),
            Expr::Agg {
                slot,
                coll,
                filter,
                body,
                ..
            } => {
                let s = self.src(proc, coll);
                self.bind(proc, *slot, &s);
                self.expr(proc, coll);
                for x in [filter, body].into_iter().flatten() {
                    self.expr(proc, x);
                }
            }
            Expr::Bind(binds, body) => {
                for (slot, v) in binds {
                    let s = self.src(proc, v);
                    self.bind(proc, *slot, &s);
                    self.expr(proc, v);
                }
                self.expr(proc, body);
            }
            Expr::PerPlayer(_, a)
            | Expr::PerCard(_, a)
            | Expr::Table(_, a)
            | Expr::Attr(_, a)
            | Expr::Not(a)
            | Expr::Neg(a) => self.expr(proc, a),
            Expr::Index(a, b) | Expr::Bin(_, a, b) => {
                self.expr(proc, a);
                self.expr(proc, b);
            }
            Expr::Cond(a, b, c) => {
                for x in [a, b, c] {
                    self.expr(proc, x);
                }
            }
            Expr::Call(_, args) => {
                for a in args {
                    self.expr(proc, a);
                }
            }
            _ => {}
        }
    }

    fn drawn(&mut self, src: &Src) {
        if let Some(f) = self.flow.as_mut() {
            for &z in src.iter().flatten() {
                if let Some(d) = f.drawn.get_mut(z as usize) {
                    *d = true;
                }
            }
        }
    }

    fn read(&mut self, z: u16) {
        if let Some(f) = self.flow.as_mut()
            && let Some(r) = f.read.get_mut(z as usize)
        {
            *r = true;
        }
    }

    /// The target of a move: its zones entered (not a read of them).
    fn target(&mut self, proc: usize, to: &Expr) -> Src {
        if let Expr::Zone(_, Some(owner)) = to {
            self.expr(proc, owner);
        } else if !matches!(to, Expr::Zone(..) | Expr::ZoneAll(_)) {
            self.expr(proc, to);
        }
        self.src(proc, to)
    }

    fn movement(&mut self, from: Src, to: Src, span: Span) {
        let Some(f) = self.flow.as_mut() else { return };
        let Some(from) = from else {
            f.uncertain = true;
            return;
        };
        for &z in &from {
            if let Some(l) = f.left.get_mut(z as usize) {
                *l = true;
            }
        }
        for &t in to.iter().flatten() {
            if let Some(e) = f.entered.get_mut(t as usize) {
                e.get_or_insert(span);
            }
            for &z in &from {
                f.edges.insert((z, t));
            }
        }
    }

    fn stmts(&mut self, proc: usize, body: &[Stmt]) {
        for s in body {
            self.stmt(proc, s);
        }
    }

    /// The ways a statement opens for cards, and what it reads. One arm
    /// per kind of statement, so it is kept whole (a long match, one case
    /// each, none worth a function of its own).
    fn stmt(&mut self, proc: usize, s: &Stmt) {
        match &s.kind {
            StmtKind::Assign(place, _, e) => {
                self.expr(proc, e);
                if let crate::hir::Place::Local(slot) = place {
                    let src = self.src(proc, e);
                    self.bind(proc, *slot, &src);
                }
            }
            StmtKind::If(c, a, b) => {
                self.expr(proc, c);
                self.stmts(proc, a);
                self.stmts(proc, b);
            }
            StmtKind::Loop(b) => self.stmts(proc, b),
            StmtKind::While(c, b) => {
                self.expr(proc, c);
                self.stmts(proc, b);
            }
            StmtKind::For(bind, b) => {
                let src = self.src(proc, &bind.coll);
                self.bind(proc, bind.slot, &src);
                self.expr(proc, &bind.coll);
                if let Some(f) = &bind.filter {
                    self.expr(proc, f);
                }
                self.stmts(proc, b);
            }
            StmtKind::Choose {
                who,
                arms,
                otherwise,
            } => {
                self.expr(proc, who);
                for arm in arms {
                    for part in &arm.label {
                        if let crate::hir::LabelPart::Expr(e, _) = part {
                            self.expr(proc, e);
                        }
                    }
                    if let Some(bind) = &arm.bind {
                        let src = self.src(proc, &bind.coll);
                        self.bind(proc, bind.slot, &src);
                        self.expr(proc, &bind.coll);
                        if let Some(f) = &bind.filter {
                            self.expr(proc, f);
                        }
                    }
                    if let Some((slot, coll)) = &arm.also {
                        let src = self.src(proc, coll);
                        self.bind(proc, *slot, &src);
                        self.expr(proc, coll);
                    }
                    if let Some(g) = &arm.guard {
                        self.expr(proc, g);
                    }
                    self.stmts(proc, &arm.body);
                }
                if let Some(o) = otherwise {
                    self.stmts(proc, o);
                }
            }
            StmtKind::Window {
                slot,
                from,
                filter,
                arms,
            } => {
                let src = self.src(proc, from);
                self.bind(proc, *slot, &src);
                self.expr(proc, from);
                if let Some(f) = filter {
                    self.expr(proc, f);
                }
                for arm in arms {
                    for part in &arm.label {
                        if let crate::hir::LabelPart::Expr(e, _) = part {
                            self.expr(proc, e);
                        }
                    }
                    if let Some(g) = &arm.guard {
                        self.expr(proc, g);
                    }
                    self.stmts(proc, &arm.body);
                }
            }
            StmtKind::Move { what, to, .. } => {
                self.expr(proc, what);
                if let Expr::Call(Builtin::Top | Builtin::Bottom, args) = what
                    && let Some(pile) = args.first()
                {
                    let src = self.src(proc, pile);
                    self.drawn(&src);
                }
                let from = self.src(proc, what);
                let to = self.target(proc, to);
                self.movement(from, to, s.span);
            }
            StmtKind::MoveAll { from, to, .. } | StmtKind::Deal(_, from, to) => {
                let src = self.src(proc, from);
                if let StmtKind::Deal(n, _, _) = &s.kind {
                    self.expr(proc, n);
                    self.drawn(&src);
                }
                let to = self.target(proc, to);
                self.movement(src, to, s.span);
            }
            StmtKind::Swap(a, b) => {
                self.expr(proc, a);
                self.expr(proc, b);
                let mut both = self.src(proc, a);
                let sb = self.src(proc, b);
                union(&mut both, &sb);
                self.movement(both.clone(), both, s.span);
            }
            StmtKind::Shuffle(e) | StmtKind::Reveal(e) => self.expr(proc, e),
            StmtKind::Peek(a, b) => {
                self.expr(proc, a);
                self.expr(proc, b);
            }
            StmtKind::Call(callee, args) => {
                for (i, a) in args.iter().enumerate() {
                    self.expr(proc, a);
                    let src = self.src(proc, a);
                    self.bind(*callee as usize, i as u16, &src);
                }
            }
            StmtKind::EndGame
            | StmtKind::Leave(_)
            | StmtKind::Return
            | StmtKind::Break
            | StmtKind::Checkpoint
            | StmtKind::Rollback => {}
        }
    }
}

/// The zone flow of `hir`.
pub fn flow(hir: &Hir) -> Flow {
    let zones = hir.tables.zones.len();
    let mut w = Walk {
        hir,
        env: hir
            .procs
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (0..p.locals)
                    .map(|slot| {
                        // a phase's parameters are bound by its calls; a
                        // reaction's by the engine (unknown)
                        let param = (slot as usize) < p.params.len();
                        let engine = param && hir.procs[i].trigger.is_some();
                        if engine { None } else { Some(BTreeSet::new()) }
                    })
                    .collect()
            })
            .collect(),
        changed: true,
        flow: None,
    };
    // the sets only grow: a few passes reach the fixpoint; past the cap
    // the flow is marked uncertain
    let mut passes = 0;
    while w.changed && passes < 16 {
        w.changed = false;
        passes += 1;
        for (i, p) in hir.procs.iter().enumerate() {
            w.stmts(i, &p.body);
        }
    }
    let settled = !w.changed;
    let empty = || Flow {
        uncertain: !settled,
        left: vec![false; zones],
        drawn: vec![false; zones],
        entered: vec![None; zones],
        read: vec![false; zones],
        edges: BTreeSet::new(),
    };
    w.flow = Some(empty());
    for (i, p) in hir.procs.iter().enumerate() {
        w.stmts(i, &p.body);
    }
    // what the declarations read (winners, invariants, evaluate), with
    // their own locals (none bound here)
    let t = &hir.tables;
    let decls = t.invariants.iter().map(|(_, e)| e);
    let decls = decls
        .chain(&t.winners_key)
        .chain(&t.winners_filter)
        .chain(&t.winners_tiebreak)
        .chain(&t.evaluate);
    w.env.push(Vec::new());
    let none = w.env.len() - 1;
    for e in decls {
        w.expr(none, e);
    }
    w.flow.take().unwrap_or_else(empty)
}
