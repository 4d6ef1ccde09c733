//! `first-mover-advantage`: the seat that took each game's first decision
//! (drawn by lot or not) wins clearly more than its fair share. Judged by
//! `rulecheck/balance.rs` (significance after a Holm correction, and a
//! least size that matters).

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "first-mover-advantage",
    level: Level::Warning,
    description: "the seat that moves first wins clearly more than its fair share",
    help: "give the later seats something back (a card, a point, the last turn), or check the tie-break; if moving first is meant to matter, silence it with `# rulecheck: allow(first-mover-advantage) why`",
    pass: Pass::Simulation,
};
