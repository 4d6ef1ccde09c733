//! `card-lost`: card conservation fails in a simulated game: a card is in
//! no zone, or in two. The rules language moves cards and cannot lose
//! them, so this points at the engine as much as at the rules.

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "card-lost",
    level: Level::Error,
    description: "a card that vanished or was duplicated in a simulated game",
    help: "replay the game to this move; if the rules only move cards, report it as an engine bug",
    pass: Pass::Simulation,
};
