# one player more than the game declares
grail sim rules/tamoul.rules --games 1 --players 7
