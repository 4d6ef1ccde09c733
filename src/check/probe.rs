//! An expression checked on its own against a whole rules file, for the
//! REPL's `expect`: the file's global names (options, zones, variables,
//! enum values, functions) plus the players `P0`, `P1`... as locals 0, 1...

use super::expr::Scope;
use super::*;
use crate::hir::{Expr, Ty};

/// Resolve `e` in the global scope of `file` with `players` player names
/// bound to locals `0..players`. Returns the typed expression, or the
/// messages of what is wrong with it.
pub fn check_expr(file: &ast::File, e: &ast::Expr, players: usize) -> Result<(Expr, Ty), String> {
    let mut c = Checker::new();
    c.declare_all(file);
    c.check_decks(file);
    c.check_vars(file);
    let before = c.diags.len();
    let mut scope = Scope::default();
    for p in 0..players {
        scope.push(&format!("P{p}"), Ty::Player);
    }
    let (x, t) = c.expr(e, &mut scope);
    let found: Vec<String> = c.diags[before..]
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let mut m = d.message.clone();
            if let Some((_, l)) = d.labels.first().filter(|(_, l)| !l.is_empty()) {
                m = format!("{m}: {l}");
            }
            if let Some(h) = &d.help {
                m = format!("{m} ({h})");
            }
            m
        })
        .collect();
    if found.is_empty() {
        Ok((x, t))
    } else {
        Err(found.join("; "))
    }
}
