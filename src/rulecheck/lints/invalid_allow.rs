//! `invalid-allow`: a `# rulecheck:` comment that is malformed or names no
//! lint, so it silences nothing. Reported by the driver (`allow.rs`).

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "invalid-allow",
    level: Level::Warning,
    description: "a `# rulecheck:` comment that is malformed or names an unknown lint",
    help: "write `# rulecheck: allow(LINT)` or `# rulecheck: allow-file(LINT)`; `rulecheck --list` shows the lints",
    pass: Pass::Driver,
};
