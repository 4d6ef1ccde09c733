# a variant extending /dev/stdin: refused (before, the base was read from the
# script piped to the REPL, which it swallowed, and its lines were checked as rules)
grail play tests/hostile/data/base_stdin.rules --seed 1
--- stdin
state
moves
