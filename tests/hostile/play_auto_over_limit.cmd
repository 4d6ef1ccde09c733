# `auto` past its limit in a game that never ends (before, 99999999999 grew the
# undo history until the process aborted on memory): refused, the game untouched
grail play tests/hostile/data/decide_forever.rules --seed 1
--- stdin
auto 100001
auto 99999999999
auto 99999999999999999999999999
auto 0
log
undo
