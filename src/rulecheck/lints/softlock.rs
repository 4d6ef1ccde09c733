//! `softlock`: a game that is not over in which the player who must choose
//! has no legal action (every arm's `when` or filter fails and there is no
//! `otherwise`). Reported by the simulation at the stuck choice.

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "softlock",
    level: Level::Error,
    description: "a game that is not over where the player who must choose has no legal action",
    help: "add `otherwise { ... }` to the choice, or an arm that is always possible",
    pass: Pass::Simulation,
};
