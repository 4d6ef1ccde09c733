//! `invariant-broken`: a declared `invariant "text": EXPR` that does not
//! hold at some decision of a simulated game (checked after setup and after
//! every move).

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "invariant-broken",
    level: Level::Error,
    description: "a declared invariant that does not hold at a decision of a simulated game",
    help: "replay the game to the move that broke it and find the rule that left the table so",
    pass: Pass::Simulation,
};
