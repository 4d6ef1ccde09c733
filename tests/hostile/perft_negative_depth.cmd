# a negative perft depth
grail perft examples/chess.rules --depth -1
