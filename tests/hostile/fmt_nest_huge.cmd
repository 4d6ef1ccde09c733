# fmt --check on a file nested past the limit
grail fmt --check tests/hostile/nest_parens_huge.rules
