# a huge shard count
rulecheck merge tests/hostile/data/shard_n_huge.part tests/hostile/data/p2.part
