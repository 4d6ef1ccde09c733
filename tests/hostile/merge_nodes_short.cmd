# a node count list shorter than the graph
rulecheck merge tests/hostile/data/nodes_short.part tests/hostile/data/p2.part
