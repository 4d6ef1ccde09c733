# a time per move one millisecond past the ten-minute limit: the range is named
grail sim tests/hostile/data/min.rules --games 1 --agent mcts:600001ms
