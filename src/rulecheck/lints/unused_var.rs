//! `unused-var`: a variable declared and then neither read nor written.

use super::{Context, Level, Lint, Pass};
use crate::diag::Diagnostic;

pub static LINT: Lint = Lint {
    name: "unused-var",
    level: Level::Warning,
    description: "a variable that is never read nor written",
    help: "use the variable, or delete its declaration",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let u = &cx.hir.usage;
    for (i, v) in cx.hir.tables.vars.iter().enumerate() {
        if !u.vars_read[i] && !u.vars_written[i] {
            out.push(LINT.at(
                u.var_spans[i],
                format!("variable `{}` is never used", v.name),
                "declared here, used nowhere",
            ));
        }
    }
}
