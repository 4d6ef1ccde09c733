# a variant whose base does not exist
grail check tests/hostile/data/chain_missing.rules
