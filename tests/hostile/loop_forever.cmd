# an endless loop with no decision hits the step budget
grail sim tests/hostile/data/loop_forever.rules --games 2 --seed 1
