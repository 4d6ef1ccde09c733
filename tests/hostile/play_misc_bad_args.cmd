# REPL commands with arguments out of place
grail play rules/tamoul.rules --seed 1
--- stdin
save /tmp
save /dev/full
load /dev/urandom
variant /dev/zero
redo 5
view P-1
explain -5
hint 0 random
trace maybe
restart --seed -1
set target
set target 5 6
put P0.nosuch 3
put P9.score 1
arrange pile hand
