# a product past 32 bits
grail sim tests/hostile/data/arith_mul_over.rules --games 1 --seed 1
