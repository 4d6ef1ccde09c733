//! `invalid-allow`: a `# rulecheck:` comment that is malformed, names no
//! lint, or silences `at` a name nothing has, so it silences nothing.
//! Reported by the driver (`allow.rs`).

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "invalid-allow",
    level: Level::Warning,
    description: "a `# rulecheck:` comment that is malformed, names an unknown lint, or names nothing with `at NAME`",
    help: "write `# rulecheck: allow(LINT)` or `# rulecheck: allow-file(LINT)`; `rulecheck --list` shows the lints",
    pass: Pass::Driver,
};
