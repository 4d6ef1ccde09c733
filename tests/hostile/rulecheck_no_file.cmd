# rulecheck without a rules file: the message names what is missing
rulecheck --games 1
