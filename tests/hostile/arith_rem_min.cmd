# the least 32-bit integer modulo -1 (0, no overflow)
grail sim tests/hostile/data/arith_rem_min.rules --games 1 --seed 1
