//! Players that choose moves through the engine API alone: the [`Agent`]
//! trait, the agents a user can name ([`AgentKind`], parsed here and only
//! here for `sim --agent`, `rulecheck --agent` and the REPL's `bot` and
//! `hint`), and the agents themselves: [`RandomAgent`], the one-ply
//! [`GreedyAgent`] (honest) and [`OracleAgent`] (a cheat, by name only),
//! flat Monte Carlo [`McAgent`], and UCT / IS-MCTS [`TreeAgent`]. Agents
//! know no game: they see a [`Game`], a [`State`] and the legal actions,
//! and every agent but the oracle decides from what its seat knows
//! (determinizations, `State::determinize`). See docs/agents.md.

mod greedy;
mod mc;
mod mcts;
mod random;
mod search;

pub use greedy::{GreedyAgent, OracleAgent, SAMPLES, relative_value};
pub use mc::McAgent;
pub use mcts::TreeAgent;
pub use random::RandomAgent;
pub use search::{Budget, HEURISTIC_SPAN, MoveStat, Scorer, SearchSpec, rewards, rollout};

use crate::engine::{Action, Game, State};

/// Something that picks one of the legal actions.
pub trait Agent {
    /// The index in `actions` (never empty) of the action to take for the
    /// player `state.chooser()`.
    fn choose(&mut self, game: &Game, state: &State, actions: &[Action]) -> usize;

    /// Become the agent [`AgentKind::build`] makes with `seed`, in place
    /// (a batch reuses its agents from game to game); false when this
    /// agent cannot, and a new one must be built.
    fn reseed(&mut self, _seed: u64) -> bool {
        false
    }

    /// What a search agent thinks of each move, best first (`hint`);
    /// `None` for agents that do not search.
    fn analyse(
        &mut self,
        _game: &Game,
        _state: &State,
        _actions: &[Action],
    ) -> Option<Vec<MoveStat>> {
        None
    }
}

/// The agents that can be named: `random`, `greedy`, `oracle`, and
/// `mc:B`, `mcts:B`, `ismcts:B` with a budget `B` of iterations (`400`) or
/// milliseconds per move (`50ms`), optionally `:cap=N` (rollouts stop after
/// N decisions and are scored from the `winners` key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentKind {
    /// Uniformly random legal moves.
    Random,
    /// One-ply lookahead on the winners score over determinizations.
    Greedy,
    /// One-ply lookahead reading the real state, hidden cards included.
    Oracle,
    /// Flat Monte Carlo.
    Mc(SearchSpec),
    /// UCT on one determinization per move.
    Mcts(SearchSpec),
    /// Single-observer information-set MCTS.
    Ismcts(SearchSpec),
}

/// The list of agents, for error messages.
pub const AGENTS: &str = "random, greedy, oracle, mc:N, mcts:N, ismcts:N (N iterations, or a time such as 50ms; add :cap=N to cap rollouts)";

impl AgentKind {
    /// The agent as it is written (`mcts:200`).
    pub fn name(self) -> String {
        self.to_string()
    }

    /// A fresh agent of this kind, seeded.
    pub fn build(self, seed: u64) -> Box<dyn Agent + Send> {
        match self {
            AgentKind::Random => Box::new(RandomAgent::new(seed)),
            AgentKind::Greedy => Box::new(GreedyAgent::new(seed)),
            AgentKind::Oracle => Box::new(OracleAgent::new(seed)),
            AgentKind::Mc(s) => Box::new(McAgent::new(s, seed)),
            AgentKind::Mcts(s) => Box::new(TreeAgent::uct(s, seed)),
            AgentKind::Ismcts(s) => Box::new(TreeAgent::ismcts(s, seed)),
        }
    }

    /// Whether the agent reads cards its seat cannot see.
    pub fn cheats(self) -> bool {
        self == AgentKind::Oracle
    }
}

