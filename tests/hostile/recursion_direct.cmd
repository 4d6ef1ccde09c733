# direct recursion with no decision
grail sim tests/hostile/data/recursion2.rules --games 1 --seed 1
