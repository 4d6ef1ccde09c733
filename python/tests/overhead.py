"""The cost of a step through Python: random games played with
legal_actions() + apply() from Python, against the same loop in Rust
(`grail._grail.rust_random_steps`, legal ids + apply through grail's API).

    python python/tests/overhead.py rules/tamoul.rules 2 20000
"""

import random
import sys
import time

import grail
from grail import _grail


def python_steps(game, steps, seed):
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    done = 0
    while done < steps:
        if state.is_terminal():
            seed += 1
            state = game.new_initial_state(seed)
            continue
        state.apply(rng.choice(state.legal_actions()))
        done += 1
    return done


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "rules/tamoul.rules"
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    game = grail.load(path, players=players)
    t = time.perf_counter()
    python_steps(game, steps, 1)
    py = steps / (time.perf_counter() - t)
    t = time.perf_counter()
    _grail.rust_random_steps(game.rules, players, 1, steps)
    rs = steps / (time.perf_counter() - t)
    print(f"{game.name}: Python {py:,.0f} steps/s, Rust {rs:,.0f} steps/s, "
          f"{1e6 / py - 1e6 / rs:.2f} us overhead per step ({rs / py:.1f}x)")


if __name__ == "__main__":
    main()
