# `auto 100000` in a game that never ends: the limit, played to the end, then the game goes on
grail play tests/hostile/data/decide_forever.rules --seed 1
--- stdin
auto 100000
