//! Playing games: the configuration of a batch ([`SimConfig`]), the seed of
//! each game, one game from start to end ([`play_game`]), and a batch on
//! all cores ([`simulate`]). Game `i` depends only on the rules, the
//! options, the agents, `seed` and `i`, so a batch gives the same report
//! whatever the number of threads, and shards can be merged.

use super::report::{GameOutcome, GameResult, SimReport};
use crate::agent::{Agent, AgentKind};
use crate::engine::{Action, Game, State};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

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
        let (lo, hi) = game.players();
        if self.players < lo || self.players > hi {
            return Err(format!(
                "{} is for {lo} to {hi} players, not {}",
                game.name(),
                self.players
            ));
        }
        if self.options.len() != game.options().len() {
            return Err(format!(
                "expected {} option values, got {}",
                game.options().len(),
                self.options.len()
            ));
        }
        if self.jobs == Some(0) {
            return Err("--jobs must be at least 1".into());
        }
        if let Some(j) = self.jobs.filter(|j| *j > MAX_JOBS) {
            return Err(format!("--jobs may be at most {MAX_JOBS}, not {j}"));
        }
        Ok(())
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

/// SplitMix64: a fast, well-mixed bijection on 64-bit words.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce5_e9b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The engine seed of game `index` of a batch seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix64(splitmix64(seed).wrapping_add(index))
}

/// The seed of the agent in `seat` for a game with engine seed `game_seed`.
pub fn agent_seed(game_seed: u64, seat: usize) -> u64 {
    splitmix64(game_seed ^ splitmix64(0x5eed_0000 + seat as u64))
}

/// Play game `index` of the batch to its end (or an error). `buf` is a
/// reusable buffer for the legal actions; `watch` sees every decision
/// before it is applied (for tracing).
pub fn play_game(
    game: &Game,
    cfg: &SimConfig,
    index: u64,
    buf: &mut Vec<Action>,
    watch: &mut dyn FnMut(&State, Action),
) -> GameResult {
    let seed = game_seed(cfg.seed, index);
    let mut scores = Vec::new();
    let outcome = play_seeded(game, cfg, index, seed, buf, watch, &mut scores);
    GameResult {
        index,
        seed,
        outcome,
        rotation: cfg.rotation(index),
        scores,
    }
}

fn play_seeded(
    game: &Game,
    cfg: &SimConfig,
    index: u64,
    seed: u64,
    buf: &mut Vec<Action>,
    watch: &mut dyn FnMut(&State, Action),
    scores: &mut Vec<i32>,
) -> GameOutcome {
    let mut state = match State::new(game, cfg.players, seed, &cfg.options) {
        Ok(s) => s,
        Err(e) => return GameOutcome::Fault(format!("at setup: {e}")),
    };
    if cfg.check_conservation
        && let Err(e) = state.check_conservation(game)
    {
        return GameOutcome::Fault(format!("after setup: {e}"));
    }
    let mut agents: Vec<Box<dyn Agent + Send>> = (0..cfg.players)
        .map(|p| cfg.seat_agent(p, index).build(agent_seed(seed, p)))
        .collect();
    let mut taken: u32 = 0;
    loop {
        if state.is_over() {
            *scores = state.scores(game);
            return GameOutcome::Finished {
                turns: state.turns(),
                decisions: state.decisions(),
                winners: state.winners(game),
            };
        }
        if taken >= cfg.max_decisions {
            return GameOutcome::Unfinished(format!(
                "still running after {taken} decisions ({} turns)",
                state.turns()
            ));
        }
        state.legal_actions_into(game, buf);
        let Some(seat) = state.chooser().filter(|_| !buf.is_empty()) else {
            return GameOutcome::Stuck(stuck_message(game, &state));
        };
        let pick = agents[seat].choose(game, &state, buf);
        let action = buf[pick.min(buf.len() - 1)];
        watch(&state, action);
        if let Err(e) = state.apply_unchecked(game, action) {
            return GameOutcome::Fault(format!("after {} decisions: {e}", taken + 1));
        }
        taken += 1;
        if cfg.check_conservation
            && let Err(e) = state.check_conservation(game)
        {
            return GameOutcome::Fault(format!("after {taken} decisions: {e}"));
        }
    }
}

/// Where a game is stuck: who must choose, and the phase and line waiting.
fn stuck_message(game: &Game, state: &State) -> String {
    let who = match state.chooser() {
        Some(p) => format!("P{p} has no legal action"),
        None => "nobody can act".to_string(),
    };
    let place = state.frames().last().and_then(|f| {
        let phase = game.graph().phases.get(f.phase as usize)?;
        Some(format!(
            " in phase `{}` (line {})",
            phase.name,
            game.line_of(f.phase, f.pc)
        ))
    });
    format!(
        "{who}{} after {} decisions",
        place.unwrap_or_default(),
        state.decisions()
    )
}

/// The most threads `--jobs` may ask for (docs/language.md, "Limits").
pub const MAX_JOBS: usize = 256;

/// Play the batch described by `cfg` on all cores (or `cfg.jobs` threads).
pub fn simulate(game: &Game, cfg: &SimConfig) -> SimReport {
    simulate_with(game, cfg, &|| {})
}

/// Like [`simulate`], calling `tick` after each game (for progress bars).
pub fn simulate_with(game: &Game, cfg: &SimConfig, tick: &(dyn Fn() + Sync)) -> SimReport {
    simulate_each(game, cfg, &|_| tick(), &AtomicBool::new(false))
}

/// Like [`simulate`], showing each game's result to `each` as it ends, and
/// starting no new game once `stop` is set (the report then holds the games
/// played so far).
pub fn simulate_each(
    game: &Game,
    cfg: &SimConfig,
    each: &(dyn Fn(&GameResult) + Sync),
    stop: &AtomicBool,
) -> SimReport {
    let work = || {
        (cfg.first..cfg.first.saturating_add(cfg.games))
            .into_par_iter()
            .map_init(Vec::new, |buf, i| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let r = play_game(game, cfg, i, buf, &mut |_, _| {});
                each(&r);
                Some(r)
            })
            .fold(
                || SimReport::empty(game, cfg),
                |mut rep, r| {
                    if let Some(r) = r {
                        rep.add(r);
                    }
                    rep
                },
            )
            .reduce(|| SimReport::empty(game, cfg), SimReport::merge)
    };
    match cfg.jobs {
        Some(n) => match rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
        {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        },
        None => work(),
    }
}
