//! The one playout driver: a game played from setup (or from a given
//! position) to its end, a stuck position, a fault, the decision limit, or
//! an observer's stop. `grail sim`, rulecheck's simulation and the search
//! agents' rollouts all play through it; what differs between them is who
//! picks the moves (a [`Picker`]) and what they watch (an [`Observer`]);
//! [`play_in`] plays in a state kept from the last game.
//! Also here, because every batch front end needs them: the record of a
//! game that went wrong ([`Incident`], kept lowest-numbered first in
//! [`Incidents`], serialisable), and running a batch on `--jobs` threads
//! ([`with_jobs`]).
//!
//! API boundary: this module uses only the engine's API (`Game`, `State`,
//! `Action`, `EngineError`); it knows no agent, report or lint. The
//! observer's methods default to nothing and the driver is generic over
//! them, so a caller that watches nothing pays nothing (a rollout is as
//! fast as a hand-written loop).
//!
//! Invariant: the driver makes the same calls in the same order as the
//! loops it replaced (pick, then apply; the random draws of the picker are
//! its own), so seeded batches give the same games as before.

use crate::engine::{Action, EngineError, Game, State};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

/// Who moves at each decision: returns an index into the legal actions
/// (an index past the end is taken as the last action).
pub trait Picker {
    fn pick(&mut self, game: &Game, state: &State, seat: usize, legal: &[Action]) -> usize;
}

impl<F: FnMut(&Game, &State, usize, &[Action]) -> usize> Picker for F {
    fn pick(&mut self, game: &Game, state: &State, seat: usize, legal: &[Action]) -> usize {
        self(game, state, seat, legal)
    }
}

/// What a caller watches during a playout. Every method does nothing by
/// default.
pub trait Observer {
    /// Every (phase, node) the engine executes, setup included.
    #[inline]
    fn node(&mut self, _phase: u16, _node: u32) {}
    /// A decision about to be taken: the position before it, its legal
    /// actions, and the index picked.
    #[inline]
    fn decision(&mut self, _game: &Game, _state: &State, _legal: &[Action], _pick: usize) {}
    /// After setup (`taken` 0) and after each decision taken: `Break`
    /// stops the game here (an audit found something wrong).
    #[inline]
    fn after(&mut self, _game: &Game, _state: &State, _taken: u32) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// Watching nothing.
impl Observer for () {}

/// Why a playout stopped.
#[derive(Debug)]
pub enum Stop {
    /// The game ended.
    Over,
    /// Not over, and nobody can act (no legal action).
    Stuck,
    /// Still running when the decision limit was reached.
    Capped,
    /// The engine refused the last decision taken (it counts in `taken`).
    Fault(EngineError),
    /// The observer stopped the game after `taken` decisions.
    Observer,
}

/// How a playout went: why it stopped and how many decisions it took.
#[derive(Debug)]
pub struct Playout {
    pub stop: Stop,
    pub taken: u32,
}

/// Set a game up for a playout, telling `obs` every node setup executes.
pub fn start(
    game: &Game,
    players: usize,
    seed: u64,
    options: &[i32],
    obs: &mut impl Observer,
) -> Result<State, EngineError> {
    State::new_observed(game, players, seed, options, &mut |p, n| obs.node(p, n))
}

/// Play on from `state` until it stops (see [`Stop`]), at most
/// `max_decisions` decisions when given. `buf` is a reusable buffer for
/// the legal actions. `obs.after` is not called for the position given
/// (a caller starting from setup calls it itself, see [`play`]).
pub fn play_from(
    game: &Game,
    state: &mut State,
    picker: &mut impl Picker,
    obs: &mut impl Observer,
    buf: &mut Vec<Action>,
    max_decisions: Option<u32>,
) -> Playout {
    let mut taken: u32 = 0;
    loop {
        if state.is_over() {
            return Playout {
                stop: Stop::Over,
                taken,
            };
        }
        if max_decisions.is_some_and(|m| taken >= m) {
            return Playout {
                stop: Stop::Capped,
                taken,
            };
        }
        state.legal_actions_into(game, buf);
        let (Some(seat), false) = (state.chooser(), buf.is_empty()) else {
            return Playout {
                stop: Stop::Stuck,
                taken,
            };
        };
        let pick = picker.pick(game, state, seat, buf).min(buf.len() - 1);
        obs.decision(game, state, buf, pick);
        let applied = state.apply_observed(game, buf[pick], &mut |p, n| obs.node(p, n));
        taken += 1;
        if let Err(e) = applied {
            return Playout {
                stop: Stop::Fault(e),
                taken,
            };
        }
        if obs.after(game, state, taken).is_break() {
            return Playout {
                stop: Stop::Observer,
                taken,
            };
        }
    }
}

/// Set a game up and play it (see [`play_from`]); `obs.after` sees the
/// position after setup too. The error is a fault at setup.
pub fn play(
    game: &Game,
    (players, seed, options): (usize, u64, &[i32]),
    picker: &mut impl Picker,
    obs: &mut impl Observer,
    buf: &mut Vec<Action>,
    max_decisions: Option<u32>,
) -> Result<(State, Playout), EngineError> {
    let mut state = start(game, players, seed, options, obs)?;
    let run = play_set_up(game, &mut state, picker, obs, buf, max_decisions);
    Ok((state, run))
}

/// Like [`play`], in `slot`'s state when it holds one ([`State::restart`]:
/// the same game in the same buffers, nothing allocated when the player
/// count and options are those of its last game), else in a new state
/// left in `slot`. A batch keeps one slot per thread; the games played
/// are those [`play`] plays. The error is a fault at setup (the state
/// stays in `slot`, to be restarted again).
pub fn play_in<'s>(
    game: &Game,
    slot: &'s mut Option<State>,
    (players, seed, options): (usize, u64, &[i32]),
    picker: &mut impl Picker,
    obs: &mut impl Observer,
    buf: &mut Vec<Action>,
    max_decisions: Option<u32>,
) -> Result<(&'s State, Playout), EngineError> {
    let state = match slot {
        Some(s) => {
            s.restart_observed(game, players, seed, options, &mut |p, n| obs.node(p, n))?;
            s
        }
        None => slot.insert(start(game, players, seed, options, obs)?),
    };
    let run = play_set_up(game, state, picker, obs, buf, max_decisions);
    Ok((state, run))
}

