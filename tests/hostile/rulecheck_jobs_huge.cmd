# rulecheck --jobs 100000
rulecheck rules/tamoul.rules --games 2 --jobs 100000
