# the most players the game declares (6)
grail sim rules/tamoul.rules --games 1 --players 6
