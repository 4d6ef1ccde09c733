# a chain of 10 variants: over the limit, and not a circle
grail check tests/hostile/data/chain/v9.rules
