# more finished games than games, forced beyond offered
rulecheck merge tests/hostile/data/counts_impossible.part tests/hostile/data/p2.part
