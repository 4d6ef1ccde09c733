# a negative exploration budget: the budget's own message, not clap's advice to write `-- -1`
rulecheck tests/hostile/data/min.rules --games 1 --explore -1
