# an option one past its declared range
grail sim rules/tamoul.rules --games 1 --set threshold=101
