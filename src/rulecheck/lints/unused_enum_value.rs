//! `unused-enum-value`: a value of an enum that card attributes take, which
//! no card carries and no rule assigns, so a rule waiting for it waits in
//! vain (a tournament colour no card has).

use super::{Context, Level, Lint, Pass};
use crate::check::hir::{Expr, Place, StmtKind, Ty};
use crate::diag::Diagnostic;

pub static LINT: Lint = Lint {
    name: "unused-enum-value",
    level: Level::Warning,
    description: "a value of a card attribute's enum that no card carries and no rule assigns",
    help: "give the value to some cards, or delete it from the enum",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let t = &cx.hir.tables;
    let na = t.attrs.len();
    // literal values assigned to variables of an enum type
    let mut assigned: Vec<(u16, i32)> = Vec::new();
    for p in &cx.hir.procs {
        super::super::values::walk_stmts(&p.body, &mut |s| {
            if let StmtKind::Assign(
                Place::Global(v) | Place::PerPlayer(v, _) | Place::PerCard(v, _),
                _,
                Expr::Int(x),
            ) = &s.kind
                && let Ty::Enum(e) = t.vars[*v as usize].ty
            {
                assigned.push((e, *x));
            }
        });
    }
    for v in &t.vars {
        if let (Ty::Enum(e), Expr::Int(x)) = (v.ty, &v.init) {
            assigned.push((e, *x));
        }
    }
    for (e, info) in t.enums.iter().enumerate() {
        let attrs: Vec<usize> = (0..na)
            .filter(|a| t.attrs[*a].ty == Ty::Enum(e as u16))
            .collect();
        if attrs.is_empty() || !cx.hir.usage.enums_used[e] {
            continue;
        }
        let span = cx.hir.usage.enum_spans[e];
        let decl = cx.text(span);
        for (x, name) in info.values.iter().enumerate() {
            let carried = (0..t.cards.len())
                .any(|c| attrs.iter().any(|a| t.card_attrs[c * na + a] == x as i32));
            if carried || assigned.contains(&(e as u16, x as i32)) {
                continue;
            }
            let at = value_span(decl, name).map_or(span, |(s, l)| {
                crate::diag::Span::new(span.start as usize + s, span.start as usize + s + l)
            });
            out.push(LINT.at(
                at,
                format!(
                    "`{name}` of enum `{}` is carried by no card and assigned by no rule",
                    info.name
                ),
                "no card has this value",
            ));
        }
    }
}

/// Where a value's name stands in the enum's declaration text.
fn value_span(decl: &str, name: &str) -> Option<(usize, usize)> {
    let open = decl.find('{')?;
    let mut from = open;
    while let Some(i) = decl[from..].find(name) {
        let at = from + i;
        let before = decl[..at]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let after = decl[at + name.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if !before && !after {
            return Some((at, name.len()));
        }
        from = at + name.len();
    }
    None
}
