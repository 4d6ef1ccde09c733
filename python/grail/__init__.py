"""grail from Python: load a rules file, play it, search it.

    import grail
    game = grail.load("rules/tamoul.rules", players=3, seed=7)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    print(state.returns())

`grail.load` returns a `Game` whose `new_initial_state()` starts a game
with the players, seed and options given to `load`; every state has
`current_player`, `legal_actions()` (stable integer ids), `apply(id)`,
`action_to_string(id)`, `is_terminal()`, `returns()`,
`observation_string(seat)`, `information_state_string(seat)`,
`observation_tensor(seat)`, `determinize(seat, seed)`, `clone()` (and
`copy.deepcopy`), `serialize()` and `Game.deserialize(text)`.
`grail.openspiel.register(path)` makes a rules file a pyspiel game.
"""

from . import _grail

__all__ = ["load", "Game", "State"]

State = _grail.State


class Game:
    """A compiled rules file with the players, seed and options to start it."""

    def __init__(self, path, players=None, seed=0, options=None, explicit_chance=False):
        self.rules = _grail.Game(str(path))
        lo, hi = self.rules.players
        self.players = lo if players is None else int(players)
        if not lo <= self.players <= hi:
            raise ValueError(f"{self.rules.name} is for {lo} to {hi} players, not {self.players}")
        self.seed = int(seed)
        self.options = dict(options or {})
        self.explicit_chance = bool(explicit_chance)

    @property
    def name(self):
        return self.rules.name

    def new_initial_state(self, seed=None):
        """A new game (with `seed` instead of the game's seed, if given)."""
        return self.rules.new_state(
            self.players,
            self.seed if seed is None else int(seed),
            self.options,
            self.explicit_chance,
        )

    def num_distinct_actions(self):
        return self.rules.num_distinct_actions(self.players)

    def max_chance_outcomes(self):
        return self.rules.max_chance_outcomes()

    def observation_tensor_shape(self):
        """The observation tensor's fixed shape: `[length]` (docs/embedding.md)."""
        return [self.rules.observation_tensor_size(self.players)]

    def deserialize(self, text):
        return self.rules.deserialize(text)

    def __repr__(self):
        return f"grail.Game({self.rules.path!r}, players={self.players}, seed={self.seed})"


def load(path, players=None, seed=0, options=None, explicit_chance=False):
    """Compile the rules file at `path`; a broken file raises ValueError
    with every diagnostic."""
    return Game(path, players=players, seed=seed, options=options, explicit_chance=explicit_chance)
