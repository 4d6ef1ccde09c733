# put with numbers at and past the 32-bit range
grail play rules/tamoul.rules --seed 1
--- stdin
put P0.score 99999999999
put P0.score 2147483648
put P0.score -2147483649
put P0.score 2147483647
put P0.score -2147483648
put P0.score +7
put P0.score 12x
put P0.score 1e3
