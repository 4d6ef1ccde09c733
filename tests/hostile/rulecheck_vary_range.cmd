# a --vary value written as a range of two billion
rulecheck rules/tamoul.rules --games 1 --vary target=1..2000000000
