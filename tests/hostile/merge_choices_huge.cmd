# 9 * 10^18 decisions in two games
rulecheck merge tests/hostile/data/choices_huge.part tests/hostile/data/p2.part
