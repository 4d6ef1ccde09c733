# shard index 0
rulecheck merge tests/hostile/data/shard_k_zero.part tests/hostile/data/p2.part
