# three agents for two seats: the replay command names all three (it named two)
grail sim rules/tamoul.rules --games 2 --agent random,greedy,oracle --max-decisions 3
