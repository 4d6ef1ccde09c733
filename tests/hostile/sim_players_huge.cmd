# --players 100000
grail sim rules/tamoul.rules --games 2 --players 100000
