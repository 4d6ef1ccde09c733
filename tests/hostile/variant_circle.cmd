# two variants that extend each other
grail check tests/hostile/data/chain/circle_a.rules
