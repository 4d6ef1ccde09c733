//! `seat-imbalance`: a seat wins clearly more or less than its fair share
//! (significant after a Holm correction over every seat of every column,
//! and by a margin that matters). Judged by `rulecheck/balance.rs`.

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "seat-imbalance",
    level: Level::Warning,
    description: "a seat wins clearly more or less than its fair share",
    help: "look for a rule that favours a seat by its number (a tie-break, who deals, who starts); silence it with `# rulecheck: allow(seat-imbalance) why` if it is intended",
    pass: Pass::Simulation,
};
