# a part with no columns
rulecheck merge tests/hostile/data/no_columns.part tests/hostile/data/p2.part
