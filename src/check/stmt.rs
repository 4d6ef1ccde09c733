//! Statements and whole-program checks: phase bodies, choices, windows,
//! effects, calls with arity, `break` outside loops, reachability of
//! phases from `start`, and the presence of an end condition.

use super::expr::{Scope, arity_title, count, ty_name};
use super::{Checker, Sym};
use crate::diag::code;
use crate::diag::{Diagnostic, Span};
use crate::hir::*;
use crate::syntax::ast::{self, Item, StmtKind as S};

pub(super) struct Ctx {
    pub(super) proc: u16,
    pub(super) loops: u32,
}

impl Checker {
    pub(super) fn check_procs(&mut self, file: &ast::File) {
        let mut starts = 0;
        for item in &file.items {
            match item {
                Item::Start(block, span) => {
                    starts += 1;
                    if starts > 1 {
                        self.error(
                            Diagnostic::error(code::DUPLICATE, "`start` is defined twice")
                                .label(
                                    Span::new(
                                        span.start as usize,
                                        span.start as usize + "start".len(),
                                    ),
                                    "defined again here",
                                )
                                .label(self.procs[0].span, "first defined here")
                                .help("a game has one `start` block; move the rest into a phase"),
                        );
                        // Still check it, to report what else is wrong (its
                        // `end game` counts, so no "never ends" on top).
                        let mut ctx = Ctx { proc: 0, loops: 0 };
                        self.block(block, &mut Scope::default(), &mut ctx);
                        continue;
                    }
                    let mut scope = Scope::default();
                    let mut ctx = Ctx { proc: 0, loops: 0 };
                    let body = self.block(block, &mut scope, &mut ctx);
                    self.locals_past_limit(
                        &mut scope,
                        Span::new(span.start as usize, span.start as usize + 5),
                    );
                    self.procs[0].body = body;
                    self.procs[0].locals = scope.next_slot;
                    self.procs[0].local_names = scope.slot_names;
                    self.procs[0].local_types = scope.slot_types;
                    self.procs[0].span = Span::new(span.start as usize, span.start as usize + 5);
                }
                Item::Phase(p) => {
                    let Some((Sym::Proc(id), span)) = self.names.get(&p.name.text).copied() else {
                        continue;
                    };
                    if span != p.name.span {
                        continue;
                    }
                    let mut scope = Scope::default();
                    let params = self.procs[id as usize].params.clone();
                    for ((n, _), t) in p.params.iter().zip(params) {
                        scope.push(&n.text, t);
                    }
                    if let Some(t) = &p.trigger {
                        match self.names.get(&t.text) {
                            Some((Sym::Zone(z), _)) => {
                                let z = *z;
                                self.usage.zones_used[z as usize] = true;
                                self.procs[id as usize].trigger = Some(z);
                            }
                            _ => self.unknown(&t.text, t.span, "zone", &[]),
                        }
                    }
                    let mut ctx = Ctx { proc: id, loops: 0 };
                    let body = self.block(&p.body, &mut scope, &mut ctx);
                    self.locals_past_limit(&mut scope, p.name.span);
                    self.procs[id as usize].body = body;
                    self.procs[id as usize].locals = scope.next_slot;
                    self.procs[id as usize].local_names = scope.slot_names;
                    self.procs[id as usize].local_types = scope.slot_types;
                }
                _ => {}
            }
        }
        if starts == 0 {
            self.error(
                Diagnostic::error(code::MISSING_DECLARATION, "no `start` block")
                    .label(Span::new(0, 0), "the game has nowhere to begin")
                    .help("add `start { ... }`: the flow of the game, from the deal to `end game`"),
            );
        }
    }

    pub(super) fn block(&mut self, b: &ast::Block, scope: &mut Scope, ctx: &mut Ctx) -> Vec<Stmt> {
        scope.open();
        let mut out = Vec::new();
        for s in &b.stmts {
            match &s.kind {
                // A `match` lowers to more than one statement.
                S::Match(e, arms) => out.extend(self.match_stmt(e, arms, s.span, scope, ctx)),
                _ => out.extend(self.stmt(s, scope, ctx)),
            }
        }
        scope.close();
        out
    }

