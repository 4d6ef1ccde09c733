# --players 0
grail sim rules/tamoul.rules --games 2 --players 0
