//! The greedy agents: one ply of lookahead. Each legal action is applied to
//! a clone of the state (which runs on to the next decision) and scored by
//! the chooser's `winners` key relative to the best other player, the right
//! way up for the game's winners rule (lowest or highest wins), or by the
//! rules' `evaluate` heuristic where they declare one. The best
//! action wins; ties are broken at random. An action that faults in the
//! lookahead scores worst.
//!
//! [`GreedyAgent`] is honest: it looks ahead in [`SAMPLES`] determinizations
//! of the position (the cards its seat does not know dealt anew, see
//! `State::determinize`) and averages. [`OracleAgent`] looks ahead in the
//! real state, reading cards its seat cannot see: it cheats, and exists only
//! under its own name, as a yardstick.

use super::Agent;
use super::search::keys_into;
use crate::engine::{Action, Determinizer, Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Determinizations an honest greedy agent averages over.
pub const SAMPLES: usize = 8;

/// One-ply lookahead over determinizations: sees what its seat sees.
pub struct GreedyAgent {
    rng: ChaCha8Rng,
    det: Determinizer,
    sample: Option<State>,
    next: Option<State>,
    keys: Vec<u64>,
    sample_actions: Vec<Action>,
    sample_keys: Vec<u64>,
    sums: Vec<f64>,
    counts: Vec<u32>,
}

impl GreedyAgent {
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
            det: Determinizer::default(),
            sample: None,
            next: None,
            keys: Vec::new(),
            sample_actions: Vec::new(),
            sample_keys: Vec::new(),
            sums: Vec::new(),
            counts: Vec::new(),
        }
    }
}

/// One-ply lookahead in the real state: reads hidden cards (a cheat).
pub struct OracleAgent {
    rng: ChaCha8Rng,
}

impl OracleAgent {
    pub fn new(seed: u64) -> OracleAgent {
        OracleAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

/// How good `scores` are for `seat`: higher is better whatever the rule.
/// Own score minus the best other score (the other way round when the
/// lowest score wins); with no other player, the own score alone.
pub fn relative_value(scores: &[i32], seat: usize, highest_wins: bool) -> i64 {
    let Some(&mine) = scores.get(seat) else {
        return 0;
    };
    let others = scores
        .iter()
        .enumerate()
        .filter(|(p, _)| *p != seat)
        .map(|(_, s)| i64::from(*s));
    let best_other = if highest_wins {
        others.max()
    } else {
        others.min()
    };
    let diff = i64::from(mine) - best_other.unwrap_or(0);
    if highest_wins { diff } else { -diff }
}

/// The value of playing `a` in `state` for `seat` (worst on a fault).
fn lookahead(game: &Game, state: &State, a: Action, seat: usize, next: &mut Option<State>) -> i64 {
    let next = match next {
        Some(n) => {
            n.clone_from(state);
            n
        }
        None => next.insert(state.clone()),
    };
    match next.apply_unchecked(game, a) {
        Ok(()) => value_of(game, next, seat),
        Err(_) => i64::MIN / 2,
    }
}

/// How good `state` is for `seat`: the `winners` key relative to the best
/// other player; in a game that declares `evaluate`, that heuristic while
/// the game goes on, and a win or loss beyond any heuristic once it ends.
pub fn value_of(game: &Game, state: &State, seat: usize) -> i64 {
    if State::has_evaluation(game) {
        if state.is_over() {
            let w = state.winners(game);
            return match (w.contains(&seat), w.is_empty()) {
                (true, _) => i64::MAX / 4,
                (false, true) => 0,
                (false, false) => -(i64::MAX / 4),
            };
        }
        let mut values = Vec::new();
        if state.evaluate_into(game, &mut values) {
            return relative_value(&values, seat, true);
        }
    }
    let highest = game.graph().tables.winners_highest;
    relative_value(&state.scores(game), seat, highest)
}

/// The best of `values` (none is NaN), ties broken at random.
fn best(values: impl Iterator<Item = f64>, rng: &mut ChaCha8Rng) -> usize {
    let mut top = f64::NEG_INFINITY;
    let mut pick = 0;
    let mut ties = 0u32;
    for (i, v) in values.enumerate() {
        if v > top {
            top = v;
            pick = i;
            ties = 1;
        } else if v == top {
            // Reservoir sampling: each of the tied actions is equally likely.
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                pick = i;
            }
        }
    }
    pick
}

impl Agent for GreedyAgent {
    fn choose(&mut self, game: &Game, state: &State, actions: &[Action]) -> usize {
        if actions.len() <= 1 {
            return 0;
        }
        let Some(seat) = state.chooser() else {
            return 0;
        };
        keys_into(game, state, actions, seat, &mut self.keys);
        self.sums.clear();
        self.sums.resize(actions.len(), 0.0);
        self.counts.clear();
        self.counts.resize(actions.len(), 0);
        let samples = if state.knows_everything(seat) {
            1
        } else {
            SAMPLES
        };
        for _ in 0..samples {
            let sample = self.sample.get_or_insert_with(|| state.clone());
            state.determinize_into(game, seat, &mut self.rng, &mut self.det, sample);
            sample.legal_actions_into(game, &mut self.sample_actions);
            keys_into(
                game,
                sample,
                &self.sample_actions,
                seat,
                &mut self.sample_keys,
            );
            for (i, key) in self.keys.iter().enumerate() {
                let Some(j) = self.sample_keys.iter().position(|k| k == key) else {
                    continue;
                };
                let a = self.sample_actions[j];
                self.sums[i] += lookahead(game, sample, a, seat, &mut self.next) as f64;
                self.counts[i] += 1;
            }
        }
        let values = self
            .sums
            .iter()
            .zip(&self.counts)
            .map(|(s, n)| if *n == 0 { f64::MIN } else { s / f64::from(*n) });
        best(values, &mut self.rng)
    }
}

impl Agent for OracleAgent {
    fn choose(&mut self, game: &Game, state: &State, actions: &[Action]) -> usize {
        if actions.len() <= 1 {
            return 0;
        }
        let Some(seat) = state.chooser() else {
            return 0;
        };
        let mut next = None;
        let values: Vec<f64> = actions
            .iter()
            .map(|a| lookahead(game, state, *a, seat, &mut next) as f64)
            .collect();
        best(values.into_iter(), &mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::relative_value;

    #[test]
    fn relative_value_follows_the_winners_rule() {
        assert_eq!(relative_value(&[10, 4, 7], 0, true), 3);
        assert_eq!(relative_value(&[10, 4, 7], 1, true), -6);
        assert_eq!(relative_value(&[10, 4, 7], 1, false), 3);
        assert_eq!(relative_value(&[10, 4, 7], 0, false), -6);
        assert_eq!(relative_value(&[5], 0, false), -5);
        assert_eq!(relative_value(&[], 0, true), 0);
    }
}
