# phase calls nested 1000 deep (start and 999 calls): the limit
grail sim tests/hostile/data/calls_1000.rules --games 1 --seed 1
