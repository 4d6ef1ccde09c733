//! `grail._grail`: the Python binding of grail's engine (PyO3, abi3). The
//! Python package `grail` (python/grail/) wraps it; `grail.openspiel`
//! turns a rules file into a pyspiel game. Everything here goes through
//! grail's public API (docs/embedding.md):
//!
//! - decisions are numbered by [`ActionSpace`] (global, dense, stable ids:
//!   OpenSpiel's `num_distinct_actions`);
//! - in explicit-chance mode a chance node's outcomes are numbered by
//!   [`ChanceNode::id`] (the card for a shuffle, `value - lo` for a
//!   `random`);
//! - `returns` are zero-sum: each of k winners among n players gets
//!   (n - k) / k, every other player -1; no winner (or a stuck game):
//!   all 0.

use grail::engine::{ActionSpace, ChanceNode, MAX_CHANCE_OUTCOMES, TensorShape};
use grail::{Game as RGame, State as RState, Status};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::Arc;

fn err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A compiled rules file.
#[pyclass(module = "grail._grail", frozen)]
struct Game {
    game: RGame,
    path: String,
}

/// The per-player-count data shared by a game's states.
struct Seats {
    space: ActionSpace,
    shape: TensorShape,
}

#[pymethods]
impl Game {
    #[new]
    fn new(path: &str) -> PyResult<Game> {
        let game = RGame::load(path).map_err(|d| err(d.render_plain()))?;
        Ok(Game {
            game,
            path: path.to_string(),
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.game.name().to_string()
    }
    /// Pickling: the game is read again from its path.
    fn __reduce__(slf: &Bound<'_, Self>) -> (Py<PyAny>, (String,)) {
        let class = slf.get_type().into_any().unbind();
        (class, (slf.get().path.clone(),))
    }
    #[getter]
    fn path(&self) -> String {
        self.path.clone()
    }
    /// (least, most) players.
    #[getter]
    fn players(&self) -> (usize, usize) {
        self.game.players()
    }
    /// Option names and their default values.
    fn default_options(&self) -> HashMap<String, i32> {
        self.game
            .options()
            .iter()
            .map(|o| (o.name.clone(), o.default))
            .collect()
    }
    #[getter]
    fn card_count(&self) -> usize {
        self.game.card_count()
    }
    #[getter]
    fn digest(&self) -> u64 {
        self.game.digest()
    }
    /// How many global action ids there are at this player count.
    fn num_distinct_actions(&self, players: usize) -> usize {
        ActionSpace::new(&self.game, players).len()
    }
    /// The bound on a chance node's outcome ids (explicit-chance mode).
    fn max_chance_outcomes(&self) -> usize {
        self.game.card_count().max(MAX_CHANCE_OUTCOMES as usize)
    }
    /// The observation tensor's length at this player count.
    fn observation_tensor_size(&self, players: usize) -> usize {
        TensorShape::new(&self.game, players).len()
    }
    /// The tensor's parts: (places, cards, vars, players).
    fn observation_tensor_parts(&self, players: usize) -> (usize, usize, usize, usize) {
        let s = TensorShape::new(&self.game, players);
        (s.places, s.cards, s.vars, s.players)
    }

    /// A new game: `players` seats (default: the fewest), a seed, option
    /// settings by name, and whether chance is explicit.
    #[pyo3(signature = (players=None, seed=0, options=None, explicit_chance=false))]
    fn new_state(
        slf: &Bound<'_, Self>,
        players: Option<usize>,
        seed: u64,
        options: Option<HashMap<String, Bound<'_, PyAny>>>,
        explicit_chance: bool,
    ) -> PyResult<State> {
        let me = slf.get();
        let game = &me.game;
        let players = players.unwrap_or(game.players().0);
        game.check_players(players).map_err(err)?;
        let mut opts = game.default_options();
        for (name, value) in options.unwrap_or_default() {
            let value = value.str()?.to_string();
            game.set_option(&mut opts, &name, &value).map_err(err)?;
        }
        let state = if explicit_chance {
            RState::new_explicit_chance(game, players, seed, &opts)
        } else {
            RState::new(game, players, seed, &opts)
        }
        .map_err(err)?;
        Ok(State::wrap(slf.clone().unbind(), game.clone(), state))
    }

    /// A state written by `State.serialize`.
    fn deserialize(slf: &Bound<'_, Self>, text: &str) -> PyResult<State> {
        let game = slf.get().game.clone();
        let state = RState::from_json(&game, text).map_err(err)?;
        Ok(State::wrap(slf.clone().unbind(), game, state))
    }
}

/// One decision as every seat saw it: a persistent list, newest first,
/// so a clone shares it (O(1)) and appending does not copy it.
struct Seen {
    prev: Option<Arc<Seen>>,
    chooser: usize,
    labels: Vec<String>,
}

/// A position of a game.
#[pyclass(module = "grail._grail")]
struct State {
    owner: Py<Game>,
    game: RGame,
    state: RState,
    seats: Arc<Seats>,
    /// The decisions so far as each seat saw them (for
    /// `information_state_string` without replaying the game).
    seen: Option<Arc<Seen>>,
}

impl State {
    fn wrap(owner: Py<Game>, game: RGame, state: RState) -> State {
        let seats = Arc::new(Seats {
            space: ActionSpace::new(&game, state.players()),
            shape: TensorShape::new(&game, state.players()),
        });
        // a state read back or started here: its past, if any, replayed once
        let seen = seen_by_replay(&game, &state);
        State {
            owner,
            game,
            state,
            seats,
            seen,
        }
    }

    fn copy(&self, py: Python<'_>) -> State {
        State {
            owner: self.owner.clone_ref(py),
            game: self.game.clone(),
            state: self.state.clone(),
            seats: self.seats.clone(),
            seen: self.seen.clone(),
        }
    }

    /// Apply a decision, recording its label as each seat sees it.
    fn decide(&mut self, action: grail::Action) -> PyResult<()> {
        let chooser = self.state.chooser().unwrap_or(0);
        let labels = (0..self.state.players())
            .map(|p| {
                self.state
                    .label_seen(&self.game, action, grail::Viewer::Seat(p))
            })
            .collect();
        self.state.apply(&self.game, action).map_err(err)?;
        self.seen = Some(Arc::new(Seen {
            prev: self.seen.take(),
            chooser,
            labels,
        }));
        Ok(())
    }

    fn seat(&self, seat: usize) -> PyResult<usize> {
        if seat < self.state.players() {
            Ok(seat)
        } else {
            Err(err(format!("no seat {seat}")))
        }
    }
}

/// OpenSpiel's player ids for a chance node and a finished game.
const CHANCE: i64 = -1;
const TERMINAL: i64 = -4;

#[pymethods]
impl State {
    /// The seat to choose, -1 at a chance node, -4 when the game is over
    /// (or stuck).
    #[getter]
    fn current_player(&self) -> i64 {
        match self.state.status(&self.game) {
            Status::Decide(p) => p as i64,
            Status::Chance => CHANCE,
            Status::Over | Status::Stuck => TERMINAL,
        }
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.state.players()
    }
    fn is_chance_node(&self) -> bool {
        self.state.status(&self.game) == Status::Chance
    }
    fn is_terminal(&self) -> bool {
        matches!(self.state.status(&self.game), Status::Over | Status::Stuck)
    }
    /// Whether the game ended at a choice nobody can make (a rules bug).
    fn is_stuck(&self) -> bool {
        self.state.status(&self.game) == Status::Stuck
    }

    /// The legal action ids, ascending: global decision ids, or at a
    /// chance node the outcome ids.
    fn legal_actions(&self) -> PyResult<Vec<u32>> {
        let mut ids = match self.state.chance_node() {
            Some(node) => self
                .state
                .chance_outcomes()
                .iter()
                .filter_map(|(v, _)| node.id(*v))
                .collect(),
            None => self
                .seats
                .space
                .legal_ids(&self.game, &self.state)
                .map_err(err)?,
        };
        ids.sort_unstable();
        Ok(ids)
    }

    /// The outcome ids of the pending chance node with their probabilities.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        let Some(node) = self.state.chance_node() else {
            return Vec::new();
        };
        let mut out: Vec<(u32, f64)> = node
            .outcomes()
            .into_iter()
            .filter_map(|(v, p)| node.id(v).map(|id| (id, p)))
            .collect();
        out.sort_by_key(|o| o.0);
        out
    }

