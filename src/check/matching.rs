//! `match` on an enum value: checks the arms (known values of the
//! scrutinee's enum, none twice, every value covered unless `_` is there)
//! and lowers the statement to a local holding the value and a chain of
//! `if`s, so the graph and the engine never see a `match`.

use super::Checker;
use super::expr::{Scope, ty_name};
use super::stmt::Ctx;
use crate::diag::code;
use crate::diag::{Diagnostic, Span, did_you_mean};
use crate::hir::*;
use crate::syntax::ast::{self, BinOp};

impl Checker {
    pub(super) fn match_stmt(
        &mut self,
        e: &ast::Expr,
        arms: &[ast::MatchArm],
        span: Span,
        scope: &mut Scope,
        ctx: &mut Ctx,
    ) -> Vec<Stmt> {
        let (x, t) = self.expr(e, scope);
        let en = match t {
            Ty::Enum(en) => en,
            Ty::Error => return Vec::new(),
            other => {
                let got = ty_name(self, other);
                self.error(
                    Diagnostic::error(code::TYPE_MISMATCH, "`match` needs a value of an enum")
                        .label(e.span, format!("this is {got}"))
                        .help("`match` compares an enum value with the enum's values; for numbers, players or cards write `if`"),
                );
                return Vec::new();
            }
        };
        let info = self.tables.enums[en as usize].clone();
        scope.open();
        // A name no rules file can write, so the value is evaluated once.
        let slot = scope.push(" match", t);
        let mut covered = vec![false; info.values.len()];
        let mut wildcard = false;
        let mut branches: Vec<(Option<Expr>, Vec<Stmt>)> = Vec::new();
        for arm in arms {
            let (cond, any) = self.match_arm(arm, &info, slot, &mut covered);
            let body = self.block_of(&arm.body, scope, ctx);
            if any {
                wildcard = true;
                branches.push((None, body));
            } else if let Some(c) = cond {
                branches.push((Some(c), body));
            }
        }
        scope.close();
        if !wildcard {
            self.match_covers(&info, &covered, span);
        }
        let mut chain: Vec<Stmt> = Vec::new();
        for (cond, body) in branches.into_iter().rev() {
            chain = match cond {
                None => body,
                Some(c) => vec![Stmt {
                    kind: StmtKind::If(c, body, chain),
                    span,
                }],
            };
        }
        let mut out = vec![Stmt {
            kind: StmtKind::Assign(Place::Local(slot), ast::AssignOp::Set, x),
            span: e.span,
        }];
        out.extend(chain);
        out
    }

    /// The condition of one arm (its values `or`ed, each compared with the
    /// local `slot`), and whether it has `_`. Marks the values in `covered`.
    fn match_arm(
        &mut self,
        arm: &ast::MatchArm,
        info: &EnumInfo,
        slot: u16,
        covered: &mut [bool],
    ) -> (Option<Expr>, bool) {
        let mut cond: Option<Expr> = None;
        let mut any = false;
        for v in &arm.values {
            if v.text == "_" {
                any = true;
                continue;
            }
            let Some(i) = info.values.iter().position(|n| *n == v.text) else {
                let mut d = Diagnostic::error(
                    code::UNKNOWN_NAME,
                    format!("`{}` is not a value of `{}`", v.text, info.name),
                )
                .label(v.span, "not one of its values");
                d = match did_you_mean(&v.text, info.values.iter().map(String::as_str)) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help(format!(
                        "`{}` has the values {}",
                        info.name,
                        info.values.join(", ")
                    )),
                };
                self.error(d);
                continue;
            };
            if std::mem::replace(&mut covered[i], true) {
                self.error(
                    Diagnostic::error(
                        code::MATCHED_TWICE,
                        format!("`{}` is matched twice", v.text),
                    )
                    .label(v.span, "an earlier arm already takes this value")
                    .help("remove it from this arm: only the first arm that matches runs"),
                );
                continue;
            }
            let test = Expr::Bin(
                BinOp::Eq,
                Box::new(Expr::Local(slot)),
                Box::new(Expr::Int(i as i32)),
            );
            cond = Some(match cond {
                None => test,
                Some(c) => Expr::Bin(BinOp::Or, Box::new(c), Box::new(test)),
            });
        }
        (cond, any)
    }

    /// Report the values of a `match` without `_` that no arm takes.
    fn match_covers(&mut self, info: &EnumInfo, covered: &[bool], span: Span) {
        let missing: Vec<&str> = info
            .values
            .iter()
            .zip(covered)
            .filter(|(_, c)| !**c)
            .map(|(n, _)| n.as_str())
            .collect();
        if !missing.is_empty() {
            let word = Span::new(span.start as usize, span.start as usize + "match".len());
            self.error(
                Diagnostic::error(
                    code::MATCH_NOT_COVERING,
                    format!("this `match` does not cover every value of `{}`", info.name),
                )
                .label(word, format!("missing {}", missing.join(", ")))
                .help("add an arm for each missing value, or `_ => { }` for the rest"),
            );
        }
    }
}
