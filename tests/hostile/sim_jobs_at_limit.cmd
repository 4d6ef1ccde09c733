# --jobs at the limit (256)
grail sim rules/tamoul.rules --games 2 --seed 1 --jobs 256
