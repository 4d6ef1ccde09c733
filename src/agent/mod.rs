//! Players that choose moves through the engine API alone: the [`Agent`]
//! trait, the agent kinds a command line can name ([`AgentKind`]), and the
//! two simple agents, [`RandomAgent`] and [`GreedyAgent`]. Agents know no
//! game: they see a [`Game`], a [`State`] and the legal actions.

mod greedy;
mod random;

pub use greedy::GreedyAgent;
pub use random::RandomAgent;

use crate::engine::{Action, Game, State};

/// Something that picks one of the legal actions.
pub trait Agent {
    /// The index in `actions` (never empty) of the action to take for the
    /// player `state.chooser()`.
    fn choose(&mut self, game: &Game, state: &State, actions: &[Action]) -> usize;
}

/// The agents that can be named on a command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum AgentKind {
    /// Uniformly random legal moves.
    Random,
    /// One-ply lookahead on the winners score; random among equals.
    Greedy,
}

impl AgentKind {
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
        }
    }

    /// A fresh agent of this kind, seeded.
    pub fn build(self, seed: u64) -> Box<dyn Agent + Send> {
        match self {
            AgentKind::Random => Box::new(RandomAgent::new(seed)),
            AgentKind::Greedy => Box::new(GreedyAgent::new(seed)),
        }
    }
}

impl std::fmt::Display for AgentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for AgentKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(AgentKind::Random),
            "greedy" => Ok(AgentKind::Greedy),
            _ => Err(format!(
                "unknown agent `{s}`: the agents are random, greedy"
            )),
        }
    }
}