    /// Apply a legal action id (or a chance outcome id).
    fn apply(&mut self, id: u32) -> PyResult<()> {
        if let Some(node) = self.state.chance_node() {
            let value = node
                .value(id)
                .ok_or_else(|| err(format!("{id} is not an outcome of this chance node")))?;
            return self.state.apply_chance(&self.game, value).map_err(err);
        }
        let action = self
            .seats
            .space
            .action(&self.state, id)
            .ok_or_else(|| err(format!("{id} is not an action of this decision")))?;
        self.decide(action)
    }

    /// An action's text as the chooser sees it (a chance outcome's too).
    fn action_to_string(&self, id: u32) -> PyResult<String> {
        if let Some(node) = self.state.chance_node() {
            let value = node.value(id).ok_or_else(|| err("not an outcome"))?;
            return Ok(match node {
                ChanceNode::Number { .. } => format!("chance: {value}"),
                ChanceNode::Card { .. } => format!(
                    "chance: {} (card {value})",
                    self.game.card_name(value as usize)
                ),
            });
        }
        let action = self
            .seats
            .space
            .action(&self.state, id)
            .ok_or_else(|| err(format!("{id} is not an action of this decision")))?;
        let label = self.state.label(&self.game, action);
        // two actions with the same text (two equal cards) get their ids
        let twins = self
            .state
            .legal_actions(&self.game)
            .into_iter()
            .filter(|a| self.state.label(&self.game, *a) == label)
            .count();
        Ok(if twins > 1 {
            format!("{label} [{id}]")
        } else {
            label
        })
    }

