# a variant that extends itself
grail check tests/hostile/data/chain/self.rules
