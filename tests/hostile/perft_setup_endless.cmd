# an endless setup file given to perft
grail perft rules/tamoul.rules --depth 1 --setup /dev/zero
