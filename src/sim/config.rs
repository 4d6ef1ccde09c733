//! What a batch of games plays ([`SimConfig`]): the table size, how many
//! games and from which seed, the options, the agents in the seats and
//! how they rotate, the step limit, the conservation check and the threads.
//! Read by `play.rs` (which plays it) and `report.rs` (which reports it).

use crate::agent::AgentKind;
use crate::engine::Game;
use crate::playout;

/// What to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimConfig {
    pub players: usize,
    /// How many games, and the index of the first (for shards and replays).
    pub games: u64,
    pub first: u64,
    pub seed: u64,
    /// One value per option of the game.
    pub options: Vec<i32>,
    /// Seat `p` of game `i` is played by `agents[(p + i) % agents.len()]`
    /// when the list names different agents (seats rotate from game to
    /// game), else by `agents[p % agents.len()]`; random when empty.
    pub agents: Vec<AgentKind>,
    /// A game still running after this many decisions did not end.
    pub max_decisions: u32,
    /// Check that every card is in exactly one zone after every step.
    pub check_conservation: bool,
    /// Threads; `None` uses rayon's global pool (all cores).
    pub jobs: Option<usize>,
}

impl SimConfig {
    pub const DEFAULT_MAX_DECISIONS: u32 = 100_000;

    /// Defaults: the game's default options, random agents, seed 0.
    pub fn new(game: &Game, players: usize, games: u64) -> SimConfig {
        SimConfig {
            players,
            games,
            first: 0,
            seed: 0,
            options: game.default_options(),
            agents: vec![AgentKind::Random],
            max_decisions: SimConfig::DEFAULT_MAX_DECISIONS,
            check_conservation: false,
            jobs: None,
        }
    }

    /// A one-line reason why this configuration cannot be played.
    pub fn validate(&self, game: &Game) -> Result<(), String> {
        game.check_players(self.players)?;
        if self.options.len() != game.options().len() {
            return Err(format!(
                "expected {} option values, got {}",
                game.options().len(),
                self.options.len()
            ));
        }
        playout::check_jobs(self.jobs)
    }

    pub fn agent(&self, seat: usize) -> AgentKind {
        if self.agents.is_empty() {
            AgentKind::Random
        } else {
            self.agents[seat % self.agents.len()]
        }
    }

    /// How far game `index` turns the agents round the table: 0 when every
    /// seat plays the same agent, else `index % agents.len()`.
    pub fn rotation(&self, index: u64) -> usize {
        match self.agents.first() {
            Some(a) if self.agents.iter().any(|b| b != a) => {
                (index % self.agents.len() as u64) as usize
            }
            _ => 0,
        }
    }

    /// The agent in `seat` of game `index`.
    pub fn seat_agent(&self, seat: usize, index: u64) -> AgentKind {
        self.agent(seat + self.rotation(index))
    }
}
