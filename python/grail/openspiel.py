"""Any grail rules file as an OpenSpiel (pyspiel) game.

    import pyspiel
    import grail.openspiel
    name = grail.openspiel.register("rules/tamoul.rules", players=2)
    game = pyspiel.load_game(name)

The game is sequential, imperfect-information, zero-sum, with terminal
rewards. With `explicit_chance=True` (the default) every shuffle and
random draw is a chance node (a shuffle one card at a time); with False
the randomness stays inside the engine and each new game gets the next
seed (sampled stochastic). Decisions use grail's global action ids
(`num_distinct_actions`); chance outcomes are numbered by card (a
shuffle) or by `value - lo` (a `random(lo, hi)`). The observation is
grail's per-seat view as a string and its observation tensor; the
information state string is every decision as the seat saw it plus the
view. Returns: each of k winners among n gets (n - k) / k, the others -1.
"""

import itertools
import re

import numpy as np
import pyspiel

from . import load

__all__ = ["register"]

_REGISTERED = {}
_SEEDS = itertools.count(1)


def register(path, players=None, options=None, explicit_chance=True, short_name=None, seed=0):
    """Register the rules file at `path` as a pyspiel game; returns its
    short name, for `pyspiel.load_game`. Registering the same arguments
    again returns the same name."""
    g = load(path, players=players, seed=seed, options=options, explicit_chance=explicit_chance)
    if short_name is None:
        slug = re.sub(r"[^a-z0-9]+", "_", g.name.lower()).strip("_")
        extra = "".join(f"_{k}{v}" for k, v in sorted((options or {}).items()))
        mode = "" if explicit_chance else "_sampled"
        short_name = f"grail_{slug}_{g.players}p{extra}{mode}"
    key = (str(path), g.players, tuple(sorted((options or {}).items())), explicit_chance, seed)
    if short_name in _REGISTERED:
        if _REGISTERED[short_name] != key:
            raise ValueError(f"{short_name} is registered already for other rules")
        return short_name
    n = g.players
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"grail {g.name} ({n} players)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if explicit_chance
            else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        ),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=g.num_distinct_actions(),
        max_chance_outcomes=g.max_chance_outcomes() if explicit_chance else 0,
        num_players=n,
        min_utility=-1.0,
        max_utility=float(n - 1),
        utility_sum=0.0,
        max_game_length=100_000,
    )

    class GrailGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, game_info, params or {})
            self.grail = g

        def new_initial_state(self):
            s = g.new_initial_state(None if explicit_chance else g.seed + next(_SEEDS))
            return GrailState(self, s)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer(g, iig_obs_type, params)

    GrailGame.__name__ = f"GrailGame_{short_name}"
    pyspiel.register_game(game_type, GrailGame)
    _REGISTERED[short_name] = key
    return short_name


class GrailState(pyspiel.State):
    """A pyspiel state over a grail state (`self.grail`)."""

    def __init__(self, game, state):
        super().__init__(game)
        self.grail = state

    def current_player(self):
        return self.grail.current_player

    def _legal_actions(self, player):
        if player != self.grail.current_player:
            return []
        return self.grail.legal_actions()

    def chance_outcomes(self):
        return self.grail.chance_outcomes()

    def _apply_action(self, action):
        self.grail.apply(int(action))

    def _action_to_string(self, player, action):
        try:
            return self.grail.action_to_string(int(action))
        except ValueError:
            return f"action {action}"

    def is_terminal(self):
        return self.grail.is_terminal()

    def returns(self):
        return self.grail.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A determinization for `player_id` (IS-MCTS): its unknown cards
        dealt anew, the seed drawn from `probability_sampler`."""
        seed = int(probability_sampler() * 2**62)
        return GrailState(self.get_game(), self.grail.determinize(player_id, seed))

    def __str__(self):
        return str(self.grail)


class _Observer:
    """pyspiel's observer protocol: `tensor`, `dict`, `set_from`, `string_from`.
    Perfect recall gives the information state (string only)."""

    def __init__(self, g, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        size = 0 if self.perfect_recall else g.observation_tensor_shape()[0]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.tensor.size:
            self.tensor[:] = np.frombuffer(state.grail.observation_tensor_bytes(player), np.float32)

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.grail.information_state_string(player)
        return state.grail.observation_string(player)


class RolloutEvaluator:
    """An evaluator for OpenSpiel's Python MCTS (`mcts.MCTSBot`): the value
    of a state is the average of `n_rollouts` uniformly random playouts run
    in Rust (like `mcts.RandomRolloutEvaluator`, which plays them through
    Python, but much faster)."""

    def __init__(self, n_rollouts=1, random_state=None, max_steps=100_000):
        self.n_rollouts = n_rollouts
        self._random_state = random_state or np.random.RandomState()
        self.max_steps = max_steps

    def evaluate(self, state):
        total = None
        for _ in range(self.n_rollouts):
            seed = int(self._random_state.randint(0, 2**31 - 1))
            r = np.array(state.grail.random_rollout(seed, self.max_steps))
            total = r if total is None else total + r
        return total / self.n_rollouts

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]
