# the same shard given twice
rulecheck merge tests/hostile/data/p1.part tests/hostile/data/p1.part
