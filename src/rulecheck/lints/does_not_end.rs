//! `does-not-end`: games still running at the decision limit
//! (`--max-decisions`), or rules that run on without ever asking anyone
//! (the engine's runaway guard). Reported by the simulation, with the seed
//! and the moves that lead there.

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "does-not-end",
    level: Level::Error,
    description: "games that do not end within the decision limit, or rules that loop without a decision",
    help: "make sure every path reaches `end game` (a counter that only grows, a pile that only shrinks), or raise --max-decisions if games are just long",
    pass: Pass::Simulation,
};
