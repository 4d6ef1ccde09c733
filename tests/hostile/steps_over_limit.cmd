# 5,000,001 steps without a decision: a rules fault
grail sim tests/hostile/data/steps_5000001.rules --games 1 --seed 1
