# a --set without =
grail sim rules/tamoul.rules --games 1 --set target
