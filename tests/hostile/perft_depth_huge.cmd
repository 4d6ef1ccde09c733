# perft of depth 4 billion
grail perft rules/tamoul.rules --depth 4000000000
