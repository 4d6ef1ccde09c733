# perft --divide at depth 0 printed perft(0) = 4344
grail perft rules/tamoul.rules --depth 0 --divide
