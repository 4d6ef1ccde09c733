//! `unused-zone`: a zone no deck starts in and no rule mentions.

use super::{Context, Level, Lint, Pass};
use crate::diag::Diagnostic;

pub static LINT: Lint = Lint {
    name: "unused-zone",
    level: Level::Warning,
    description: "a zone that no deck starts in and no rule mentions",
    help: "move cards into the zone somewhere, or delete it",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let u = &cx.hir.usage;
    for (i, z) in cx.hir.tables.zones.iter().enumerate() {
        if !u.zones_used[i] {
            out.push(LINT.at(
                u.zone_spans[i],
                format!("zone `{}` is never used", z.name),
                "no card can ever be here",
            ));
        }
    }
}
