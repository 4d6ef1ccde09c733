# an endless options file given to rulecheck --variant
rulecheck rules/tamoul.rules --games 1 --explore 0 --variant /dev/zero
