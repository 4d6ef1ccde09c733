"""The `grail` package's own API: ids, copies, serialisation, what a seat
knows, determinization, explicit chance, and the README's example."""

import copy
import os
import pickle
import random
import re

import pytest

import grail
from conftest import ROOT, rules, shipped_rules


def play_some(state, steps, rng):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def test_readme_example_runs():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    block = re.search(r"```python\n(import grail\n.*?)```", text, re.S)
    assert block, "the README has a Python example"
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(block.group(1), "README.md", "exec"), {})
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("path", shipped_rules(), ids=os.path.basename)
def test_every_rules_file_plays_with_explicit_chance(path):
    game = grail.load(path, explicit_chance=True)
    size = game.observation_tensor_shape()[0]
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(300):
        if state.is_terminal():
            break
        assert len(state.observation_tensor(0)) == size
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert [o for o, _ in outcomes] == state.legal_actions()
            state.apply(rng.choice(outcomes)[0])
        else:
            ids = state.legal_actions()
            assert ids == sorted(set(ids))
            assert all(0 <= i < game.num_distinct_actions() for i in ids)
            state.apply(rng.choice(ids))


def test_a_shuffle_is_drawn_one_card_at_a_time():
    game = grail.load(rules("rules/tamoul.rules"), players=2, explicit_chance=True)
    state = game.new_initial_state()
    sizes = []
    while state.is_chance_node() and len(sizes) < 60:
        outcomes = state.chance_outcomes()
        sizes.append(len(outcomes))
        state.apply(outcomes[0][0])
    # 52 cards: 51 draws of 52, 51, ..., 2 outcomes (among the first draws)
    run = [s for s in sizes if s > 2]
    assert run[:3] == [52, 51, 50], sizes
    assert sizes.count(2) >= 1


def test_chance_outcomes_replay_identically():
    game = grail.load(rules("rules/kameloot.rules"), players=3, explicit_chance=True)
    a = play_some(game.new_initial_state(), 120, random.Random(5))
    b = play_some(game.new_initial_state(), 120, random.Random(5))
    assert a.serialize() == b.serialize()
    assert a.information_state_string(1) == a.information_state_replayed(1)


def test_clone_deepcopy_pickle_and_serialize():
    game = grail.load(rules("rules/camelot.rules"), players=2, seed=4)
    state = play_some(game.new_initial_state(), 20, random.Random(1))
    for other in (state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state)),
                  game.deserialize(state.serialize())):
        assert other.legal_actions() == state.legal_actions()
        assert other.observation_string(0) == state.observation_string(0)
        a = other.legal_actions()[0]
        other.apply(a)
        assert other.serialize() != state.serialize()
    with pytest.raises(ValueError):
        game.deserialize("{")


def test_information_state_is_kept_as_the_game_goes():
    game = grail.load(rules("rules/tamoul.rules"), players=3, seed=2)
    state = game.new_initial_state()
    rng = random.Random(8)
    for _ in range(25):
        play_some(state, 1, rng)
        for seat in range(3):
            assert state.information_state_string(seat) == state.information_state_replayed(seat)


def labels(state):
    texts = (state.action_to_string(a) for a in state.legal_actions())
    return sorted(re.sub(r" \[\d+\]$", "", t) for t in texts)


@pytest.mark.parametrize("explicit", [False, True])
def test_determinize_is_honest(explicit):
    """A determinization for a seat leaves everything that seat knows as it
    was: its observation (string and tensor), its information state and,
    when it chooses, its legal actions."""
    game = grail.load(rules("rules/tamoul.rules"), players=3, seed=11, explicit_chance=explicit)
    state = game.new_initial_state()
    rng = random.Random(2)
    changed = 0
    checked = 0
    for step in range(200):
        if state.is_terminal():
            break
        if not state.is_chance_node() and step % 5 == 0:
            for seat in range(3):
                d = state.determinize(seat, seed=step * 7 + seat)
                assert d.observation_string(seat) == state.observation_string(seat)
                assert d.observation_tensor(seat) == state.observation_tensor(seat)
                assert d.information_state_string(seat) == state.information_state_string(seat)
                if state.current_player == seat:
                    # the same choices as the seat sees them; ids of actions
                    # that bind a card the seat does not know are the card's
                    # number, so they may differ (docs/embedding.md)
                    assert labels(d) == labels(state)
                changed += d.serialize() != state.serialize()
                checked += 1
        play_some(state, 1, rng)
    assert checked > 10
    assert changed > 0, "the samples differ from the real state somewhere"


def test_bad_input_is_an_error_not_a_crash():
    with pytest.raises(ValueError):
        grail.load(rules("no/such.rules"))
    with pytest.raises(ValueError):
        grail.load(rules("rules/tamoul.rules"), players=99)
    with pytest.raises(ValueError):
        grail.load(rules("rules/tamoul.rules"), options={"nope": 1}).new_initial_state()
    state = grail.load(rules("rules/tamoul.rules")).new_initial_state()
    with pytest.raises(ValueError):
        state.apply(10**9)
    with pytest.raises(ValueError):
        state.observation_string(7)
