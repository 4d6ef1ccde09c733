# an options file with a 100 KB line: the excerpt is cut
grail play rules/tamoul.rules --seed 1
--- stdin
variant tests/hostile/data/options_long.txt
variant tests/hostile/data/options_long_noeq.txt