    pub(super) fn block_of(
        &mut self,
        b: &ast::Block,
        scope: &mut Scope,
        ctx: &mut Ctx,
    ) -> Vec<Stmt> {
        self.block(b, scope, ctx)
    }

    fn stmt(&mut self, s: &ast::Stmt, scope: &mut Scope, ctx: &mut Ctx) -> Option<Stmt> {
        let kind = match &s.kind {
            S::Let(n, e) => {
                let (x, t) = self.expr(e, scope);
                let slot = scope.push(&n.text, t);
                StmtKind::Assign(Place::Local(slot), ast::AssignOp::Set, x)
            }
            S::Assign(base, field, op, e) => {
                let (place, ty) = self.place(base, field.as_ref(), scope)?;
                self.assign(place, ty, *op, e, s.span, scope)
            }
            S::AssignAt(owner, f, op, e) => {
                let (pl, pt) = self.expr(owner, scope);
                if pt == Ty::Error {
                    return None;
                }
                let (place, ty) = self.field_place(pl, pt, owner.span, f)?;
                self.assign(place, ty, *op, e, s.span, scope)
            }
            // Lowered by `block`, which can hold the statements it becomes.
            S::Match(..) => return None,
            S::If(c, t, e) => {
                let c = self.expect(c, Ty::Bool, scope, "an `if` condition");
                let t = self.block(t, scope, ctx);
                let e = e
                    .as_ref()
                    .map(|e| self.block(e, scope, ctx))
                    .unwrap_or_default();
                StmtKind::If(c, t, e)
            }
            S::Loop(_) | S::While(..) | S::For(..) => self.loop_stmt(&s.kind, scope, ctx),
            S::Choose {
                who,
                arms,
                otherwise,
            } => self.choose(who, arms, otherwise.as_ref(), scope, ctx),
            S::Window {
                var,
                from,
                filter,
                arms,
            } => self.window(var, from, filter.as_ref(), arms, scope, ctx),
            S::Move { .. }
            | S::Deal(..)
            | S::Shuffle(_)
            | S::Swap(..)
            | S::Peek(..)
            | S::Reveal(_) => self.effect(&s.kind, scope)?,
            S::EndGame | S::Leave(_) | S::Return | S::Checkpoint | S::Rollback | S::Break => {
                self.jump_stmt(&s.kind, s.span, ctx)?
            }
            S::Call(n, args) => return self.call_stmt(n, args, s.span, scope, ctx),
        };
        Some(Stmt { kind, span: s.span })
    }

    /// `loop`, `while` and `for`: the body counts as inside a loop (for `break`).
    fn loop_stmt(&mut self, kind: &S, scope: &mut Scope, ctx: &mut Ctx) -> StmtKind {
        match kind {
            S::Loop(b) => {
                ctx.loops += 1;
                let b = self.block(b, scope, ctx);
                ctx.loops -= 1;
                StmtKind::Loop(b)
            }
            S::While(c, b) => {
                let c = self.expect(c, Ty::Bool, scope, "a `while` condition");
                ctx.loops += 1;
                let b = self.block(b, scope, ctx);
                ctx.loops -= 1;
                StmtKind::While(c, b)
            }
            S::For(bind, body) => {
                scope.open();
                let bind = self.bind(bind, scope);
                ctx.loops += 1;
                let body = self.block(body, scope, ctx);
                ctx.loops -= 1;
                scope.close();
                StmtKind::For(bind, body)
            }
            _ => unreachable!("a loop statement"),
        }
    }

