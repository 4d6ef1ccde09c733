# 65 checkpoints at once are a fault
grail sim tests/hostile/data/checkpoints_65.rules --games 1 --seed 1
