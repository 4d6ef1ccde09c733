# a shard index beyond the count
rulecheck merge tests/hostile/data/shard_k_out.part tests/hostile/data/p2.part
