# loading saves with an impossible move, player count or digest
grail play rules/tamoul.rules --seed 1
--- stdin
load tests/hostile/data/save_bad_move.ron
load tests/hostile/data/save_bad_players.ron
load tests/hostile/data/save_bad_digest.ron
load tests/hostile/data/save.ron
log
