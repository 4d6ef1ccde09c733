# division by zero
grail sim tests/hostile/data/div_zero.rules --games 1 --seed 1
