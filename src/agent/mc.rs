//! Flat Monte Carlo (`mc:N`): the budget's playouts are shared round-robin
//! among the legal moves; each playout samples a determinization of the
//! position (so the agent sees only what its seat knows), makes the move,
//! and plays at random to the end or the cap. The move with the best mean
//! reward wins (ties: the lower index).

use super::Agent;
use super::search::{MoveStat, Scorer, SearchSpec, keys_into, rollout};
use crate::engine::{Action, Determinizer, Game, State};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub struct McAgent {
    spec: SearchSpec,
    rng: ChaCha8Rng,
    det: Determinizer,
    work: Option<State>,
    keys: Vec<u64>,
    actions: Vec<Action>,
    sample_keys: Vec<u64>,
    rewards: Vec<f64>,
    scorer: Scorer,
}

impl McAgent {
    pub fn new(spec: SearchSpec, seed: u64) -> McAgent {
        McAgent {
            spec,
            rng: ChaCha8Rng::seed_from_u64(seed),
            det: Determinizer::default(),
            work: None,
            keys: Vec::new(),
            actions: Vec::new(),
            sample_keys: Vec::new(),
            rewards: Vec::new(),
            scorer: Scorer::default(),
        }
    }

    /// Every move's playouts and mean reward, best first.
    pub fn search(&mut self, game: &Game, state: &State, actions: &[Action]) -> Vec<MoveStat> {
        let Some(seat) = state.chooser() else {
            return Vec::new();
        };
        keys_into(game, state, actions, seat, &mut self.keys);
        let mut stats: Vec<MoveStat> = (0..actions.len())
            .map(|i| MoveStat {
                action: i,
                visits: 0,
                value: 0.0,
            })
            .collect();
        self.scorer.reset();
        let mut clock = self.spec.budget.start();
        let mut turn = 0usize;
        while clock.tick() {
            let i = turn % actions.len();
            turn += 1;
            let work = self.work.get_or_insert_with(|| state.clone());
            state.determinize_into(game, seat, &mut self.rng, &mut self.det, work);
            work.legal_actions_into(game, &mut self.actions);
            keys_into(game, work, &self.actions, seat, &mut self.sample_keys);
            let Some(j) = self.sample_keys.iter().position(|k| *k == self.keys[i]) else {
                continue;
            };
            if work.apply_unchecked(game, self.actions[j]).is_ok() {
                rollout(game, work, &mut self.rng, &mut self.actions, self.spec.cap);
            }
            self.scorer.rewards(game, work, &mut self.rewards);
            stats[i].visits += 1;
            stats[i].value += self.rewards.get(seat).copied().unwrap_or(0.0);
        }
        for s in &mut stats {
            if s.visits > 0 {
                s.value /= f64::from(s.visits);
            }
        }
        stats.sort_by(|a, b| {
            b.value
                .total_cmp(&a.value)
                .then(b.visits.cmp(&a.visits))
                .then(a.action.cmp(&b.action))
        });
        stats
    }
}

impl Agent for McAgent {
    fn choose(&mut self, game: &Game, state: &State, actions: &[Action]) -> usize {
        if actions.len() <= 1 {
            return 0;
        }
        self.search(game, state, actions)
            .first()
            .map_or(0, |m| m.action)
    }

    fn analyse(&mut self, game: &Game, state: &State, actions: &[Action]) -> Option<Vec<MoveStat>> {
        Some(self.search(game, state, actions))
    }
}
