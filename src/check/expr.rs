//! Expressions: scopes, calls with arity and type checks, operators and
//! aggregates. Names and fields are resolved in `names.rs`.

use super::{Checker, Sym, a};
use crate::diag::code;
use crate::diag::{Diagnostic, Span};
use crate::hir::*;
use crate::syntax::ast::{self, AggKind, BinOp, ExprKind, UnOp};

pub(crate) use super::scope::{MAX_LOCALS, Scope};

/// Functions nested in each other's expansions (docs/language.md, "Limits").
pub const MAX_FN_NESTING: usize = 32;
/// Function expansions in a whole game (each use of a `fn` is one).
pub const MAX_FN_EXPANSIONS: usize = 100_000;
pub(super) const CONSTANTS: &[&str] = &["players", "actor", "current", "player_count"];

pub(crate) fn ty_name(c: &Checker, t: Ty) -> String {
    match t {
        Ty::Int => "int".into(),
        Ty::Bool => "bool".into(),
        Ty::Player => "player".into(),
        Ty::Card => "card".into(),
        Ty::Zone => "zone".into(),
        Ty::Cards => "per-player zone".into(),
        Ty::Players => "list of players".into(),
        Ty::Range => "range".into(),
        Ty::Cells => "set of cells".into(),
        Ty::Pattern => "pattern".into(),
        Ty::Enum(e) => c.tables.enums[e as usize].name.clone(),
        Ty::EnumSet(e) => format!("list of every {}", c.tables.enums[e as usize].name),
        Ty::Nothing => "none".into(),
        Ty::Error => "?".into(),
    }
}

impl Checker {
    /// Resolve an expression and check that it has type `want`.
    pub(crate) fn expect(
        &mut self,
        e: &ast::Expr,
        want: Ty,
        scope: &mut Scope,
        what: &str,
    ) -> Expr {
        let (x, t) = self.expr(e, scope);
        if !t.fits(want) {
            self.mismatch(e.span, want, t, what);
        }
        self.locals_past_limit(scope, e.span);
        x
    }

    /// Report, once per scope, that it asked for more than [`MAX_LOCALS`]
    /// local slots; `span` is where it was noticed.
    pub(crate) fn locals_past_limit(&mut self, scope: &mut Scope, span: Span) {
        if scope.asked_past_limit == 0 || scope.past_limit_reported {
            return;
        }
        scope.past_limit_reported = true;
        self.error(
            Diagnostic::error(
                code::TOO_MANY_EXPANSIONS,
                format!("more than {MAX_LOCALS} local values in one rule"),
            )
            .label(span, "the limit was passed here")
            .help(format!(
                "a phase (or `start`, `winners`, `evaluate`) holds at most {MAX_LOCALS} locals: \
                 its `let`s, loop and aggregate variables, and one per parameter of each \
                 function use; use a `let` for a value used many times, or split the phase"
            )),
        );
    }

    pub(crate) fn mismatch(&mut self, span: Span, want: Ty, got: Ty, what: &str) {
        let (w, g) = (a(&ty_name(self, want)), a(&ty_name(self, got)));
        let hint = match (want, got) {
            (Ty::Int, Ty::Card) => {
                " (a card is not a number: use one of its attributes, such as `c.value`)"
            }
            (Ty::Int, Ty::Zone | Ty::Cards) => {
                " (use `count(zone)` for the number of cards in a zone)"
            }
            (Ty::Int, Ty::Bool) => " (a condition is not a number)",
            (Ty::Bool, Ty::Int) => {
                " (write `true` or `false`, or compare a number, for example `x > 0`)"
            }
            (Ty::Bool, _) => " (write a condition such as `x > 0` or `p.called`)",
            (Ty::Card, Ty::Zone) => {
                " (use `top(zone)`, `bottom(zone)` or `zone[i]` to take one card)"
            }
            (Ty::Zone, Ty::Card) => " (a zone is needed, such as `discard` or `p.hand`)",
            (Ty::Zone, Ty::Cards) => " (a per-player zone needs its player, for example `p.hand`)",
            (Ty::Player, Ty::Players) => " (name one player, for example with `for p in players`)",
            (Ty::Player, Ty::Card) => " (use `owner(c)` for the player holding a card)",
            _ => "",
        };
        self.error(
            Diagnostic::error(code::TYPE_MISMATCH, "type mismatch")
                .label(span, format!("expected {w}, found {g}"))
                .help(format!("{what} must be {w}{hint}")),
        );
    }

