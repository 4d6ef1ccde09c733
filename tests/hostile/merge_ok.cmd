# the two untouched parts merge
rulecheck merge tests/hostile/data/p1.part tests/hostile/data/p2.part
