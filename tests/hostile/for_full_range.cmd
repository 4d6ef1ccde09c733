# a for over the whole 32-bit range
grail sim tests/hostile/data/for_full_range.rules --games 1 --seed 1
