# --first near the last game number: the games would run past it (played fewer, silently)
grail sim rules/tamoul.rules --games 3 --first 18446744073709551614
