# fmt --check on a file with a byte-order mark (check accepts it; fmt must too)
grail fmt --check tests/hostile/bom.rules
