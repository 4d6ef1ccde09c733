//! `constant-condition`: a comparison that can never be true, or never be
//! false, given the values its sides can take: card attributes from the
//! cards the decks hold, options from their ranges, variables from their
//! initial value and every write (`rank == 14` when ranks stop at 13). The
//! analysis is in `rulecheck/values.rs` and `rulecheck/judge.rs`; counts
//! against thresholds are `unreachable-threshold`'s.

use super::{Context, Level, Lint, Pass};
use crate::diag::Diagnostic;

pub static LINT: Lint = Lint {
    name: "constant-condition",
    level: Level::Warning,
    description: "a comparison that can never be true (or never be false) given the values its sides can take",
    help: "compare with a value the cards, options or variables can actually have",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    for s in cx.comparisons().iter().filter(|s| !s.threshold) {
        let (what, label) = if s.never {
            ("can never be true", "never true")
        } else {
            ("can never be false", "always true")
        };
        out.push(LINT.at(
            s.span,
            format!(
                "{} {what}: the left side can only be {}, the right side {}",
                s.text, s.left, s.right
            ),
            label,
        ));
    }
}
