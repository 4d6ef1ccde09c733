# control characters typed at the REPL
grail play rules/tamoul.rules --seed 1
--- stdin
play ]0;pwned
[2J
put P1.score [31m
