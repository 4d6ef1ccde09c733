# a variant file that does not exist
grail play rules/tamoul.rules --seed 1
--- stdin
variant no/such.rules
arrange nowhere nothing
