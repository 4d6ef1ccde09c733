# a zone variable holding none (chess `ep`): state and view
grail play examples/chess.rules --seed 1
--- stdin
state
view 0
view 1