    /// The help line for a per-player (or per-card) variable used without
    /// its owner: names the innermost player (or card) in scope, if any.
    pub(crate) fn owner_help(&self, scope: &Scope, name: &str, per_card: bool) -> String {
        let (whose, want, fallback) = if per_card {
            ("card", Ty::Card, "for c in zone")
        } else {
            ("player", Ty::Player, "for p in players")
        };
        match scope.names.iter().rev().find(|(_, _, t)| *t == want) {
            Some((x, _, _)) => format!("each {whose} has its own `{name}`: write `{x}.{name}`"),
            None => format!(
                "each {whose} has its own `{name}`: name the {whose}, for example inside `{fallback} {{ ... }}`"
            ),
        }
    }

    /// Resolve a collection (something `for` can walk) and return its element type.
    pub(crate) fn collection(&mut self, e: &ast::Expr, scope: &mut Scope) -> (Expr, Ty) {
        let (x, t) = self.expr(e, scope);
        match t.element() {
            Some(el) => (x, el),
            None => {
                let g = a(&ty_name(self, t));
                self.error(
                    Diagnostic::error(code::TYPE_MISMATCH, "type mismatch")
                        .label(e.span, format!("expected a collection, found {g}"))
                        .help("walk a zone, a per-player zone name, `players`, `order(p)`, a range `a..b` or an enum"),
                );
                (x, Ty::Error)
            }
        }
    }

    pub(crate) fn expr(&mut self, e: &ast::Expr, scope: &mut Scope) -> (Expr, Ty) {
        match &e.kind {
            ExprKind::Int(i) => (Expr::Int(*i as i32), Ty::Int),
            ExprKind::Bool(b) => (Expr::Int(*b as i32), Ty::Bool),
            ExprKind::None => (Expr::Nothing, Ty::Nothing),
            ExprKind::Name(n) => self.name(n, e.span, scope),
            ExprKind::Field(base, field) => self.field(base, field, scope),
            ExprKind::Index(base, idx) if self.is_table(base) => {
                let ast::ExprKind::Name(n) = &base.kind else {
                    unreachable!("checked")
                };
                let Some((Sym::Table(t), _)) = self.names.get(n).copied() else {
                    unreachable!("checked")
                };
                let key = Ty::Enum(self.tables.tables[t as usize].key);
                let ty = self.tables.tables[t as usize].ty;
                let k = self.expect(idx, key, scope, "the key of a table");
                (Expr::Table(t, Box::new(k)), ty)
            }
            ExprKind::Index(base, idx) => {
                let b = self.expect(base, Ty::Zone, scope, "the thing indexed");
                let i = self.expect(idx, Ty::Int, scope, "an index");
                (Expr::Index(Box::new(b), Box::new(i)), Ty::Card)
            }
            ExprKind::Call(name, args) => self.call(name, args, e.span, scope),
            ExprKind::Unary(UnOp::Not, x) => {
                let x = self.expect(x, Ty::Bool, scope, "the operand of `not`");
                (Expr::Not(Box::new(x)), Ty::Bool)
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                let x = self.expect(x, Ty::Int, scope, "the operand of `-`");
                (Expr::Neg(Box::new(x)), Ty::Int)
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, scope),
            ExprKind::Cond(c, a, b) => {
                let c = self.expect(
                    c,
                    Ty::Bool,
                    scope,
                    "the condition of `if ... then ... else`",
                );
                let (a, at) = self.expr(a, scope);
                let (bx, bt) = self.expr(b, scope);
                if !at.fits(bt) {
                    // (`a` is a branch here: the article helper is `super::a`.)
                    let (x, y) = (super::a(&ty_name(self, at)), super::a(&ty_name(self, bt)));
                    self.error(
                        Diagnostic::error(code::TYPE_MISMATCH, "type mismatch")
                            .label(e.span, format!("one branch is {x}, the other {y}"))
                            .help(
                                "both branches of `if ... then ... else` must have the same type",
                            ),
                    );
                }
                let ty = if at == Ty::Nothing { bt } else { at };
                (Expr::Cond(Box::new(c), Box::new(a), Box::new(bx)), ty)
            }
            ExprKind::Aggregate {
                kind,
                body,
                binding,
            } => self.aggregate(*kind, body.as_deref(), binding, e.span, scope),
        }
    }

    fn is_table(&self, e: &ast::Expr) -> bool {
        matches!(&e.kind, ExprKind::Name(n) if matches!(self.names.get(n), Some((Sym::Table(_), _))))
    }

