# a part file that does not exist
rulecheck merge tests/hostile/data/nope.part
