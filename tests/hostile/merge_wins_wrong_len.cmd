# wins for the wrong number of seats
rulecheck merge tests/hostile/data/wins_wrong_len.part tests/hostile/data/p2.part
