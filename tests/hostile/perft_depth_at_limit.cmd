# perft at the depth limit (32), on a game of one decision
grail perft tests/hostile/data/one_choice.rules --depth 32
