# 64 checkpoints at once are allowed
grail sim tests/hostile/data/checkpoints_64.rules --games 1 --seed 1
