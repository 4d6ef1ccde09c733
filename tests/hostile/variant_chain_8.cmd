# a chain of 8 variants: accepted
grail check tests/hostile/data/chain/v7.rules
