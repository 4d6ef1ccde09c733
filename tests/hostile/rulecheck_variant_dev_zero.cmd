# an endless --variant file
rulecheck rules/tamoul.rules --games 1 --variant /dev/zero
