# a part whose rules digest differs
rulecheck merge tests/hostile/data/digest_changed.part tests/hostile/data/p2.part
