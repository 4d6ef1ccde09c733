# --jobs 100000
grail sim rules/tamoul.rules --games 2 --jobs 100000
