# a negative number of players
grail sim rules/tamoul.rules --games 1 --players -2
