# numbers out of range in REPL commands
grail play rules/tamoul.rules --seed 1
--- stdin
play 99999999999
play 0
play -1
undo 99999999999
redo 99999999999
view 99999
explain 0
explain 99999999999
put P1.score 99999999999
set target 99999999999
restart --players 100000
restart --seed 99999999999999999999999
