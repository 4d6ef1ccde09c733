//! Names and fields in expressions: locals, constants (`players`, ...),
//! declared names (options, variables, zones, enums, regions, patterns),
//! lone enum values, and `PLAYER.x` / `CARD.x`.

use super::expr::{CONSTANTS, Scope, ty_name};
use super::{Checker, Sym, a};
use crate::diag::code;
use crate::diag::{Diagnostic, Span};
use crate::hir::*;
use crate::syntax::ast;

impl Checker {
    pub(super) fn name(&mut self, n: &str, span: Span, scope: &mut Scope) -> (Expr, Ty) {
        if let Some((_, e, ty)) = scope.aliases.iter().rev().find(|a| a.0 == n) {
            return (e.clone(), *ty);
        }
        if let Some((slot, ty)) = scope.get(n) {
            return (Expr::Local(slot), ty);
        }
        match n {
            "players" => return (Expr::Players, Ty::Players),
            "actor" => return (Expr::Actor, Ty::Player),
            "current" => return (Expr::Current, Ty::Player),
            "player_count" => return (Expr::PlayerCount, Ty::Int),
            _ => {}
        }
        if let Some(sym) = self.names.get(n).map(|s| s.0) {
            return self.declared_name(n, sym, span, scope);
        }
        if let Some(cands) = self.enum_values.get(n).cloned() {
            return self.enum_value(n, &cands, span);
        }
        let locals: Vec<String> = scope.names.iter().map(|x| x.0.clone()).collect();
        let mut extra: Vec<&str> = CONSTANTS.to_vec();
        extra.extend(locals.iter().map(String::as_str));
        self.unknown(n, span, "name", &extra);
        (Expr::Int(0), Ty::Error)
    }

    /// A name the file declares: an option, a global variable, a zone, an
    /// enum (all its values), a board region or a pattern.
    fn declared_name(&mut self, n: &str, sym: Sym, span: Span, scope: &mut Scope) -> (Expr, Ty) {
        match sym {
            Sym::Option(o) => {
                self.usage.options_read[o as usize] = true;
                (Expr::Opt(o), Ty::Int)
            }
            Sym::Var(v) => {
                let info = &self.tables.vars[v as usize];
                if info.per_player || info.per_card {
                    let name = info.name.clone();
                    let whose = if info.per_card { "card" } else { "player" };
                    let help = self.owner_help(scope, &name, info.per_card);
                    self.error(
                        Diagnostic::error(
                            code::TYPE_MISMATCH,
                            format!("`{name}` belongs to each {whose}"),
                        )
                        .label(span, format!("which {whose}'s?"))
                        .help(help),
                    );
                    return (Expr::Int(0), Ty::Error);
                }
                self.usage.vars_read[v as usize] = true;
                (Expr::Global(v), info.ty)
            }
            Sym::Zone(z) => {
                self.usage.zones_used[z as usize] = true;
                let info = &self.tables.zones[z as usize];
                if info.per_player || info.board.is_some() {
                    (Expr::ZoneAll(z), Ty::Cards)
                } else {
                    (Expr::Zone(z, None), Ty::Zone)
                }
            }
            Sym::Enum(e) => {
                self.usage.enums_used[e as usize] = true;
                (Expr::EnumAll(e), Ty::EnumSet(e))
            }
            Sym::Region(b, r) => (Expr::Region(b, r), Ty::Cells),
            Sym::Pattern(p) => (Expr::Int(p as i32), Ty::Pattern),
            other => {
                self.error(
                    Diagnostic::error(code::TYPE_MISMATCH, format!("`{n}` is {}, not a value", a(other.what())))
                        .label(span, "cannot be used here")
                        .help("an expression can use options, variables, zones, enum values and local names"),
                );
                (Expr::Int(0), Ty::Error)
            }
        }
    }

    /// An enum value written alone: its enum when only one has it.
    fn enum_value(&mut self, n: &str, cands: &[(u16, u16)], span: Span) -> (Expr, Ty) {
        if cands.len() == 1 {
            let (e, v) = cands[0];
            self.usage.enums_used[e as usize] = true;
            return (Expr::Int(v as i32), Ty::Enum(e));
        }
        let enums: Vec<String> = cands
            .iter()
            .map(|(e, _)| self.tables.enums[*e as usize].name.clone())
            .collect();
        self.error(
            Diagnostic::error(
                code::UNKNOWN_NAME,
                format!("`{n}` is a value of several enums"),
            )
            .label(span, "ambiguous")
            .help(format!(
                "it belongs to {}; rename one of the values",
                enums.join(" and ")
            )),
        );
        (Expr::Int(0), Ty::Error)
    }

