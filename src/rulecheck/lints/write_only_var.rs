//! `write-only-var`: a variable the rules set but never read. Nothing the
//! players do depends on it (`+=` and `-=` count as writes, not reads).

use super::{Context, Level, Lint, Pass};
use crate::check::hir::Place;
use crate::diag::Diagnostic;
use crate::graph::Node;

pub static LINT: Lint = Lint {
    name: "write-only-var",
    level: Level::Warning,
    description: "a variable that is written but never read",
    help: "read the variable where it should matter (a condition, a score, the winners rule), or delete it",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let u = &cx.hir.usage;
    for (i, v) in cx.hir.tables.vars.iter().enumerate() {
        if u.vars_written[i] && !u.vars_read[i] {
            let mut d = LINT.at(
                u.var_spans[i],
                format!("variable `{}` is written but never read", v.name),
                "declared here, never read",
            );
            if let Some(span) = first_write(cx, i as u16) {
                d = d.label(span, "written here");
            }
            out.push(d);
        }
    }
}

/// Where the variable is first assigned, in graph order.
fn first_write(cx: &Context, var: u16) -> Option<crate::diag::Span> {
    cx.graph.phases.iter().find_map(|ph| {
        ph.nodes
            .iter()
            .zip(&ph.spans)
            .find_map(|(n, span)| match n {
                Node::Assign(Place::Global(v) | Place::PerPlayer(v, _), ..) if *v == var => {
                    Some(*span)
                }
                _ => None,
            })
    })
}
