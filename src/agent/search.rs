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
    /// Whether another iteration may start (and count it). After Ctrl-C
    /// (where a command installed the handler, `crate::interrupt`) the search
    /// stops after its first iteration: whoever asked drops the move.
    pub fn tick(&mut self) -> bool {
        if self.done > 0 && crate::interrupt::interrupted() {
            return false;
        }
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
    /// Rollouts stop after this many decisions (0: no rollout, the new
    /// leaf is scored as it stands) and are scored from the `evaluate`
    /// heuristic or the `winners` key; `None` plays them to the end.
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

/// How far a heuristic reward may stray from a draw's 0.5: a position still
/// in play scores strictly between 0.1 and 0.9, so a won game (1) is always
/// worth more than any lead, and a bigger lead more than a smaller one.
pub const HEURISTIC_SPAN: f64 = 0.4;

/// Scores playouts for every player (see [`Scorer::rewards`]), keeping the
/// scale of the heuristic differences it has seen in the current search.
#[derive(Clone, Debug, Default)]
pub struct Scorer {
    scores: Vec<i32>,
    /// Sum and count of the absolute differences seen, for the scale.
    seen: f64,
    count: u32,
}

impl Scorer {
    /// Forget the scale (a new search).
    pub fn reset(&mut self) {
        self.seen = 0.0;
        self.count = 0;
    }

    /// The reward of `state` for each player, into `out`, 0 to 1. A
    /// finished game: the winners share 1, the others 0 (a finished game
    /// without winners: 0.5 each). Otherwise (a capped rollout, or a
    /// fault) the position is judged by the rules' `evaluate` heuristic if
    /// they declare one (higher is better), else by the `winners` key the
    /// right way up: each player scores the mean over the other players of
    /// `0.5 + 0.4 * tanh(d / scale)`, `d` its lead over that player and
    /// `scale` the mean absolute lead seen so far in this search (at least
    /// 1). So a lead is worth more than a tie and less than a win, and a
    /// bigger lead more than a smaller one, whatever the heuristic's units.
    pub fn rewards(&mut self, game: &Game, state: &State, out: &mut Vec<f64>) {
        let n = state.players();
        out.clear();
        out.resize(n, 0.5);
        if state.is_over() {
            let w = state.winners(game);
            if !w.is_empty() {
                out.fill(0.0);
                for p in &w {
                    out[*p] = 1.0 / w.len() as f64;
                }
                return;
            }
        }
        let highest = if !state.is_over() && state.evaluate_into(game, &mut self.scores) {
            true
        } else {
            self.scores = state.scores(game);
            game.graph().tables.winners_highest
        };
        if self.scores.len() != n || n < 2 {
            return;
        }
        let sign = if highest { 1.0 } else { -1.0 };
        for p in 0..n {
            for q in p + 1..n {
                let d = f64::from(self.scores[p]) - f64::from(self.scores[q]);
                self.seen += d.abs();
                self.count += 1;
            }
        }
        let scale = (self.seen / f64::from(self.count.max(1))).max(1.0);
        for (p, r) in out.iter_mut().enumerate() {
            let mine = f64::from(self.scores[p]);
            let mut sum = 0.0;
            for (q, theirs) in self.scores.iter().enumerate() {
                if q != p {
                    let d = sign * (mine - f64::from(*theirs));
                    sum += 0.5 + HEURISTIC_SPAN * (d / scale).tanh();
                }
            }
            *r = sum / (n - 1) as f64;
        }
    }
}

/// The reward of `state` for each player, into `out`, 0 to 1, judged on its
/// own (the scale is this position's differences): see [`Scorer::rewards`].
pub fn rewards(game: &Game, state: &State, out: &mut Vec<f64>) {
    Scorer::default().rewards(game, state, out);
}

/// Whether the game is over with `player` its only winner.
pub fn sole_winner(game: &Game, state: &State, player: usize) -> bool {
    state.is_over() && state.winners(game) == [player]
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
