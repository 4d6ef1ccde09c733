# a part whose finished game took more decisions than the run allows (--max-decisions)
rulecheck merge tests/hostile/data/decisions_past_cap.part tests/hostile/data/p2.part
