# a game name and a label holding terminal escapes, run by sim (which prints the name)
grail sim tests/hostile/control_chars.rules --games 1 --seed 1
