//! What the search agents share: the budget of a search (iterations or time
//! per move), random rollouts with an optional cap, the reward of a playout
//! for every player, the statistics of a searched move ([`MoveStat`]), and
//! matching the real position's actions with a sampled state's.

use crate::engine::{Action, Game, State};
use rand::Rng;
use std::time::{Duration, Instant};

/// How much a search may spend on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// This many iterations (playouts): deterministic for a seed.
    Iterations(u32),
    /// This many milliseconds of wall time (at least one iteration).
    Millis(u32),
}

impl Budget {
    /// A clock for one move.
    pub fn start(self) -> Clock {
        Clock {
            budget: self,
            started: Instant::now(),
            done: 0,
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Millis(ms) => write!(f, "{ms}ms"),
        }
    }
}

/// Counts one move's iterations against its budget.
pub struct Clock {
    budget: Budget,
    started: Instant,
    pub done: u32,
}

impl Clock {
    /// Whether another iteration may start (and count it).
    pub fn tick(&mut self) -> bool {
        let more = match self.budget {
            Budget::Iterations(n) => self.done < n.max(1),
            Budget::Millis(ms) => {
                self.done == 0 || self.started.elapsed() < Duration::from_millis(u64::from(ms))
            }
        };
        if more {
            self.done += 1;
        }
        more
    }
}

/// The settings every search agent takes: `NAME:BUDGET[:cap=N]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchSpec {
    pub budget: Budget,
    /// Rollouts stop after this many decisions and are scored from the
    /// `winners` key; `None` plays them to the end.
    pub cap: Option<u32>,
}

/// What a search found about one move of the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStat {
    /// Index in the root's legal actions.
    pub action: usize,
    pub visits: u32,
    /// Mean reward for the player to move, 0 (loss) to 1 (win).
    pub value: f64,
}

/// The reward of `state` for each player, into `out`, 0 to 1. A finished
/// game: the winners share 1. Otherwise (a capped rollout, or a fault) the
/// rules' `evaluate` heuristic decides if they declare one (higher is
/// better), else the `winners` key the right way up for the winners rule:
/// each player scores the share of the others it beats (a tie counts a
/// half).
pub fn rewards(game: &Game, state: &State, out: &mut Vec<f64>) {
    let n = state.players();
    out.clear();
    out.resize(n, 0.0);
    if state.is_over() {
        let w = state.winners(game);
        if !w.is_empty() {
            for p in &w {
                out[*p] = 1.0 / w.len() as f64;
            }
            return;
        }
    }
    let mut scores = Vec::new();
    let highest = if !state.is_over() && state.evaluate_into(game, &mut scores) {
        true
    } else {
        scores = state.scores(game);
        game.graph().tables.winners_highest
    };
    if scores.len() != n || n < 2 {
        out.fill(0.5);
        return;
    }
    for p in 0..n {
        let mut beat = 0.0;
        for q in 0..n {
            if q != p {
                beat += match scores[p].cmp(&scores[q]) {
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater if highest => 1.0,
                    std::cmp::Ordering::Less if !highest => 1.0,
                    _ => 0.0,
                };
            }
        }
        out[p] = beat / (n - 1) as f64;
    }
}

/// Play random legal moves until the game ends, `cap` decisions pass, or
/// the rules fault (the state is then scored as it stands). Make/unmake is
/// not used here: a rollout runs on a copy the search throws away, which is
/// cheaper than unmaking each of its moves (docs/agents.md).
pub fn rollout(
    game: &Game,
    state: &mut State,
    rng: &mut impl Rng,
    buf: &mut Vec<Action>,
    cap: Option<u32>,
) {
    let mut pick =
        |_: &Game, _: &State, _: usize, legal: &[Action]| rng.random_range(0..legal.len());
    crate::playout::play_from(game, state, &mut pick, &mut (), buf, cap);
}

/// The keys of `actions` in `state` as `seat` sees them.
pub fn keys_into(game: &Game, state: &State, actions: &[Action], seat: usize, out: &mut Vec<u64>) {
    out.clear();
    out.extend(
        actions
            .iter()
            .map(|a| state.observed_action(game, *a, seat)),
    );
}
