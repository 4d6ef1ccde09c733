# an empty part file
rulecheck merge tests/hostile/data/empty.part tests/hostile/data/p2.part
