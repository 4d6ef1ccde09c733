# saves with a negative seed, a 20-digit player count, an option past 32 bits, 100,000 brackets
grail play rules/tamoul.rules --seed 1
--- stdin
load tests/hostile/data/save_seed_negative.ron
load tests/hostile/data/save_players_huge.ron
load tests/hostile/data/save_option_past_i32.ron
load tests/hostile/data/save_deep_brackets.ron
