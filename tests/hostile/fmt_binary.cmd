# fmt --check on a file that is not UTF-8
grail fmt --check tests/hostile/binary.rules
