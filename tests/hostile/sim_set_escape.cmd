# a --set name holding a terminal escape: shown escaped
grail sim rules/tamoul.rules --games 1 --set [2Jx=1
