//! `all-ties`: every finished game of a column ended in a tie (or with no
//! winner at all): the `winners` key never tells the players apart.

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "all-ties",
    level: Level::Warning,
    description: "every finished game was a tie or had no winner: the winners key never separates the players",
    help: "check that the variable or zone the winners rule reads is written during the game",
    pass: Pass::Simulation,
};
