# an unknown option
grail sim rules/tamoul.rules --games 1 --set tagret=5
