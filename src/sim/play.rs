//! Playing games: the seed of each game (the batch's configuration,
//! [`SimConfig`], is in `config.rs`), one game from start to end ([`play_game`]), what a thread
//! keeps from one game to the next ([`Worker`]: the state and the agents),
//! and a batch on all cores ([`simulate`]). Game `i` depends only on the rules, the
//! options, the agents, `seed` and `i`, so a batch gives the same report
//! whatever the number of threads, and shards can be merged.

use super::config::SimConfig;
use super::report::{GameOutcome, GameResult, SimReport};
use crate::agent::{Agent, AgentKind};
use crate::engine::{Action, Game, State};
use crate::playout::{self, Observer, Stop};
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

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
    let mut worker = Worker {
        buf: std::mem::take(buf),
        ..Worker::default()
    };
    let r = play_game_in(game, cfg, index, &mut worker, watch);
    *buf = worker.buf;
    r
}

/// What one thread of a batch keeps from one game to the next, so that a
/// game allocates only its result: the state (restarted in its own
/// buffers, see [`playout::play_in`]), the seats' agents (a random agent
/// is reseeded in place, see [`Agent::reseed`]; other agents are built
/// afresh, as they always were) and the buffers of actions.
#[derive(Default)]
pub struct Worker {
    state: Option<State>,
    seated: Seated,
    buf: Vec<Action>,
}

/// The agents in a game's seats, kept from one game to the next (a random
/// agent is reseeded in place, see [`Agent::reseed`]; other agents are
/// built afresh), with what their picks need.
#[derive(Default)]
pub struct Seated {
    kinds: Vec<AgentKind>,
    agents: Vec<Box<dyn Agent + Send>>,
    distinct: Vec<bool>,
    offered: Vec<Action>,
}

impl Seated {
    /// Seat the agents of a game with engine seed `seed`: seat `p` gets
    /// `kind_of(p)`, as `AgentKind::build` would make it.
    pub fn seat(&mut self, players: usize, seed: u64, kind_of: impl Fn(usize) -> AgentKind) {
        self.kinds.truncate(players);
        self.agents.truncate(players);
        self.distinct.clear();
        for p in 0..players {
            let (kind, s) = (kind_of(p), agent_seed(seed, p));
            self.distinct.push(kind != AgentKind::Random);
            if p == self.agents.len() {
                self.kinds.push(kind);
                self.agents.push(kind.build(s));
            } else if self.kinds[p] != kind || !self.agents[p].reseed(s) {
                self.kinds[p] = kind;
                self.agents[p] = kind.build(s);
            }
        }
    }

    /// The pick of `seat`'s agent (searching agents are offered identical
    /// moves once, see `pick_for`).
    pub fn pick(&mut self, game: &Game, state: &State, seat: usize, legal: &[Action]) -> usize {
        pick_for(
            &mut self.agents,
            &self.distinct,
            &mut self.offered,
            (game, state, seat, legal),
        )
    }
}

/// Like [`play_game`], with what `worker` kept from its last game (a
/// thread of a batch keeps one worker for all its games). The result is
/// the one [`play_game`] gives.
pub fn play_game_in(
    game: &Game,
    cfg: &SimConfig,
    index: u64,
    worker: &mut Worker,
    watch: &mut dyn FnMut(&State, Action),
) -> GameResult {
    let seed = game_seed(cfg.seed, index);
    worker
        .seated
        .seat(cfg.players, seed, |p| cfg.seat_agent(p, index));
    let Worker {
        state: slot,
        seated,
        buf,
    } = worker;
    let mut obs = Watch {
        check_conservation: cfg.check_conservation,
        watch,
        problem: None,
    };
    let mut result = GameResult {
        index,
        seed,
        outcome: GameOutcome::Unfinished(String::new()),
        rotation: cfg.rotation(index),
        scores: Vec::new(),
        moves: 0,
        failing_move: false,
    };
    let played = playout::play_in(
        game,
        slot,
        (cfg.players, seed, &cfg.options),
        &mut |game: &Game, state: &State, seat, legal: &[Action]| {
            seated.pick(game, state, seat, legal)
        },
        &mut obs,
        buf,
        Some(cfg.max_decisions),
    );
    let (state, run) = match played {
        Ok(p) => p,
        Err(e) => {
            result.outcome = GameOutcome::Fault(format!("at setup: {e}"));
            return result;
        }
    };
    let taken = run.taken;
    result.moves = taken;
    result.outcome = match run.stop {
        Stop::Over => {
            result.scores = state.scores(game);
            GameOutcome::Finished {
                turns: state.turns(),
                decisions: state.decisions(),
                winners: state.winners(game),
            }
        }
        Stop::Capped => GameOutcome::Unfinished(format!(
            "still running after {taken} decisions ({} turns)",
            state.turns()
        )),
        Stop::Stuck => GameOutcome::Stuck(stuck_message(game, state)),
        Stop::Fault(e) => {
            result.failing_move = true;
            GameOutcome::Fault(format!("after {taken} decisions: {e}"))
        }
        Stop::Observer => {
            let e = obs.problem.take().unwrap_or_default();
            if taken == 0 {
                GameOutcome::Fault(format!("after setup: {e}"))
            } else {
                GameOutcome::Fault(format!("after {taken} decisions: {e}"))
            }
        }
    };
    result
}

