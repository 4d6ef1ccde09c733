# a part of a run with other --set values
rulecheck merge tests/hostile/data/other_options.part tests/hostile/data/p2.part
