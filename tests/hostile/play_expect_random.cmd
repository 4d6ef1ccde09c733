# expect with a random draw is refused; the game is untouched
grail play rules/tamoul.rules --seed 1
--- stdin
expect random(0,5) == 0
expect random(0, 5)
expect 1 + random(1,2) >= 2 and true
expect count(draw) == 44
play 1
log
