# rulecheck --jobs 257
rulecheck rules/tamoul.rules --games 1 --players 2 --jobs 257