/// The pick of `seat`'s agent. A searching agent (its `distinct` flag
/// set) is offered identical moves once (cards nobody can tell apart, see
/// `State::distinct_actions`) and its pick is mapped back to the legal
/// list; a random agent picks from the whole list, so seeded random games
/// (and the golden logs) play as they always have. `offered` is a
/// reusable buffer.
fn pick_for(
    agents: &mut [Box<dyn Agent + Send>],
    distinct: &[bool],
    offered: &mut Vec<Action>,
    (game, state, seat, legal): (&Game, &State, usize, &[Action]),
) -> usize {
    if !distinct.get(seat).copied().unwrap_or(false) {
        return agents[seat].choose(game, state, legal);
    }
    offered.clear();
    for a in legal {
        if !offered.iter().any(|b| state.same_move(game, *b, *a)) {
            offered.push(*a);
        }
    }
    if offered.len() == legal.len() {
        return agents[seat].choose(game, state, legal);
    }
    let pick = offered[agents[seat]
        .choose(game, state, offered)
        .min(offered.len() - 1)];
    legal.iter().position(|a| *a == pick).unwrap_or(0)
}

/// What a batch game watches: the trace callback, and card conservation
/// after setup and every decision when asked.
struct Watch<'a> {
    check_conservation: bool,
    watch: &'a mut dyn FnMut(&State, Action),
    problem: Option<String>,
}

impl Observer for Watch<'_> {
    fn decision(&mut self, _: &Game, state: &State, legal: &[Action], pick: usize) {
        (self.watch)(state, legal[pick]);
    }

    fn after(&mut self, game: &Game, state: &State, _: u32) -> ControlFlow<()> {
        if self.check_conservation
            && let Err(e) = state.check_conservation(game)
        {
            self.problem = Some(e.to_string());
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// Where a game is stuck: who must choose, and the phase and line waiting.
fn stuck_message(game: &Game, state: &State) -> String {
    let who = match state.chooser() {
        Some(p) => format!("P{p} has no legal action"),
        None => "nobody can act".to_string(),
    };
    let place = state
        .pending_choice(game)
        .map(|c| format!(" in phase `{}` ({})", c.phase, c.line_name()));
    format!(
        "{who}{} after {} decisions",
        place.unwrap_or_default(),
        state.decisions()
    )
}

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
/// finished before it was set).
pub fn simulate_each(
    game: &Game,
    cfg: &SimConfig,
    each: &(dyn Fn(&GameResult) + Sync),
    stop: &AtomicBool,
) -> SimReport {
    let work = || {
        (cfg.first..cfg.first.saturating_add(cfg.games))
            .into_par_iter()
            .map_init(Worker::default, |worker, i| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let r = play_game_in(game, cfg, i, worker, &mut |_, _| {});
                // a game still running at Ctrl-C is left out: its search
                // agents stopped thinking early (`agent::search::Clock`)
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
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
    playout::with_jobs(cfg.jobs, work)
}
