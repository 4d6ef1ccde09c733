# exactly 5,000,000 steps without a decision: the game ends
grail sim tests/hostile/data/steps_5000000.rules --games 1 --seed 1
