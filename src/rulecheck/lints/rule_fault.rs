//! `rule-fault`: the rules did something impossible in a simulated game
//! (a card taken from an empty zone, a player that does not exist, ...).
//! Reported at the node that failed.

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "rule-fault",
    level: Level::Error,
    description: "the rules did something impossible in a simulated game (for example `top` of an empty zone)",
    help: "guard the statement (`if count(zone) > 0 { ... }`) or make sure the zone is never empty here",
    pass: Pass::Simulation,
};
