# a table size given twice is one column, not two with the same findings
rulecheck tests/hostile/data/min.rules --games 4 --explore 0 --players 2,2,2