/// Play a game just set up: `obs.after` sees it first, then
/// [`play_from`].
fn play_set_up(
    game: &Game,
    state: &mut State,
    picker: &mut impl Picker,
    obs: &mut impl Observer,
    buf: &mut Vec<Action>,
    max_decisions: Option<u32>,
) -> Playout {
    if obs.after(game, state, 0).is_break() {
        return Playout {
            stop: Stop::Observer,
            taken: 0,
        };
    }
    play_from(game, state, picker, obs, buf, max_decisions)
}

/// One game that went wrong: enough to replay it to the step in question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Incident {
    /// The game's number in the batch, and its engine seed.
    pub game: u64,
    pub seed: u64,
    /// The decisions to replay: the last one is the move that failed when
    /// `failing_move`; otherwise the position after them is the problem.
    pub moves: u32,
    /// Whether the last of `moves` is the move that failed.
    pub failing_move: bool,
    pub message: String,
}

/// Games that went wrong in one way: how many, and the lowest-numbered
/// few (so that lists of slices of a batch merge into the whole's).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Incidents {
    pub count: u64,
    pub first: Vec<Incident>,
}

impl Incidents {
    /// Count `i` in, keeping the `keep` lowest-numbered games.
    pub fn add(&mut self, i: Incident, keep: usize) {
        self.count += 1;
        let at = self.first.partition_point(|x| x.game < i.game);
        if at < keep {
            self.first.insert(at, i);
            self.first.truncate(keep);
        }
    }

    /// Add the incidents of a disjoint slice of games; false when the
    /// count would pass `u64::MAX` (it stays at the maximum).
    pub fn merge(&mut self, o: &Incidents, keep: usize) -> bool {
        let exact = self.count.checked_add(o.count).is_some();
        self.count = self.count.saturating_add(o.count);
        self.first.extend(o.first.iter().cloned());
        self.first.sort_by_key(|i| i.game);
        self.first.truncate(keep);
        exact
    }
}

/// The most threads `--jobs` may ask for (docs/language.md, "Limits").
pub const MAX_JOBS: usize = 256;

/// Run `work` on `jobs` threads, or on rayon's global pool (all cores)
/// when `None` (or when a pool cannot be built).
pub fn with_jobs<T: Send>(jobs: Option<usize>, work: impl FnOnce() -> T + Send) -> T {
    match jobs {
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

/// A `--jobs` value that cannot be used, as a one-line reason.
pub fn check_jobs(jobs: Option<usize>) -> Result<(), String> {
    match jobs {
        Some(0) => Err("--jobs must be at least 1".into()),
        Some(j) if j > MAX_JOBS => Err(format!("--jobs may be at most {MAX_JOBS}, not {j}")),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::{Incident, Incidents};

    #[test]
    fn incidents_keep_the_lowest_games_in_any_order() {
        let inc = |g| Incident {
            game: g,
            seed: g,
            moves: 0,
            failing_move: false,
            message: String::new(),
        };
        let (mut a, mut b) = (Incidents::default(), Incidents::default());
        for g in [9, 4, 7, 1] {
            a.add(inc(g), 3);
        }
        for g in [8, 2, 3] {
            b.add(inc(g), 3);
        }
        a.merge(&b, 3);
        let games: Vec<u64> = a.first.iter().map(|i| i.game).collect();
        assert_eq!((a.count, games), (7, vec![1, 2, 3]));
    }
}
