//! Option arms: `choose` and reaction `window` statements, and the arms
//! they offer with their sources (`for c in hand`, or two sources
//! `for q in players, g in Role`), filters, guards and labels.

use super::Checker;
use super::expr::Scope;
use super::stmt::Ctx;
use crate::diag::Diagnostic;
use crate::diag::code;
use crate::hir::*;
use crate::syntax::ast;

impl Checker {
    /// A `choose`: the player, then each arm in its own scope.
    pub(super) fn choose(
        &mut self,
        who: &ast::Expr,
        arms: &[ast::OptionArm],
        otherwise: Option<&ast::Block>,
        scope: &mut Scope,
        ctx: &mut Ctx,
    ) -> StmtKind {
        let who = self.expect(who, Ty::Player, scope, "the player who chooses");
        let arms = arms.iter().map(|a| self.arm(a, scope, ctx)).collect();
        let otherwise = otherwise.map(|b| self.block(b, scope, ctx));
        StmtKind::Choose {
            who,
            arms,
            otherwise,
        }
    }

    /// A reaction `window`: a loop over the players in order from `from`.
    pub(super) fn window(
        &mut self,
        var: &ast::Name,
        from: &ast::Expr,
        filter: Option<&ast::Expr>,
        arms: &[ast::OptionArm],
        scope: &mut Scope,
        ctx: &mut Ctx,
    ) -> StmtKind {
        let from = self.expect(from, Ty::Player, scope, "the first player of a window");
        scope.open();
        let slot = scope.push(&var.text, Ty::Player);
        let filter = filter.map(|f| self.expect(f, Ty::Bool, scope, "a `where` filter"));
        // `break` inside a window arm would leave the window: count it as a loop.
        ctx.loops += 1;
        let arms = arms.iter().map(|a| self.arm(a, scope, ctx)).collect();
        ctx.loops -= 1;
        scope.close();
        StmtKind::Window {
            slot,
            from,
            filter,
            arms,
        }
    }

    pub(super) fn bind(&mut self, b: &ast::Binding, scope: &mut Scope) -> Bind {
        let (coll, el) = self.collection(&b.coll, scope);
        let slot = scope.push(&b.var.text, el);
        let filter = b
            .filter
            .as_ref()
            .map(|f| self.expect(f, Ty::Bool, scope, "a `where` filter"));
        Bind { slot, coll, filter }
    }

    fn arm(&mut self, a: &ast::OptionArm, scope: &mut Scope, ctx: &mut Ctx) -> Arm {
        scope.open();
        let (bind, also) = match &a.binding {
            None => (None, None),
            Some(b) => self.arm_sources(b, a.also.as_ref(), scope),
        };
        let guard = a
            .guard
            .as_ref()
            .map(|g| self.expect(g, Ty::Bool, scope, "a `when` guard"));
        let mut label = Vec::new();
        for part in &a.label.parts {
            match part {
                ast::InterpPart::Text(t) => label.push(LabelPart::Text(t.clone())),
                ast::InterpPart::Expr(e) => {
                    let (x, t) = self.expr(e, scope);
                    label.push(LabelPart::Expr(x, t));
                }
            }
        }
        let body = self.block(&a.body, scope, ctx);
        scope.close();
        Arm {
            label,
            bind,
            also,
            guard,
            body,
            span: a.span,
        }
    }

    /// The sources of an arm: `for a in A` or `for a in A, b in B`. The
    /// second source is checked with `a` in scope (it may depend on it);
    /// the filter sees both.
    fn arm_sources(
        &mut self,
        b: &ast::Binding,
        also: Option<&(ast::Name, ast::Expr)>,
        scope: &mut Scope,
    ) -> (Option<Bind>, Option<(u16, Expr)>) {
        let (coll, el) = self.collection(&b.coll, scope);
        let slot = scope.push(&b.var.text, el);
        let also = also.map(|(v, c)| {
            if v.text == b.var.text {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE,
                        format!("`{}` is bound twice in one option", v.text),
                    )
                    .label(v.span, "bound again here")
                    .label(b.var.span, "first bound here")
                    .help("give the second source its own name"),
                );
            }
            let (coll, el) = self.collection(c, scope);
            (scope.push(&v.text, el), coll)
        });
        let filter = b
            .filter
            .as_ref()
            .map(|f| self.expect(f, Ty::Bool, scope, "a `where` filter"));
        (Some(Bind { slot, coll, filter }), also)
    }
}