    pub(super) fn field(
        &mut self,
        base: &ast::Expr,
        field: &ast::Name,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let (b, bt) = self.expr(base, scope);
        match bt {
            Ty::Player => self.player_field(b, field),
            Ty::Card => self.card_field(b, field),
            Ty::Error => (Expr::Int(0), Ty::Error),
            other => {
                let g = a(&ty_name(self, other));
                self.error(
                    Diagnostic::error(code::TYPE_MISMATCH, "type mismatch")
                        .label(base.span, format!("expected a player or a card, found {g}"))
                        .help(format!(
                            "`.{}` needs a player or a card before the dot",
                            field.text
                        )),
                );
                (Expr::Int(0), Ty::Error)
            }
        }
    }

    /// `PLAYER.name`: a per-player variable or zone.
    fn player_field(&mut self, b: Expr, field: &ast::Name) -> (Expr, Ty) {
        match self.names.get(&field.text).map(|s| s.0) {
            Some(Sym::Var(v)) if self.tables.vars[v as usize].per_player => {
                self.usage.vars_read[v as usize] = true;
                (
                    Expr::PerPlayer(v, Box::new(b)),
                    self.tables.vars[v as usize].ty,
                )
            }
            Some(Sym::Zone(z)) if self.tables.zones[z as usize].per_player => {
                self.usage.zones_used[z as usize] = true;
                (Expr::Zone(z, Some(Box::new(b))), Ty::Zone)
            }
            _ => {
                let cands: Vec<String> = self
                    .tables
                    .vars
                    .iter()
                    .filter(|v| v.per_player)
                    .map(|v| v.name.clone())
                    .chain(
                        self.tables
                            .zones
                            .iter()
                            .filter(|z| z.per_player)
                            .map(|z| z.name.clone()),
                    )
                    .collect();
                let help = crate::diag::did_you_mean(&field.text, cands.iter().map(String::as_str))
                    .map(|s| format!("did you mean `{s}`?"))
                    .unwrap_or_else(|| format!("a player has: {}", cands.join(", ")));
                self.error(
                    Diagnostic::error(
                        code::UNKNOWN_NAME,
                        format!("players have no `{}`", field.text),
                    )
                    .label(field.span, "not a per-player variable or zone")
                    .help(help),
                );
                (Expr::Int(0), Ty::Error)
            }
        }
    }

    /// `CARD.name`: an attribute or a per-card variable.
    fn card_field(&mut self, b: Expr, field: &ast::Name) -> (Expr, Ty) {
        match self.tables.attrs.iter().position(|a| a.name == field.text) {
            Some(a) => (Expr::Attr(a as u16, Box::new(b)), self.tables.attrs[a].ty),
            None if matches!(self.names.get(&field.text), Some((Sym::Var(v), _)) if self.tables.vars[*v as usize].per_card) =>
            {
                let Some((Sym::Var(v), _)) = self.names.get(&field.text).copied() else {
                    unreachable!("matched")
                };
                self.usage.vars_read[v as usize] = true;
                (
                    Expr::PerCard(v, Box::new(b)),
                    self.tables.vars[v as usize].ty,
                )
            }
            None => {
                let cands: Vec<&str> = self
                    .tables
                    .attrs
                    .iter()
                    .map(|a| a.name.as_str())
                    .chain(
                        self.tables
                            .vars
                            .iter()
                            .filter(|v| v.per_card)
                            .map(|v| v.name.as_str()),
                    )
                    .collect();
                let help = crate::diag::did_you_mean(&field.text, cands.iter().copied())
                    .map(|s| format!("did you mean `{s}`?"))
                    .unwrap_or_else(|| match cands.is_empty() {
                        true => "cards have no attributes yet: declare them in a `card` block"
                            .to_string(),
                        false => format!("cards have: {}", cands.join(", ")),
                    });
                self.error(
                    Diagnostic::error(
                        code::UNKNOWN_NAME,
                        format!("cards have no attribute `{}`", field.text),
                    )
                    .label(field.span, "unknown attribute")
                    .help(help),
                );
                (Expr::Int(0), Ty::Error)
            }
        }
    }
}
