# perft one past the depth limit (33)
grail perft tests/hostile/data/one_choice.rules --depth 33
