# random over the whole 32-bit range (2^32 values)
grail sim tests/hostile/data/random_full_range.rules --games 1 --seed 1
