# a negative seed at the REPL command line
grail play rules/tamoul.rules --seed -7
