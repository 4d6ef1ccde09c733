# a for over one value, the largest
grail sim tests/hostile/data/for_last_value.rules --games 1 --seed 1
