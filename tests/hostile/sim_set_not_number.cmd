# an option value that is no number
grail sim rules/tamoul.rules --games 1 --set target=lots
