# loading files that are not saves
grail play rules/tamoul.rules --seed 1
--- stdin
load tests/hostile/data/p1.part
load tests/hostile/data/nope.ron
load tests/hostile/binary.rules
load tests/hostile/invalid_utf8.rules
