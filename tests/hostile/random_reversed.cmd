# random with its bounds reversed
grail sim tests/hostile/data/random_reversed.rules --games 1 --seed 1
