# a part of a run with another seed
rulecheck merge tests/hostile/data/other_seed.part tests/hostile/data/p2.part
