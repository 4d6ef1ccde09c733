# a part written by another grail version
rulecheck merge tests/hostile/data/other_grail.part tests/hostile/data/p2.part
