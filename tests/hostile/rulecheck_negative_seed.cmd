# a negative seed: the message names the allowed range (clap's own advice was to write `-- -1`)
rulecheck rules/tamoul.rules --games 1 --seed -1
