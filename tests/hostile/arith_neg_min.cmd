# negating the least 32-bit integer
grail sim tests/hostile/data/arith_neg_min.rules --games 1 --seed 1
