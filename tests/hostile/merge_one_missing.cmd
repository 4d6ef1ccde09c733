# one shard of two
rulecheck merge tests/hostile/data/p1.part
