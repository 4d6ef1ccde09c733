# a part that is not RON
rulecheck merge tests/hostile/data/garbage.part tests/hostile/data/p2.part