    /// Zero-sum returns (see the module doc); all 0 before the end.
    fn returns(&self) -> Vec<f64> {
        let n = self.state.players();
        let winners = self.state.winners(&self.game);
        let k = winners.len();
        if !self.state.is_over() || k == 0 || k == n {
            return vec![0.0; n];
        }
        let share = (n - k) as f64 / k as f64;
        (0..n)
            .map(|p| if winners.contains(&p) { share } else { -1.0 })
            .collect()
    }
    /// The players who won (empty before the end).
    fn winners(&self) -> Vec<usize> {
        self.state.winners(&self.game)
    }
    fn scores(&self) -> Vec<i32> {
        self.state.scores(&self.game)
    }

    fn observation_string(&self, seat: usize) -> PyResult<String> {
        Ok(self.state.observation(&self.game, self.seat(seat)?))
    }
    /// Every decision so far as `seat` saw it when it was taken, then
    /// the observation: the format of grail's `State::information_state`,
    /// kept as the game goes rather than replayed. In a determinized
    /// state, past decisions show as the determinizing seat saw them.
    fn information_state_string(&self, seat: usize) -> PyResult<String> {
        let seat = self.seat(seat)?;
        let mut lines = Vec::new();
        let mut at = self.seen.as_deref();
        while let Some(s) = at {
            lines.push((s.chooser, &s.labels[seat]));
            at = s.prev.as_deref();
        }
        let mut out = String::new();
        for (i, (who, label)) in lines.iter().rev().enumerate() {
            out.push_str(&format!("{}. P{who}: {label}\n", i + 1));
        }
        out.push_str(&self.state.observation(&self.game, seat));
        Ok(out)
    }

