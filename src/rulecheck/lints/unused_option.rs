//! `unused-option`: an option the rules never read. Setting it changes
//! nothing, so a designer tuning it is misled.

use super::{Context, Level, Lint, Pass};
use crate::diag::Diagnostic;

pub static LINT: Lint = Lint {
    name: "unused-option",
    level: Level::Warning,
    description: "an option that no expression reads",
    help: "read the option where it matters, or delete it",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let u = &cx.hir.usage;
    for (i, o) in cx.hir.tables.options.iter().enumerate() {
        if !u.options_read[i] {
            out.push(LINT.at(
                u.option_spans[i],
                format!("option `{}` is never read", o.name),
                "setting this option changes nothing",
            ));
        }
    }
}