    /// Statements that leave or end something: `end game`, `leave`,
    /// `return`, `break`, `checkpoint` and `rollback`.
    fn jump_stmt(&mut self, kind: &S, span: Span, ctx: &mut Ctx) -> Option<StmtKind> {
        Some(match kind {
            S::EndGame => {
                self.ends.push((ctx.proc, span));
                StmtKind::EndGame
            }
            S::Leave(n) => match self.names.get(&n.text) {
                Some((Sym::Proc(p), _)) => StmtKind::Leave(*p),
                _ => {
                    self.unknown(&n.text, n.span, "phase", &[]);
                    return None;
                }
            },
            S::Return => StmtKind::Return,
            S::Checkpoint => StmtKind::Checkpoint,
            S::Rollback => StmtKind::Rollback,
            S::Break => {
                if ctx.loops == 0 {
                    self.error(
                            Diagnostic::error(code::BREAK_OUTSIDE_LOOP, "`break` outside a loop")
                                .label(span, "nothing to break out of")
                                .help("use `return` to leave a phase, or `leave NAME` to end an enclosing phase"),
                        );
                }
                StmtKind::Break
            }
            _ => unreachable!("a jump statement"),
        })
    }

    /// A statement that changes the table: move, deal, shuffle, swap, peek, reveal.
    fn effect(&mut self, kind: &S, scope: &mut Scope) -> Option<StmtKind> {
        Some(match kind {
            S::Move {
                all,
                what,
                to,
                bottom,
            } => {
                let to = self.expect(to, Ty::Zone, scope, "the destination of `move`");
                if *all {
                    let from = self.expect(what, Ty::Zone, scope, "the zone emptied by `move all`");
                    StmtKind::MoveAll {
                        from,
                        to,
                        bottom: *bottom,
                    }
                } else {
                    let what = self.expect(what, Ty::Card, scope, "the thing moved");
                    StmtKind::Move {
                        what,
                        to,
                        bottom: *bottom,
                    }
                }
            }
            S::Deal(n, from, to) => {
                let n = self.expect(n, Ty::Int, scope, "the number of cards dealt");
                let from = self.expect(from, Ty::Zone, scope, "the zone dealt from");
                let to = self.expect(to, Ty::Zone, scope, "the zone dealt to");
                StmtKind::Deal(n, from, to)
            }
            S::Shuffle(z) => {
                StmtKind::Shuffle(self.expect(z, Ty::Zone, scope, "the shuffled zone"))
            }
            S::Swap(a, b) => {
                let a = self.expect(a, Ty::Card, scope, "a swapped card");
                let b = self.expect(b, Ty::Card, scope, "a swapped card");
                StmtKind::Swap(a, b)
            }
            S::Peek(p, c) => {
                let p = self.expect(p, Ty::Player, scope, "the player who peeks");
                let c = self.expect(c, Ty::Card, scope, "the card looked at");
                StmtKind::Peek(p, c)
            }
            S::Reveal(c) => StmtKind::Reveal(self.expect(c, Ty::Card, scope, "the revealed card")),
            _ => return None,
        })
    }

