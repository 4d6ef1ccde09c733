# an option chosen 10^18 times in 86 decisions
rulecheck merge tests/hostile/data/arms_huge.part tests/hostile/data/p2.part
