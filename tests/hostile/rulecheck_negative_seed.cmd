# a negative seed (clap's message has a tip on a second line)
rulecheck rules/tamoul.rules --games 1 --seed -1
