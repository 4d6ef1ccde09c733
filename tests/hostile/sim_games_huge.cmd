# --games beyond u64
grail sim rules/tamoul.rules --games 999999999999999999999999