    fn assign(
        &mut self,
        place: Place,
        ty: Ty,
        op: ast::AssignOp,
        e: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> StmtKind {
        let want = if op == ast::AssignOp::Set {
            ty
        } else {
            Ty::Int
        };
        if op != ast::AssignOp::Set && ty != Ty::Int && ty != Ty::Error {
            self.mismatch(span, Ty::Int, ty, "a variable changed by `+=` or `-=`");
        }
        let x = self.expect(e, want, scope, "the assigned value");
        StmtKind::Assign(place, op, x)
    }

    fn place(
        &mut self,
        base: &ast::Name,
        field: Option<&ast::Name>,
        scope: &mut Scope,
    ) -> Option<(Place, Ty)> {
        match field {
            None => {
                if let Some((slot, ty)) = scope.get(&base.text) {
                    return Some((Place::Local(slot), ty));
                }
                match self.names.get(&base.text).map(|s| s.0) {
                    Some(Sym::Var(v))
                        if !self.tables.vars[v as usize].per_player
                            && !self.tables.vars[v as usize].per_card =>
                    {
                        self.usage.vars_written[v as usize] = true;
                        Some((Place::Global(v), self.tables.vars[v as usize].ty))
                    }
                    Some(Sym::Var(v)) => {
                        let per_card = self.tables.vars[v as usize].per_card;
                        let whose = if per_card { "card" } else { "player" };
                        let help = self.owner_help(scope, &base.text, per_card);
                        self.error(
                            Diagnostic::error(
                                code::TYPE_MISMATCH,
                                format!("`{}` belongs to each {whose}", base.text),
                            )
                            .label(base.span, format!("which {whose}'s?"))
                            .help(help),
                        );
                        None
                    }
                    Some(Sym::Option(_)) => {
                        self.error(
                            Diagnostic::error(
                                code::ASSIGN_OPTION,
                                format!("option `{}` cannot be changed by the rules", base.text),
                            )
                            .label(base.span, "options are fixed when the game starts")
                            .help("declare a `var` initialised from the option and change that"),
                        );
                        None
                    }
                    _ => {
                        self.unknown(&base.text, base.span, "variable", &[]);
                        None
                    }
                }
            }
            Some(f) => {
                let (pl, pt) = self.name_expr(base, scope);
                self.field_place(pl, pt, base.span, f)
            }
        }
    }

    /// `OWNER.f` as a place: a per-card variable of a card, or a per-player
    /// variable of a player (the owner already checked, of type `pt`).
    fn field_place(
        &mut self,
        pl: Expr,
        pt: Ty,
        owner_span: Span,
        f: &ast::Name,
    ) -> Option<(Place, Ty)> {
        if pt == Ty::Card {
            return match self.names.get(&f.text).map(|s| s.0) {
                Some(Sym::Var(v)) if self.tables.vars[v as usize].per_card => {
                    self.usage.vars_written[v as usize] = true;
                    Some((Place::PerCard(v, pl), self.tables.vars[v as usize].ty))
                }
                _ => {
                    self.unknown(&f.text, f.span, "per-card variable", &[]);
                    None
                }
            };
        }
        if !pt.fits(Ty::Player) {
            self.mismatch(
                owner_span,
                Ty::Player,
                pt,
                "the owner of a per-player variable",
            );
            return None;
        }
        match self.names.get(&f.text).map(|s| s.0) {
            Some(Sym::Var(v)) if self.tables.vars[v as usize].per_player => {
                self.usage.vars_written[v as usize] = true;
                Some((Place::PerPlayer(v, pl), self.tables.vars[v as usize].ty))
            }
            _ => {
                self.unknown(&f.text, f.span, "per-player variable", &[]);
                None
            }
        }
    }

    fn name_expr(&mut self, n: &ast::Name, scope: &mut Scope) -> (Expr, Ty) {
        let e = ast::Expr {
            kind: ast::ExprKind::Name(n.text.clone()),
            span: n.span,
        };
        self.expr(&e, scope)
    }

    fn call_stmt(
        &mut self,
        n: &ast::Name,
        args: &[ast::Expr],
        span: Span,
        scope: &mut Scope,
        ctx: &mut Ctx,
    ) -> Option<Stmt> {
        let id = match self.names.get(&n.text).map(|s| s.0) {
            Some(Sym::Proc(id)) => id,
            _ => {
                if crate::hir::Builtin::ALL.iter().any(|(b, _)| *b == n.text) {
                    self.error(
                        Diagnostic::error(
                            code::TYPE_MISMATCH,
                            format!("`{}` is a function, not a phase", n.text),
                        )
                        .label(n.span, "its value would be thrown away")
                        .help("use it inside an expression, for example `let x = ...`"),
                    );
                } else {
                    self.unknown(&n.text, n.span, "phase", &[]);
                }
                return None;
            }
        };
        if self.procs[id as usize].kind == ProcKind::Reaction {
            self.error(
                Diagnostic::error(
                    code::TYPE_MISMATCH,
                    format!("reaction `{}` cannot be called", n.text),
                )
                .label(n.span, "reactions open by themselves")
                .help("a reaction runs when a card enters its zone; move a card there instead"),
            );
        }
        let params = self.procs[id as usize].params.clone();
        // Even a wrong call makes the phase reachable: no second warning.
        self.calls.push((ctx.proc, id));
        if params.len() != args.len() {
            self.call_arity(n, id, &params, args.len(), span);
            return None;
        }
        let xs = args
            .iter()
            .zip(params)
            .map(|(a, t)| self.expect(a, t, scope, &format!("this argument of `{}`", n.text)))
            .collect();
        Some(Stmt {
            kind: StmtKind::Call(id, xs),
            span,
        })
    }

    /// A call with the wrong number of arguments: the parameters, as declared.
    fn call_arity(&mut self, n: &ast::Name, id: u16, params: &[Ty], given: usize, span: Span) {
        let names = &self.procs[id as usize].local_names;
        let shown: Vec<String> = params
            .iter()
            .enumerate()
            .map(|(i, t)| {
                format!(
                    "{}: {}",
                    names.get(i).map_or("_", String::as_str),
                    ty_name(self, *t)
                )
            })
            .collect();
        let call: Vec<&str> = (0..params.len())
            .map(|i| names.get(i).map_or("_", String::as_str))
            .collect();
        self.error(
            Diagnostic::error(code::ARITY, arity_title(&n.text, params.len(), given))
                .label(span, format!("{} given here", count(given, "argument")))
                .label(
                    self.procs[id as usize].span,
                    format!("`{}` is declared with ({})", n.text, shown.join(", ")),
                )
                .help(format!(
                    "pass one value per parameter, in order: `{}({})`",
                    n.text,
                    call.join(", ")
                )),
        );
    }

    /// Reachability from `start` (and from reactions), and the end condition.
    pub(super) fn check_program(&mut self, _file: &ast::File) {
        let n = self.procs.len();
        let mut reached = vec![false; n];
        let mut stack: Vec<u16> = vec![0];
        for (i, p) in self.procs.iter().enumerate() {
            if p.kind == ProcKind::Reaction {
                stack.push(i as u16);
            }
        }
        while let Some(p) = stack.pop() {
            if std::mem::replace(&mut reached[p as usize], true) {
                continue;
            }
            for &(from, to) in &self.calls {
                if from == p && !reached[to as usize] {
                    stack.push(to);
                }
            }
        }
        for (i, p) in self.procs.iter().enumerate() {
            if !reached[i] && p.kind != ProcKind::Start {
                let kind = proc_kind(p.kind);
                let d = Diagnostic::warning(
                    code::UNREACHABLE_PHASE,
                    format!("{kind} `{}` can never be reached", p.name),
                )
                .label(p.span, "nothing calls it from `start` or a reaction")
                .help(format!(
                    "call `{}(...)` from a phase that runs, or delete it",
                    p.name
                ));
                self.diags.push(d);
            }
        }
        let has_start = !self.procs[0].body.is_empty() || self.procs[0].span != Span::default();
        if has_start && !self.ends.iter().any(|(p, _)| reached[*p as usize]) {
            let span = self.procs[0].span;
            let mut d = Diagnostic::error(code::NO_END, "the game never ends")
                .label(span, "no `end game` can be reached from here");
            for &(p, at) in &self.ends {
                let proc = &self.procs[p as usize];
                d = d.label(
                    at,
                    format!(
                        "this `end game` is in {} `{}`, which never runs",
                        proc_kind(proc.kind),
                        proc.name
                    ),
                );
            }
            self.error(d.help(if self.ends.is_empty() {
                "add `end game` where the game should stop, usually in a check after each round: `if CONDITION { end game }`"
            } else {
                "call the phase that holds `end game`, or move the `end game` into a phase that runs"
            }));
        }
    }
}

fn proc_kind(k: ProcKind) -> &'static str {
    match k {
        ProcKind::Start => "start",
        ProcKind::Phase => "phase",
        ProcKind::Turn => "turn",
        ProcKind::Reaction => "reaction",
    }
}
