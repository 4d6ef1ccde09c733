# a chain of 9 variants: at the limit
grail check tests/hostile/data/chain/v8.rules
