# an option at the top of its declared range
grail sim rules/tamoul.rules --games 1 --set threshold=100