    /// grail's own `information_state` (replays the game from its seed).
    fn information_state_replayed(&self, seat: usize) -> PyResult<String> {
        self.state
            .information_state(&self.game, self.seat(seat)?)
            .map_err(err)
    }
    fn observation_tensor(&self, seat: usize) -> PyResult<Vec<f32>> {
        Ok(self.state.observation_tensor(&self.game, self.seat(seat)?))
    }
    /// The observation tensor as the bytes of little-endian f32s (for
    /// `numpy.frombuffer`: no Python float per entry).
    fn observation_tensor_bytes<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
        let t = self.state.observation_tensor(&self.game, self.seat(seat)?);
        let bytes: Vec<u8> = t.iter().flat_map(|x| x.to_le_bytes()).collect();
        Ok(pyo3::types::PyBytes::new(py, &bytes))
    }
    fn observation_tensor_size(&self) -> usize {
        self.seats.shape.len()
    }

    /// A state `seat` cannot tell from this one, its unknown cards dealt
    /// anew from `seed` (refused at a chance node).
    fn determinize(&self, py: Python<'_>, seat: usize, seed: u64) -> PyResult<State> {
        if self.state.chance_node().is_some() {
            return Err(err("determinize at a decision, not at a chance node"));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = self.copy(py);
        out.state = self
            .state
            .determinize(&self.game, self.seat(seat)?, &mut rng);
        Ok(out)
    }

    fn clone(&self, py: Python<'_>) -> State {
        self.copy(py)
    }
    fn __copy__(&self, py: Python<'_>) -> State {
        self.copy(py)
    }
    fn __deepcopy__(&self, py: Python<'_>, _memo: Bound<'_, PyAny>) -> State {
        self.copy(py)
    }

    /// The whole state as text; `Game.deserialize` reads it back.
    fn serialize(&self) -> String {
        self.state.to_json()
    }

    /// Pickling (and pyspiel's copies) go through `serialize`.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let read = self.owner.bind(py).getattr("deserialize")?.unbind();
        Ok((read, (self.state.to_json(),)))
    }

    /// The history: (arm, value) of every decision, and chance outcomes
    /// (arm 65534) in explicit-chance mode.
    fn history(&self) -> Vec<(u16, i32)> {
        self.state
            .history()
            .iter()
            .map(|a| (a.arm, a.value))
            .collect()
    }
    /// Decisions taken since the start.
    #[getter]
    fn decisions(&self) -> u32 {
        self.state.decisions()
    }
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.owner.clone_ref(py)
    }

    /// Play on from here with uniformly random actions and chance outcomes
    /// (from `seed`) in Rust, for at most `max_steps` steps; returns the
    /// returns at the end (all 0 if the limit was hit). This state is not
    /// changed. A fast rollout for search (`grail.openspiel.RolloutEvaluator`).
    #[pyo3(signature = (seed, max_steps=100_000))]
    fn random_rollout(&self, py: Python<'_>, seed: u64, max_steps: usize) -> PyResult<Vec<f64>> {
        use rand::Rng;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = self.copy(py);
        for _ in 0..max_steps {
            let ids = s.legal_actions()?;
            if s.is_terminal() || ids.is_empty() {
                break;
            }
            if let Some(node) = s.state.chance_node() {
                let outs = node.outcomes();
                let (v, _) = outs[rng.random_range(0..outs.len())];
                s.state.apply_chance(&s.game, v).map_err(err)?;
            } else {
                let legal = s.state.legal_actions(&s.game);
                let a = legal[rng.random_range(0..legal.len())];
                s.state.apply(&s.game, a).map_err(err)?;
            }
        }
        Ok(s.returns())
    }

    /// The table as seat 0 sees it.
    fn __str__(&self) -> String {
        self.state.observation(&self.game, 0)
    }
}

/// The decisions of `state`'s history as each seat saw them, replayed
/// from its seed (`None` when there are none, or the state was edited).
fn seen_by_replay(game: &RGame, state: &RState) -> Option<Arc<Seen>> {
    if state.history().is_empty() {
        return None;
    }
    let n = state.players();
    let opts = &state.table().opts;
    let mut s = if state.explicit_chance() {
        RState::new_explicit_chance(game, n, state.seed(), opts).ok()?
    } else {
        RState::new(game, n, state.seed(), opts).ok()?
    };
    let mut seen: Option<Arc<Seen>> = None;
    for a in state.history() {
        if a.arm == grail::engine::CHANCE_ARM {
            s.apply_chance(game, a.value).ok()?;
            continue;
        }
        let chooser = s.chooser()?;
        let labels = (0..n)
            .map(|p| s.label_seen(game, *a, grail::Viewer::Seat(p)))
            .collect();
        s.apply_unchecked(game, *a).ok()?;
        seen = Some(Arc::new(Seen {
            prev: seen,
            chooser,
            labels,
        }));
    }
    seen
}

/// Plays random games in Rust through the same calls the Python loop uses
/// (legal_actions + apply), for measuring the binding's overhead: returns
/// the number of steps taken.
#[pyfunction]
fn rust_random_steps(game: &Game, players: usize, seed: u64, steps: usize) -> PyResult<usize> {
    use rand::Rng;
    let g = &game.game;
    let space = ActionSpace::new(g, players);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = RState::new(g, players, seed, &g.default_options()).map_err(err)?;
    let mut done = 0;
    while done < steps {
        if !matches!(s.status(g), Status::Decide(_)) {
            s = RState::new(g, players, rng.random(), &g.default_options()).map_err(err)?;
            continue;
        }
        let ids = space.legal_ids(g, &s).map_err(err)?;
        let id = ids[rng.random_range(0..ids.len())];
        let a = space.action(&s, id).ok_or_else(|| err("no action"))?;
        s.apply(g, a).map_err(err)?;
        done += 1;
    }
    Ok(done)
}

#[pymodule]
fn _grail(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(rust_random_steps, m)?)?;
    Ok(())
}
