# a save whose names hold U+202E and a terminal escape: shown escaped
grail play rules/tamoul.rules --seed 1
--- stdin
load tests/hostile/data/save_bidi.ron
log
load tests/hostile/data/save_bidi_digest.ron
