# an agent budget beyond its limit
grail sim rules/tamoul.rules --games 1 --agent mc:99999999999
