# phase calls nested 1001 deep (start and 1000 calls): one past the limit
grail sim tests/hostile/data/calls_1001.rules --games 1 --seed 1
