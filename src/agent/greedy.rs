//! The greedy agent: one ply of lookahead. Each legal action is applied to a
//! clone of the state (which runs on to the next decision), and scored by
//! the chooser's `winners` key relative to the best other player, the right
//! way up for the game's winners rule (lowest or highest wins). The best
//! action wins; ties, and actions whose scores do not differ, are broken at
//! random. An action that faults in the lookahead scores worst.
//!
//! The lookahead reads the full state (as `State::scores` does), so this
//! agent is not restricted to what its player knows: it is a baseline and a
//! sanity check for the rules, not a fair player.

use super::Agent;
use crate::engine::{Action, Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub struct GreedyAgent {
    rng: ChaCha8Rng,
}

impl GreedyAgent {
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent {
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

impl Agent for GreedyAgent {
    fn choose(&mut self, game: &Game, state: &State, actions: &[Action]) -> usize {
        if actions.len() <= 1 {
            return 0;
        }
        let Some(seat) = state.chooser() else {
            return 0;
        };
        let highest = game.graph().tables.winners_highest;
        let mut best = i64::MIN;
        let mut pick = 0;
        let mut ties = 0u32;
        for (i, a) in actions.iter().enumerate() {
            let mut next = state.clone();
            let value = match next.apply_unchecked(game, *a) {
                Ok(()) => relative_value(&next.scores(game), seat, highest),
                Err(_) => i64::MIN,
            };
            if value > best {
                best = value;
                pick = i;
                ties = 1;
            } else if value == best {
                // Reservoir sampling: each of the tied actions is equally likely.
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    pick = i;
                }
            }
        }
        pick
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
