# a for over 1,000,000 values runs
grail sim tests/hostile/data/for_at_limit.rules --games 1 --seed 1
