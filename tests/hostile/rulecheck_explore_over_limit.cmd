# an exploration time one millisecond past a day: refused with the limit (it was cut to a day in silence)
rulecheck tests/hostile/data/min.rules --games 1 --explore 86400001ms
