# perft with no players
grail perft rules/tamoul.rules --players 0 --depth 1
