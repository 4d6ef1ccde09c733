# the overview prints the game's name
grail graph tests/hostile/control_chars.rules --format overview