impl std::fmt::Display for AgentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (name, spec) = match self {
            AgentKind::Random => return f.write_str("random"),
            AgentKind::Greedy => return f.write_str("greedy"),
            AgentKind::Oracle => return f.write_str("oracle"),
            AgentKind::Mc(s) => ("mc", s),
            AgentKind::Mcts(s) => ("mcts", s),
            AgentKind::Ismcts(s) => ("ismcts", s),
        };
        write!(f, "{name}:{}", spec.budget)?;
        if let Some(c) = spec.cap {
            write!(f, ":cap={c}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for AgentKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let lower = s.trim().to_ascii_lowercase();
        let mut parts = lower.split(':');
        let name = parts.next().unwrap_or("");
        let simple = match name {
            "random" => Some(AgentKind::Random),
            "greedy" => Some(AgentKind::Greedy),
            "oracle" => Some(AgentKind::Oracle),
            "mc" | "mcts" | "ismcts" => None,
            _ => return Err(format!("unknown agent `{s}`: the agents are {AGENTS}")),
        };
        if let Some(k) = simple {
            return match parts.next() {
                None => Ok(k),
                Some(_) => Err(format!("agent `{name}` takes no budget: write `{name}`")),
            };
        }
        let Some(budget) = parts.next() else {
            return Err(format!(
                "agent `{name}` needs a budget: `{name}:200` (iterations) or `{name}:50ms`"
            ));
        };
        let budget = parse_budget(budget, s)?;
        let mut cap = None;
        for extra in parts {
            match extra
                .strip_prefix("cap=")
                .and_then(|n| n.parse::<u32>().ok())
            {
                Some(n) => cap = Some(n),
                _ => {
                    return Err(format!(
                        "bad setting `{extra}` in `{s}`: the only one is cap=N (N decisions per rollout, 0 for none)"
                    ));
                }
            }
        }
        let spec = SearchSpec { budget, cap };
        Ok(match name {
            "mc" => AgentKind::Mc(spec),
            "mcts" => AgentKind::Mcts(spec),
            _ => AgentKind::Ismcts(spec),
        })
    }
}

/// The longest time per move of a search agent: ten minutes.
pub const MAX_MILLIS: u32 = 600_000;

/// A search agent's budget `b` (in the agent spec `spec`): iterations, or
/// a time in `ms` or `s` (a time out of range is said as such).
fn parse_budget(b: &str, spec: &str) -> Result<Budget, String> {
    let whole = |t: &str| {
        (!t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()))
            .then(|| t.parse::<u64>().unwrap_or(u64::MAX))
    };
    let millis = match b.strip_suffix("ms").and_then(whole) {
        Some(ms) => Some(ms),
        None => b
            .strip_suffix('s')
            .and_then(whole)
            .map(|s| s.saturating_mul(1000)),
    };
    if let Some(ms) = millis {
        return match u32::try_from(ms) {
            Ok(ms) if (1..=MAX_MILLIS).contains(&ms) => Ok(Budget::Millis(ms)),
            _ => Err(format!(
                "bad time `{b}` in `{spec}`: a time per move is 1ms to {MAX_MILLIS}ms, or 1s to {}s",
                MAX_MILLIS / 1000
            )),
        };
    }
    match b.parse::<u32>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(Budget::Iterations(n)),
        _ => Err(format!(
            "bad budget `{b}` in `{spec}`: write a number of iterations (1 to 1000000) or a time such as 50ms"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::AgentKind;

    #[test]
    fn a_time_budget_at_and_past_its_limit() {
        for ok in ["mcts:600000ms", "mcts:600s", "ismcts:1ms", "mc:1s"] {
            assert!(ok.parse::<AgentKind>().is_ok(), "{ok}");
        }
        for bad in [
            "mcts:600001ms",
            "mcts:601s",
            "mcts:0ms",
            "mcts:99999999999ms",
        ] {
            let e = bad.parse::<AgentKind>().unwrap_err();
            assert!(e.contains("1ms to 600000ms, or 1s to 600s"), "{bad}: {e}");
        }
        let e = "mcts:lots".parse::<AgentKind>().unwrap_err();
        assert!(e.contains("bad budget `lots`"), "{e}");
    }

    #[test]
    fn agent_names_round_trip() {
        for s in [
            "random",
            "greedy",
            "oracle",
            "mc:100",
            "mcts:400",
            "mcts:50ms",
            "ismcts:300:cap=40",
            "mcts:100:cap=0",
        ] {
            let k: AgentKind = s.parse().unwrap();
            assert_eq!(k.to_string(), s);
        }
        assert_eq!(
            "mcts:2s".parse::<AgentKind>().unwrap().to_string(),
            "mcts:2000ms"
        );
        for bad in [
            "mcts",
            "mcts:0",
            "mcts:x",
            "greedy:3",
            "clever",
            "mc:5:deep",
        ] {
            assert!(bad.parse::<AgentKind>().is_err(), "{bad}");
        }
    }
}
