//! `unreachable-threshold`: a count compared with a threshold that the
//! deck cannot reach: fewer cards can ever pass the count's filter than the
//! rule needs (a collection of 30 cloaks when the deck holds 24 and 3
//! jokers), judged for each value of the enum loop variables involved.
//! The analysis is in `rulecheck/values.rs` and `rulecheck/judge.rs`.

use super::{Context, Level, Lint, Pass};
use crate::diag::Diagnostic;

pub static LINT: Lint = Lint {
    name: "unreachable-threshold",
    level: Level::Warning,
    description: "a count compared with a number the deck cannot reach (or always reaches)",
    help: "lower the threshold, or add cards that can count for it",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    for s in cx.comparisons().iter().filter(|s| s.threshold) {
        let when = if s.only_for.is_empty() {
            String::new()
        } else {
            format!(" for {}", s.only_for.join("; "))
        };
        let (what, label) = if s.never {
            ("can never be true", "never reached")
        } else {
            ("can never be false", "always reached")
        };
        out.push(LINT.at(
            s.span,
            format!(
                "{} {what}{when}: the count can only be {}, the threshold is {}",
                s.text, s.left, s.right
            ),
            label,
        ));
    }
}
