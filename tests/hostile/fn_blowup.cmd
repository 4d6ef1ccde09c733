# exponential function inlining
grail check tests/hostile/data/fn_blowup.rules
