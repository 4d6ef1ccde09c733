//! `unreachable-phase`: a phase (or turn) that can never run, because no
//! live node of `start`, of a reaction or of a reachable phase calls it.
//! The checker's own warning E0107 (calls anywhere, dead code included)
//! folds into this lint: the driver renames it when the graph is missing.

use super::{Context, Level, Lint, Pass};
use crate::check::hir::ProcKind;
use crate::diag::Diagnostic;
use crate::graph::Node;

pub static LINT: Lint = Lint {
    name: "unreachable-phase",
    level: Level::Warning,
    description: "a phase that is never called from `start` or a reaction",
    help: "call it from a phase that runs, or delete it",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let live = cx.liveness();
    for (i, ph) in cx.graph.phases.iter().enumerate() {
        if live.phases[i] || ph.kind == ProcKind::Start {
            continue;
        }
        let mut d = LINT.at(
            ph.span,
            format!("phase `{}` can never run", ph.name),
            "never called from `start` or a reaction",
        );
        // Calls that exist but cannot run: in dead code or dead phases.
        for caller in &cx.graph.phases {
            for (n, span) in caller.nodes.iter().zip(&caller.spans) {
                if matches!(n, Node::Call(q, _) if *q as usize == i) {
                    d = d.label(*span, "called here, but this call never runs");
                }
            }
        }
        out.push(d);
    }
}

/// The checker's E0107 warning, renamed to this lint.
pub fn from_checker(d: &Diagnostic) -> Diagnostic {
    let mut d = d.clone();
    d.code = LINT.name.to_string();
    d.help = Some(LINT.help.to_string());
    d
}
