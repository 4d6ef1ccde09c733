# two parts whose lead-change counts overflow when added
rulecheck merge tests/hostile/data/overflow_a.part tests/hostile/data/overflow_b.part
