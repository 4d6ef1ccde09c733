# --jobs 0
grail sim rules/tamoul.rules --games 2 --jobs 0
