//! `unused-enum`: an enumeration that no attribute, variable, parameter or
//! expression refers to.

use super::{Context, Level, Lint, Pass};
use crate::diag::Diagnostic;

pub static LINT: Lint = Lint {
    name: "unused-enum",
    level: Level::Warning,
    description: "an enum that no type or expression refers to",
    help: "use the enum as the type of an attribute or variable, or delete it",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let u = &cx.hir.usage;
    for (i, e) in cx.hir.tables.enums.iter().enumerate() {
        if !u.enums_used[i] {
            out.push(LINT.at(
                u.enum_spans[i],
                format!("enum `{}` is never used", e.name),
                "declared here, used nowhere",
            ));
        }
    }
}
