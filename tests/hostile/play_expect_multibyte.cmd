# fuzz (repl_line): `expect` with a character of more than one byte before
# a comparison sliced a string inside that character and panicked
grail play rules/tamoul.rules --seed 1
--- stdin
expect P0.points = the wo€€ play
expect é == 1
expect 1 == é
expect «P1.score» >= 0 and ü
