# a for over 1,000,001 values is a fault
grail sim tests/hostile/data/for_over_limit.rules --games 1 --seed 1
