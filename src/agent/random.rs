//! The random agent: every legal action equally likely, from its own seeded
//! generator (so a game's moves depend only on the seeds).

use super::Agent;
use crate::engine::{Action, Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, _game: &Game, _state: &State, actions: &[Action]) -> usize {
        if actions.len() <= 1 {
            0
        } else {
            self.rng.random_range(0..actions.len())
        }
    }

    fn reseed(&mut self, seed: u64) -> bool {
        *self = RandomAgent::new(seed);
        true
    }
}
