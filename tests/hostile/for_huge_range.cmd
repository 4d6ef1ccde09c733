# for i in 0..2147483647 must run (not zero times)
grail sim tests/hostile/data/for_huge.rules --games 1 --seed 1
