# a part of format 1, which records no grail version
rulecheck merge tests/hostile/data/old_format.part tests/hostile/data/p2.part
