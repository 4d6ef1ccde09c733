//! `single-option-choice`: a `choose` with exactly one arm, no `for`
//! binding and no `otherwise`. The player is asked but never has a real
//! choice (and, if the arm has a `when` guard that fails, is stuck).

use super::{Context, Level, Lint, Pass};
use crate::check::hir::StmtKind;
use crate::diag::{Diagnostic, Span};
use crate::rulecheck::flow;

pub static LINT: Lint = Lint {
    name: "single-option-choice",
    level: Level::Warning,
    description: "a `choose` with a single fixed option: the player has no real choice",
    help: "run the arm's body without asking, or add the alternative (for example `\"pass\" { }` or `otherwise { }`)",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    for p in &cx.hir.procs {
        flow::walk(&p.body, &mut |s| {
            let StmtKind::Choose {
                arms,
                otherwise: None,
                ..
            } = &s.kind
            else {
                return;
            };
            let [arm] = arms.as_slice() else { return };
            if arm.bind.is_some() {
                return;
            }
            let choose = Span::new(
                s.span.start as usize,
                s.span.start as usize + "choose".len(),
            );
            let mut d = LINT.at(
                choose,
                "this choice has a single option",
                "the player is asked here",
            );
            d = d.label(label_span(cx, arm.span), "but this is the only option");
            if arm.guard.is_some() {
                d = d.help("when its `when` guard fails the player is stuck: add `otherwise { }`, or run the body without asking");
            }
            out.push(d);
        });
    }
}

/// The arm's quoted label: from its opening quote to the closing one.
fn label_span(cx: &Context, arm: Span) -> Span {
    let text = cx.text(arm);
    match text.strip_prefix('"').and_then(|t| t.find('"')) {
        Some(close) => Span::new(arm.start as usize, arm.start as usize + close + 2),
        None => arm,
    }
}
