# a loop taking checkpoints must not use unbounded memory
grail sim tests/hostile/data/checkpoints.rules --games 1 --seed 1
