# a part cut in the middle
rulecheck merge tests/hostile/data/truncated.part tests/hostile/data/p2.part
