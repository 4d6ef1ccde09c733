# --jobs one past the limit (257)
grail sim rules/tamoul.rules --games 2 --seed 1 --jobs 257
