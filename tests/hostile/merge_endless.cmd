# an endless part file
rulecheck merge /dev/zero tests/hostile/data/p2.part
