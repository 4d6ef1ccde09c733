# no decision allowed: every game unfinished
grail sim rules/tamoul.rules --games 2 --max-decisions 0
