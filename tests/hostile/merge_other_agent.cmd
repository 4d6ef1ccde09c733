# a part of a run with another agent
rulecheck merge tests/hostile/data/other_agent.part tests/hostile/data/p2.part
