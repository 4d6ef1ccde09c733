//! `never-written-var`: a variable the rules read but never write, so it
//! always holds its initial value (the winners rule reading a score nobody
//! adds to makes every game a tie).

use super::{Context, Level, Lint, Pass};
use crate::diag::Diagnostic;
use crate::graph::fmt_expr;

pub static LINT: Lint = Lint {
    name: "never-written-var",
    level: Level::Warning,
    description: "a variable that is read but never written: it always holds its initial value",
    help: "write the variable where the game should change it, or make it an option",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let u = &cx.hir.usage;
    let t = &cx.hir.tables;
    for (i, v) in t.vars.iter().enumerate() {
        if u.vars_read[i] && !u.vars_written[i] {
            let init = fmt_expr(t, &[], &v.init);
            let winners = t
                .winners_key
                .as_ref()
                .is_some_and(|k| reads_var(k, i as u16));
            let mut msg = format!(
                "variable `{}` is read but never written: it is always {init}",
                v.name
            );
            if winners {
                msg.push_str(", and the winners rule ranks players by it, so every game is a tie");
            }
            out.push(LINT.at(u.var_spans[i], msg, "never written"));
        }
    }
}

fn reads_var(e: &crate::check::hir::Expr, var: u16) -> bool {
    let text = format!("{e:?}");
    text.contains(&format!("Global({var})"))
        || text.contains(&format!("PerPlayer({var},"))
        || text.contains(&format!("PerCard({var},"))
}
