# one choice with a million options
grail sim tests/hostile/data/many_options.rules --games 1 --seed 1
