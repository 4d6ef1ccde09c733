//! `unused-card-kind`: a card kind that no deck deals, so no such card
//! ever exists.

use super::{Context, Level, Lint, Pass};
use crate::diag::Diagnostic;

pub static LINT: Lint = Lint {
    name: "unused-card-kind",
    level: Level::Warning,
    description: "a card kind that no deck is made of",
    help: "declare a deck of this kind (`deck NAME of KIND size N in ZONE { ... }`), or delete the kind",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let u = &cx.hir.usage;
    for (i, k) in cx.hir.tables.kinds.iter().enumerate() {
        if !u.deck_spans.iter().any(|(kind, _)| *kind as usize == i) {
            out.push(LINT.at(
                u.kind_spans[i],
                format!("card kind `{k}` is in no deck"),
                "no card of this kind is ever made",
            ));
        }
    }
}
