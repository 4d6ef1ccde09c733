//! `no-lead-changes`: in no finished game of a column did the lead (the
//! one player best on the `winners` key) pass from one player to another:
//! whoever leads first wins, or the key moves only at the very end.

use super::{Level, Lint, Pass};

pub static LINT: Lint = Lint {
    name: "no-lead-changes",
    level: Level::Warning,
    description: "the lead on the winners key never changed hands in any game",
    help: "a game whose first leader always wins has little to play for: let players catch up, or silence it with `# rulecheck: allow(no-lead-changes) why` if the score is only counted at the end",
    pass: Pass::Simulation,
};
