# the least 32-bit integer divided by -1
grail sim tests/hostile/data/arith_div_min.rules --games 1 --seed 1