    /// Whether a use of function `f` cannot be expanded: a wrong number of
    /// arguments, recursion, or too many expansions (each reported).
    fn expansion_refused(
        &mut self,
        f: u16,
        name: &ast::Name,
        decl: &ast::FnDecl,
        given: usize,
        span: Span,
    ) -> bool {
        if given != decl.params.len() {
            self.error(
                Diagnostic::error(
                    code::ARITY,
                    arity_title(&name.text, decl.params.len(), given),
                )
                .label(span, format!("{} given here", count(given, "argument")))
                .label(decl.name.span, format!("`{}` is declared here", name.text))
                .help(format!(
                    "pass one value per parameter, in order: `{}({})`",
                    name.text,
                    decl.params
                        .iter()
                        .map(|(n, _)| n.text.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            );
            return true;
        }
        if self.expanding.contains(&f) {
            self.error(
                Diagnostic::error(code::RECURSION, format!("function `{}` calls itself", name.text))
                    .label(span, "recursive call")
                    .help("functions are expanded where they are used, so they cannot recurse; use a phase with a loop"),
            );
            return true;
        }
        self.expansions += 1;
        if self.expanding.len() >= MAX_FN_NESTING || self.expansions > MAX_FN_EXPANSIONS {
            if self.expansions <= MAX_FN_EXPANSIONS + 1 || self.expanding.len() >= MAX_FN_NESTING {
                self.error(
                    Diagnostic::error(code::TOO_MANY_EXPANSIONS, format!("too many function expansions at `{}`", name.text))
                        .label(span, "expanded here")
                        .help(format!(
                            "functions are expanded where they are used: at most {MAX_FN_NESTING} nested in each other \
                             and {MAX_FN_EXPANSIONS} expansions in all; use a `let` for a value used twice"
                        )),
                );
            }
            return true;
        }
        false
    }

    /// Expand a user function in place: its parameters stand for the argument expressions.
    fn call_fn(
        &mut self,
        f: u16,
        name: &ast::Name,
        args: &[ast::Expr],
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let (decl, params, ret) = self.funcs[f as usize].clone();
        if self.expansion_refused(f, name, &decl, args.len(), span) {
            return (Expr::Int(0), Ty::Error);
        }
        // Each argument is evaluated once, into a slot of the caller's frame
        // that the body reads as its parameter.
        let mut aliases = Vec::new();
        let mut binds = Vec::new();
        for (((pn, _), t), a) in decl.params.iter().zip(&params).zip(args) {
            let x = self.expect(a, *t, scope, &format!("this argument of `{}`", name.text));
            let slot = scope.take_slot(&format!("{}.{}", name.text, pn.text), *t);
            binds.push((slot, x));
            aliases.push((pn.text.clone(), Expr::Local(slot), *t));
        }
        // The body sees only its parameters (and top-level names), but its
        // aggregates take slots from the caller's frame.
        let saved_names = std::mem::take(&mut scope.names);
        let saved_aliases = std::mem::replace(&mut scope.aliases, aliases);
        let saved_marks = std::mem::take(&mut scope.marks);
        self.expanding.push(f);
        let body = self.expect(
            &decl.body,
            ret,
            scope,
            &format!("the value of `{}`", name.text),
        );
        self.expanding.pop();
        scope.names = saved_names;
        scope.aliases = saved_aliases;
        scope.marks = saved_marks;
        (Expr::Bind(binds, Box::new(body)), ret)
    }

    fn call(
        &mut self,
        name: &ast::Name,
        args: &[ast::Expr],
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        if let Some((Sym::Func(f), _)) = self.names.get(&name.text).copied() {
            return self.call_fn(f, name, args, span, scope);
        }
        let Some(&(_, b)) = Builtin::ALL.iter().find(|(n, _)| *n == name.text) else {
            if let Some((Sym::Proc(_), _)) = self.names.get(&name.text) {
                self.error(
                    Diagnostic::error(
                        code::TYPE_MISMATCH,
                        format!("phase `{}` is not a value", name.text),
                    )
                    .label(name.span, "phases run as statements")
                    .help(format!("call it on its own line: `{}(...)`", name.text)),
                );
                return (Expr::Int(0), Ty::Error);
            }
            let names: Vec<&str> = Builtin::ALL.iter().map(|(n, _)| *n).collect();
            let user: Vec<&str> = self.funcs.iter().map(|f| f.0.name.text.as_str()).collect();
            let help = crate::diag::did_you_mean(&name.text, names.iter().chain(&user).copied())
                .map(|s| format!("did you mean `{s}`?"))
                .unwrap_or_else(|| format!("the built-in functions are: {}", names.join(", ")));
            if self.dups.contains(&name.text) {
                // Defined twice: already reported.
                return (Expr::Int(0), Ty::Error);
            }
            self.error(
                Diagnostic::error(
                    code::UNKNOWN_NAME,
                    format!("unknown function `{}`", name.text),
                )
                .label(name.span, "no function has this name")
                .help(help),
            );
            return (Expr::Int(0), Ty::Error);
        };
        let (params, ret) = b.signature();
        if args.len() != params.len() {
            self.error(
                Diagnostic::error(
                    code::ARITY,
                    arity_title(&name.text, params.len(), args.len()),
                )
                .label(
                    span,
                    format!("{} given here", count(args.len(), "argument")),
                )
                .help(builtin_usage(b)),
            );
            return (Expr::Int(0), Ty::Error);
        }
        let mut xs = Vec::new();
        for (a, t) in args.iter().zip(params) {
            xs.push(self.expect(a, *t, scope, &format!("this argument of `{}`", name.text)));
        }
        if b == Builtin::Cell {
            // `cell(x, y)` names a square of the first board: a card moved
            // there uses that board
            if let Some(board) = self.tables.boards.first() {
                self.usage.zones_used[board.zone as usize] = true;
            }
        }
        (Expr::Call(b, xs), ret)
    }

    fn binary(&mut self, op: BinOp, l: &ast::Expr, r: &ast::Expr, scope: &mut Scope) -> (Expr, Ty) {
        let (lx, lt) = self.expr(l, scope);
        let (rx, rt) = self.expr(r, scope);
        let ty = match op {
            BinOp::Or | BinOp::And => {
                self.want(l.span, lt, Ty::Bool, "an operand of `and`/`or`");
                self.want(r.span, rt, Ty::Bool, "an operand of `and`/`or`");
                Ty::Bool
            }
            BinOp::Eq | BinOp::Ne => {
                if !lt.fits(rt) {
                    let (x, y) = (a(&ty_name(self, lt)), a(&ty_name(self, rt)));
                    let hint = match (lt, rt) {
                        (Ty::Bool, Ty::Int) | (Ty::Int, Ty::Bool) => {
                            ": a condition is `true` or `false`, not a number"
                        }
                        (Ty::Card, Ty::Int) | (Ty::Int, Ty::Card) => {
                            ": compare one of the card's attributes, such as `c.value`"
                        }
                        _ => "",
                    };
                    self.error(
                        Diagnostic::error(code::TYPE_MISMATCH, "type mismatch")
                            .label(l.span, format!("this is {x}"))
                            .label(r.span, format!("this is {y}"))
                            .help(format!(
                                "only values of the same type can be compared{hint}"
                            )),
                    );
                }
                Ty::Bool
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.want(l.span, lt, Ty::Int, "a compared value");
                self.want(r.span, rt, Ty::Int, "a compared value");
                Ty::Bool
            }
            BinOp::Range => {
                self.want(l.span, lt, Ty::Int, "a range bound");
                self.want(r.span, rt, Ty::Int, "a range bound");
                Ty::Range
            }
            BinOp::In => {
                let ok = match (lt, rt) {
                    (_, Ty::Error) | (Ty::Error, _) => true,
                    (Ty::Int, Ty::Range) => true,
                    (Ty::Card, Ty::Zone | Ty::Cards) => true,
                    (Ty::Zone, Ty::Cells) => true,
                    (Ty::Player, Ty::Players) => true,
                    (Ty::Enum(a), Ty::EnumSet(b)) => a == b,
                    _ => false,
                };
                if !ok {
                    let (x, y) = (a(&ty_name(self, lt)), a(&ty_name(self, rt)));
                    self.error(
                        Diagnostic::error(code::TYPE_MISMATCH, "type mismatch")
                            .label(l.span, format!("this is {x}"))
                            .label(r.span, format!("this is {y}"))
                            .help("`x in c` needs a number in a range, a card in a zone or a player in players"),
                    );
                }
                Ty::Bool
            }
            _ => {
                self.want(l.span, lt, Ty::Int, "an operand of arithmetic");
                self.want(r.span, rt, Ty::Int, "an operand of arithmetic");
                Ty::Int
            }
        };
        (Expr::Bin(op, Box::new(lx), Box::new(rx)), ty)
    }

    fn want(&mut self, span: Span, got: Ty, want: Ty, what: &str) {
        if !got.fits(want) || (got == Ty::Nothing && want != Ty::Nothing) {
            self.mismatch(span, want, got, what);
        }
    }

    fn aggregate(
        &mut self,
        kind: AggKind,
        body: Option<&ast::Expr>,
        binding: &ast::Binding,
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let (coll, el) = self.collection(&binding.coll, scope);
        scope.open();
        let slot = scope.push(&binding.var.text, el);
        let filter = binding
            .filter
            .as_ref()
            .map(|f| Box::new(self.expect(f, Ty::Bool, scope, "a `where` filter")));
        let needs_body = matches!(kind, AggKind::Sum | AggKind::Min | AggKind::Max);
        let body_x = match (body, needs_body) {
            (Some(b), true) => Some(Box::new(self.expect(b, Ty::Int, scope, "the summed value"))),
            (None, true) => {
                self.error(
                    Diagnostic::error(code::ARITY, "this aggregate needs a value")
                        .label(span, "what should be added or compared?")
                        .help(
                            format!("write it as `{kind:?}(c.value for c in zone)`").to_lowercase(),
                        ),
                );
                None
            }
            (Some(b), false) => {
                self.error(
                    Diagnostic::error(code::ARITY, "count, any and all take no value before `for`")
                        .label(b.span, "not expected here")
                        .help("write `count(c in zone where c.value > 3)`"),
                );
                None
            }
            (None, false) => None,
        };
        scope.close();
        let ty = match kind {
            AggKind::Any | AggKind::All => Ty::Bool,
            AggKind::First => el,
            _ => Ty::Int,
        };
        (
            Expr::Agg {
                kind,
                slot,
                coll: Box::new(coll),
                filter,
                body: body_x,
            },
            ty,
        )
    }
}

/// "`f` takes 2 arguments but 1 was given".
pub(crate) fn arity_title(name: &str, want: usize, got: usize) -> String {
    let was = if got == 1 { "was" } else { "were" };
    format!(
        "`{name}` takes {} but {got} {was} given",
        count(want, "argument")
    )
}

/// "1 argument", "3 arguments".
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// How a built-in function is called, and what it gives.
fn builtin_usage(b: Builtin) -> &'static str {
    match b {
        Builtin::Top => "write `top(ZONE)`: the top card of the zone, or none",
        Builtin::Bottom => "write `bottom(ZONE)`: the bottom card of the zone, or none",
        Builtin::Size => "write `count(ZONE)`: how many cards the zone holds",
        Builtin::Next => "write `next(PLAYER)`: the next player in seating order",
        Builtin::Prev => "write `prev(PLAYER)`: the previous player in seating order",
        Builtin::Owner => "write `owner(CARD)`: the player whose zone holds the card, or none",
        Builtin::Pos => "write `pos(CARD)`: the card's place in its zone, 0 at the bottom",
        Builtin::Seat => "write `seat(NUMBER)`: the player in that seat, from 0",
        Builtin::Random => "write `random(LOW, HIGH)`: a number from LOW to HIGH, both included",
        Builtin::Order => "write `order(PLAYER)`: every player in seating order, from that one",
        Builtin::Knows => "write `knows(PLAYER, CARD)`: whether the player knows the card",
        Builtin::InZone => "write `in_zone(CARD, ZONE)`: whether the card is in that zone",
        Builtin::ZoneOf => "write `zone_of(CARD)`: the zone or board cell holding the card",
        Builtin::Cell => {
            "write `cell(X, Y)`: the board cell at column X and row Y (from 0), or none"
        }
        Builtin::XOf => "write `x_of(CELL)`: the cell's column, from 0",
        Builtin::YOf => "write `y_of(CELL)`: the cell's row, from 0",
        Builtin::Shift => "write `shift(CELL, DX, DY)`: the cell one step away, or none",
        Builtin::Ray => {
            "write `ray(CELL, DX, DY, STEPS)`: the cells along a line, up to the first occupied one"
        }
        Builtin::Would => {
            "write `would(CARD, CELL, CONDITION)`: the condition as if the card had moved there"
        }
        Builtin::Moves => {
            "write `moves(CELL, PATTERN, FACING, STEPS)`: the cells a movement pattern reaches"
        }
    }
}
