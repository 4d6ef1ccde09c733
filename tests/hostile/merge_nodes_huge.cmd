# a node that ran 10^18 times in two games
rulecheck merge tests/hostile/data/nodes_huge.part tests/hostile/data/p2.part
