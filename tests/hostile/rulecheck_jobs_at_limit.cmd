# rulecheck --jobs 256 (the limit)
rulecheck rules/tamoul.rules --games 1 --players 2 --explore 0 --jobs 256
