# recursion through a one-option choice
grail sim tests/hostile/data/recursion.rules --games 1 --seed 1 --max-decisions 1000000
