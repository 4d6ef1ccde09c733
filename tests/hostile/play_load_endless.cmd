# loading or reading options from an endless file (/dev/zero) must not take all memory
grail play rules/tamoul.rules --seed 1
--- stdin
load /dev/zero
variant /dev/zero
moves
