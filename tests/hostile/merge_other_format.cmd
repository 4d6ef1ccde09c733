# a part of an unknown format version
rulecheck merge tests/hostile/data/other_format.part tests/hostile/data/p2.part
