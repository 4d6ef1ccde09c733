#!/usr/bin/env python3
"""Writes the generated hostile cases of tests/hostile/ (run from the repo root:
python3 tests/hostile/data/generate.py). The hand-written cases are not touched."""
import os, re
H = 'tests/hostile'
D = H + '/data'
MIN = open(D + '/min.rules').read()
DEEP = '''game "Deep" {
  players 2..2
}

card Chip {
  value: int
}

deck chips of Chip size 1 in pile {
  1 x { value: 1 }
}

zone pile: shared pile hidden

var score: int per player = 0

start {
%s
  end game
}

winners highest p.score
'''
def w(name, text, mode='w'):
    with open(os.path.join(H, name), mode) as f:
        f.write(text)
def deep(name, body, comment):
    w(name, '# ' + comment + '\n' + DEEP % body)
def cmd(name, comment, line, stdin=None):
    t = '# ' + comment + '\n' + line + '\n'
    if stdin is not None:
        t += '--- stdin\n' + stdin
    w(name, t)

# Nesting. `start {` is one level; the body adds the rest.
for n, tag in ((7000, 'huge'), (127, 'at_limit'), (128, 'over_limit')):
    deep(f'nest_parens_{tag}.rules', '  let x = ' + '(' * n + '1' + ')' * n, f'{n} nested parentheses inside start')
for n, tag in ((10000, 'huge'), (127, 'at_limit'), (128, 'over_limit')):
    deep(f'nest_blocks_{tag}.rules', '  ' + 'if true {\n' * n + '}\n' * n, f'{n} nested blocks inside start')
for n, tag in ((20000, 'huge'), (127, 'at_limit'), (128, 'over_limit')):
    deep(f'nest_not_{tag}.rules', '  let x = ' + 'not ' * n + 'true', f'a chain of {n} `not`')
for n, tag in ((20000, 'huge'), (127, 'at_limit'), (128, 'over_limit')):
    deep(f'nest_neg_{tag}.rules', '  let x = ' + '- ' * n + '1', f'a chain of {n} unary minus')
deep('nest_elseif_huge.rules', '  let y = 1\n  if y == 0 { }' + ' else if y == 0 { }' * 10000, '10,000 chained else-if')
deep('nest_cond_huge.rules', '  let x = ' + 'if true then 1 else ' * 10000 + '1', '10,000 chained if-then-else expressions')
deep('nest_label_huge.rules', '  for p in players {\n    choose p {\n      "{' + '(' * 10000 + '1' + ')' * 10000 + '}" { }\n    }\n  }', '10,000 parentheses inside a label')
for n, tag in ((60000, 'huge'), (510, 'at_limit'), (511, 'over_limit')):
    deep(f'chain_plus_{tag}.rules', '  let x = 1' + ' + 1' * n, f'a flat chain of {n} additions (as deep as it is long)')
deep('chain_field_huge.rules', '  let x = top(pile)' + '.value' * 20000, 'a chain of 20,000 field accesses')
deep('chain_index_huge.rules', '  let x = pile' + '[0]' * 20000, 'a chain of 20,000 indexes')
deep('chain_compare_huge.rules', '  let x = 1' + ' < 1' * 20000, 'a chain of 20,000 comparisons')

# Decks and cards.
def deck(name, comment, size, entry):
    t = MIN.replace('size 4 in pile {', f'size {size} in pile {{').replace('  4 x { value: 1 }', entry)
    w(name, '# ' + comment + '\n' + t)
deck('deck_at_limit.rules', 'exactly 50,000 cards: accepted', 50000, '  50000 x { value: 1 }')
deck('deck_over_limit.rules', '50,001 cards: refused before expanding', 50001, '  50001 x { value: 1 }')
deck('deck_65536.rules', '65,536 cards would alias 16-bit card ids', 65536, '  65536 x { value: 1 }')
deck('deck_copies_huge.rules', '2,000,000,000 copies: refused before allocating', 2000000000, '  2000000000 x { value: 1 }')
deck('deck_range_huge.rules', 'a range of two billion values', 4, '  1 x { value: 1..2000000000 }')
deck('deck_ranges_product.rules', 'copies times a range: 1.6 billion cards', 4, '  40000 x { value: 1..40000 }')
deck('deck_copies_overflow.rules', 'copies beyond i64', 4, '  99999999999999999999999 x { value: 1 }')
deck('deck_negative_copies.rules', 'negative copies', 4, '  -5 x { value: 1 }')

# Numbers.
w('int_literal_huge.rules', '# an integer literal beyond i64\n' + MIN.replace('p.score = p.score + 1', 'p.score = p.score + 99999999999999999999999'))
w('int_literal_i32.rules', '# an integer literal beyond i32\n' + MIN.replace('p.score = p.score + 1', 'p.score = p.score + 99999999999'))
w('option_range_huge.rules', '# an option range beyond i32\n' + MIN.replace('var score', 'option goal = 1 in 0..99999999999\n\nvar score'))
w('option_default_outside.rules', '# an option default outside its range\n' + MIN.replace('var score', 'option goal = 50 in 0..10\n\nvar score'))
w('players_huge.rules', '# a player count far beyond any table\n' + MIN.replace('players 2..2', 'players 2..100000'))
w('players_zero.rules', '# no players at all\n' + MIN.replace('players 2..2', 'players 0..0'))
w('players_reversed.rules', '# a reversed player range\n' + MIN.replace('players 2..2', 'players 6..2'))
w('board_huge.rules', '# a board of ten billion cells\n' + MIN.replace('var score', 'board grid_zone {\n  grid 100000 x 100000\n}\n\nvar score'))
w('board_zero.rules', '# a board with no cells\n' + MIN.replace('var score', 'board grid_zone {\n  grid 0 x 0\n}\n\nvar score'))

# Names and text.
w('name_huge.rules', '# an unknown name of 100,000 characters (did-you-mean must stay cheap)\n' + MIN.replace('p.score = p.score + 1', 'p.score = p.score + ' + 'x' * 100000))
w('name_many_similar.rules', '# 5,000 variables and a misspelt one: did-you-mean over many names\n' + MIN.replace('var score', ''.join(f'var v{i}: int = 0\n' for i in range(5000)) + 'var score').replace('p.score = p.score + 1', 'p.score = p.score + v49999'))
w('line_huge.rules', '# a comment line of 200,000 characters\n#' + 'y' * 200000 + '\n' + MIN)
w('empty.rules', '')
w('only_comments.rules', '# nothing but a comment\n')
w('control_chars.rules', '# control characters in a label and a name (must be shown escaped, not run)\n' + MIN.replace('"take"', '"take \x1b]0;pwned\x07 \x1b[2J"').replace('game "Min"', 'game "Min\x1b[31m"'))
with open(os.path.join(H, 'invalid_utf8.rules'), 'wb') as f:
    f.write(b'# a byte that is not UTF-8 on line 3\n' + MIN.encode().replace(b'card Chip', b'card Ch\xffip', 1))
with open(os.path.join(H, 'bom.rules'), 'wb') as f:
    f.write(b'\xef\xbb\xbf' + MIN.encode())
with open(os.path.join(H, 'nul_bytes.rules'), 'wb') as f:
    f.write(b'# NUL bytes in the middle\n' + MIN.encode().replace(b'card Chip', b'card \x00\x00Chip', 1))
with open(os.path.join(H, 'binary.rules'), 'wb') as f:
    f.write(bytes(range(256)) * 8)

# Variants: a chain of 10 (not a circle) and a real circle.
chain = D + '/chain'
os.makedirs(chain, exist_ok=True)
open(chain + '/v0.rules', 'w').write('variant "v0" extends "../min.rules"\n')
for i in range(1, 12):
    open(chain + f'/v{i}.rules', 'w').write(f'variant "v{i}" extends "v{i-1}.rules"\n')
open(chain + '/circle_a.rules', 'w').write('variant "a" extends "circle_b.rules"\n')
open(chain + '/circle_b.rules', 'w').write('variant "b" extends "circle_a.rules"\n')
open(chain + '/self.rules', 'w').write('variant "self" extends "self.rules"\n')
cmd('variant_chain_8.cmd', 'a chain of 8 variants: accepted', 'grail check tests/hostile/data/chain/v7.rules')
cmd('variant_chain_9.cmd', 'a chain of 9 variants: at the limit', 'grail check tests/hostile/data/chain/v8.rules')
cmd('variant_chain_10.cmd', 'a chain of 10 variants: over the limit, and not a circle', 'grail check tests/hostile/data/chain/v9.rules')
cmd('variant_circle.cmd', 'two variants that extend each other', 'grail check tests/hostile/data/chain/circle_a.rules')
cmd('variant_self.cmd', 'a variant that extends itself', 'grail check tests/hostile/data/chain/self.rules')
cmd('variant_missing_base.cmd', 'a variant whose base does not exist', 'grail check tests/hostile/data/chain_missing.rules')
open(D + '/chain_missing.rules', 'w').write('variant "m" extends "no/such/base.rules"\n')

# Runtime: loops, recursion, checkpoints, choices.
def run_rules(name, comment, body):
    open(D + '/' + name, 'w').write('# ' + comment + '\n' + DEEP % body)
run_rules('for_huge.rules', 'for over 0..2147483647', '  for i in 0..2147483647 {\n    for p in players { p.score = p.score + 1 }\n    if i > 3 { end game }\n  }')
cmd('for_huge_range.cmd', 'for i in 0..2147483647 must run (not zero times)', 'grail sim tests/hostile/data/for_huge.rules --games 1 --seed 1')
run_rules('for_at_limit.rules', 'a for over exactly 1,000,000 values', '  for i in 1..1000000 { }')
cmd('for_at_limit.cmd', 'a for over 1,000,000 values runs', 'grail sim tests/hostile/data/for_at_limit.rules --games 1 --seed 1')
run_rules('for_over_limit.rules', 'a for over 1,000,001 values', '  for i in 0..1000000 { }')
cmd('for_over_limit.cmd', 'a for over 1,000,001 values is a fault', 'grail sim tests/hostile/data/for_over_limit.rules --games 1 --seed 1')
run_rules('checkpoints_64.rules', '64 checkpoints kept at once', '  for i in 1..64 { checkpoint }')
cmd('checkpoints_at_limit.cmd', '64 checkpoints at once are allowed', 'grail sim tests/hostile/data/checkpoints_64.rules --games 1 --seed 1')
run_rules('checkpoints_65.rules', '65 checkpoints kept at once', '  for i in 1..65 { checkpoint }')
cmd('checkpoints_over_limit.cmd', '65 checkpoints at once are a fault', 'grail sim tests/hostile/data/checkpoints_65.rules --games 1 --seed 1')
run_rules('loop_forever.rules', 'a loop with no decision', '  loop { }')
cmd('loop_forever.cmd', 'an endless loop with no decision hits the step budget', 'grail sim tests/hostile/data/loop_forever.rules --games 2 --seed 1')
run_rules('checkpoints.rules', 'checkpoints without end', '  loop { checkpoint }')
cmd('checkpoints.cmd', 'a loop taking checkpoints must not use unbounded memory', 'grail sim tests/hostile/data/checkpoints.rules --games 1 --seed 1')
open(D + '/recursion.rules', 'w').write('# a phase that calls itself through a one-option choice\n' + (DEEP % '  for p in players {\n    again(p)\n  }').replace('winners', 'phase again(p: player) {\n  choose p {\n    "again" { again(p) }\n  }\n}\n\nwinners'))
cmd('recursion.cmd', 'recursion through a one-option choice', 'grail sim tests/hostile/data/recursion.rules --games 1 --seed 1 --max-decisions 1000000')
open(D + '/recursion2.rules', 'w').write('# a phase that calls itself with no decision\n' + (DEEP % '  again()').replace('winners', 'phase again() {\n  again()\n}\n\nwinners'))
cmd('recursion_direct.cmd', 'direct recursion with no decision', 'grail sim tests/hostile/data/recursion2.rules --games 1 --seed 1')
run_rules('many_options.rules', 'a choice of 1,000,000 options', '  for p in players {\n    choose p {\n      "pick {i}" for i in 0..1000000 { p.score = i }\n    }\n  }')
cmd('many_options.cmd', 'one choice with a million options', 'grail sim tests/hostile/data/many_options.rules --games 1 --seed 1')
run_rules('fn_blowup.rules', 'functions that double at each level', '')
with open(D + '/fn_blowup.rules', 'w') as f:
    fns = 'fn f0(x: int) -> int = x + 1\n' + ''.join(f'fn f{i}(x: int) -> int = f{i-1}(x) + f{i-1}(x)\n' for i in range(1, 41))
    f.write('# 40 functions, each calling the one before twice: inlining would make 2^40 copies\n' + (DEEP % '  let x = f40(1)').replace('var score', fns + '\nvar score'))
cmd('fn_blowup.cmd', 'exponential function inlining', 'grail check tests/hostile/data/fn_blowup.rules')
run_rules('div_zero.rules', 'division by zero at run time', '  let z = 0\n  for p in players { p.score = 1 / z }')
cmd('div_zero.cmd', 'division by zero', 'grail sim tests/hostile/data/div_zero.rules --games 1 --seed 1')

# CLI arguments.
cmd('sim_set_huge.cmd', 'an option value beyond i32', 'grail sim rules/tamoul.rules --games 1 --set target=99999999999')
cmd('sim_set_negative_huge.cmd', 'an option value below i32', 'grail sim rules/tamoul.rules --games 1 --set target=-99999999999')
cmd('sim_set_not_number.cmd', 'an option value that is no number', 'grail sim rules/tamoul.rules --games 1 --set target=lots')
cmd('sim_set_no_equals.cmd', 'a --set without =', 'grail sim rules/tamoul.rules --games 1 --set target')
cmd('sim_set_unknown.cmd', 'an unknown option', 'grail sim rules/tamoul.rules --games 1 --set tagret=5')
cmd('sim_jobs_huge.cmd', '--jobs 100000', 'grail sim rules/tamoul.rules --games 2 --jobs 100000')
cmd('sim_jobs_zero.cmd', '--jobs 0', 'grail sim rules/tamoul.rules --games 2 --jobs 0')
cmd('sim_players_zero.cmd', '--players 0', 'grail sim rules/tamoul.rules --games 2 --players 0')
cmd('sim_players_huge.cmd', '--players 100000', 'grail sim rules/tamoul.rules --games 2 --players 100000')
cmd('sim_games_huge.cmd', '--games beyond u64', 'grail sim rules/tamoul.rules --games 999999999999999999999999')
cmd('sim_missing_file.cmd', 'a rules file that does not exist', 'grail sim no/such/file.rules --games 1')
cmd('check_directory.cmd', 'a directory given as a rules file', 'grail check rules')
cmd('check_dev_null.cmd', 'an empty special file', 'grail check /dev/null')
cmd('perft_depth_huge.cmd', 'perft of depth 4 billion', 'grail perft rules/tamoul.rules --depth 4000000000')
cmd('perft_players_zero.cmd', 'perft with no players', 'grail perft rules/tamoul.rules --players 0 --depth 1')
cmd('rulecheck_jobs_huge.cmd', 'rulecheck --jobs 100000', 'rulecheck rules/tamoul.rules --games 2 --jobs 100000')
cmd('rulecheck_vary_many.cmd', 'repeated --vary multiplies the columns (7^8 = 5.7 million)', 'rulecheck rules/tamoul.rules --games 1 ' + ' '.join(['--vary target=1,2,3,4,5,6,7'] * 8))
cmd('rulecheck_vary_repeated_values.cmd', 'a --vary with 5,000 values', 'rulecheck rules/tamoul.rules --games 1 --vary target=' + ','.join(['5'] * 5000))
cmd('rulecheck_shard_zero.cmd', '--shard 0/0', 'rulecheck rules/tamoul.rules --games 2 --shard 0/0')
cmd('rulecheck_shard_auto_unset.cmd', '--shard auto outside a scheduler', 'rulecheck rules/tamoul.rules --games 2 --shard auto')
cmd('rulecheck_shard_auto_zero.cmd', '--shard auto/0', 'rulecheck rules/tamoul.rules --games 2 --shard auto/0')
cmd('rulecheck_shard_huge.cmd', '--shard with a huge count', 'rulecheck rules/tamoul.rules --games 2 --shard 1/4000000000 --out $TMP/x.part')

# Part files.
p1 = open(D + '/p1.part').read()
p2 = open(D + '/p2.part').read()
def part(name, comment, text, also='tests/hostile/data/p2.part'):
    open(D + '/' + name + '.part', 'w').write(text)
    cmd(f'merge_{name}.cmd', comment, f'rulecheck merge tests/hostile/data/{name}.part {also}'.strip())
cmd('merge_ok.cmd', 'the two untouched parts merge', 'rulecheck merge tests/hostile/data/p1.part tests/hostile/data/p2.part')
part('shard_k_out', 'a shard index beyond the count', p1.replace('shard:Some((k:1,n:2))', 'shard:Some((k:7,n:2))'))
part('shard_k_zero', 'shard index 0', p1.replace('shard:Some((k:1,n:2))', 'shard:Some((k:0,n:2))'))
part('shard_n_huge', 'a huge shard count', p1.replace('shard:Some((k:1,n:2))', 'shard:Some((k:1,n:4000000000))'))
part('counts_impossible', 'more finished games than games, forced beyond offered', p1.replace('games:2,finished:2', 'games:2,finished:18446744073709551615').replace('forced:4', 'forced:18446744073709551615'))
part('nodes_short', 'a node count list shorter than the graph', re.sub(r'nodes:\[[0-9,]*\]', 'nodes:[1]', p1))
part('wins_wrong_len', 'wins for the wrong number of seats', p1.replace('wins:[[],[2]]', 'wins:[[],[2],[1],[1],[1]]'))
part('no_columns', 'a part with no columns', re.sub(r'columns:\[.*?\]\)\],stats', 'columns:[],stats', p1))
part('truncated', 'a part cut in the middle', p1[: len(p1) // 2])
part('garbage', 'a part that is not RON', '\x00\x01garbage\xff')
part('empty', 'an empty part file', '')
part('other_format', 'a part of an unknown format version', p1.replace('grail rulecheck part 2', 'grail rulecheck part 99'))
part('old_format', 'a part of format 1, which records no grail version', p1.replace('"grail rulecheck part 2",grail:"0.1.0",', '"grail rulecheck part 1",'))
part('other_grail', 'a part written by another grail version', p1.replace('grail:"0.1.0"', 'grail:"0.0.9"'))
part('other_seed', 'a part of a run with another seed', p1.replace('seed:0,', 'seed:5,'))
part('other_agent', 'a part of a run with another agent', p1.replace('agent:"random"', 'agent:"greedy"'))
part('other_options', 'a part of a run with other --set values', p1.replace('sets:[]', 'sets:["target=9"]'))
part('digest_changed', 'a part whose rules digest differs', re.sub(r'digest:[0-9]+', 'digest:1', p1))
cmd('merge_same_twice.cmd', 'the same shard given twice', 'rulecheck merge tests/hostile/data/p1.part tests/hostile/data/p1.part')
cmd('merge_one_missing.cmd', 'one shard of two', 'rulecheck merge tests/hostile/data/p1.part')
cmd('merge_no_such_file.cmd', 'a part file that does not exist', 'rulecheck merge tests/hostile/data/nope.part')

# The REPL, fed on stdin.
cmd('play_chess_state.cmd', 'a zone variable holding none (chess `ep`): state and view', 'grail play examples/chess.rules --seed 1', 'state\nview 0\nview 1\n')
cmd('play_bad_numbers.cmd', 'numbers out of range in REPL commands', 'grail play rules/tamoul.rules --seed 1', 'play 99999999999\nplay 0\nplay -1\nundo 99999999999\nredo 99999999999\nview 99999\nexplain 0\nexplain 99999999999\nput P1.score 99999999999\nset target 99999999999\nrestart --players 100000\nrestart --seed 99999999999999999999999\n')
cmd('play_long_line.cmd', 'a command line of 100,000 characters', 'grail play rules/tamoul.rules --seed 1', 'play ' + 'z' * 100000 + '\nmoves\n')
cmd('play_load_garbage.cmd', 'loading files that are not saves', 'grail play rules/tamoul.rules --seed 1', 'load tests/hostile/data/p1.part\nload tests/hostile/data/nope.ron\nload tests/hostile/binary.rules\nload tests/hostile/invalid_utf8.rules\n')
save = open(D + '/save.ron').read()
open(D + '/save_bad_move.ron', 'w').write(save.replace('arm: 0, value: 11', 'arm: 99, value: 99999'))
open(D + '/save_bad_players.ron', 'w').write(save.replace('players: 2', 'players: 100000'))
open(D + '/save_bad_digest.ron', 'w').write(re.sub(r'digest: [0-9]+', 'digest: 7', save))
cmd('play_load_tampered.cmd', 'loading saves with an impossible move, player count or digest', 'grail play rules/tamoul.rules --seed 1', 'load tests/hostile/data/save_bad_move.ron\nload tests/hostile/data/save_bad_players.ron\nload tests/hostile/data/save_bad_digest.ron\nload tests/hostile/data/save.ron\nlog\n')
cmd('play_control_chars.cmd', 'control characters typed at the REPL', 'grail play rules/tamoul.rules --seed 1', 'play \x1b]0;pwned\x07\n\x1b[2J\nput P1.score \x1b[31m\n')
cmd('play_variant_missing.cmd', 'a variant file that does not exist', 'grail play rules/tamoul.rules --seed 1', 'variant no/such.rules\narrange nowhere nothing\n')

# Counts that overflow only when the two parts are added.
big = 'lead_changes:18446744073709551615'
open(D + '/overflow_a.part', 'w').write(p1.replace('lead_changes:1', big, 1))
open(D + '/overflow_b.part', 'w').write(p2.replace('lead_changes:0', big, 1))
cmd('merge_counts_overflow.cmd', 'two parts whose lead-change counts overflow when added', 'rulecheck merge tests/hostile/data/overflow_a.part tests/hostile/data/overflow_b.part')

# Issue 14, last round: the leftovers.
BIDI = '\u202e'
open(D + '/save_bidi.ron', 'w').write(save.replace('rules: "rules/tamoul.rules"', 'rules: "rules/tam' + BIDI + 'oul.rules\x1b]0;pwned\x07"').replace('game: "Tamoul"', 'game: "Tam' + BIDI + 'luom"').replace('label: "draw from the pile"', 'label: "draw ' + BIDI + 'elip"'))
open(D + '/save_bidi_digest.ron', 'w').write(re.sub(r'digest: [0-9]+', 'digest: 7', open(D + '/save_bidi.ron').read()))
cmd('play_load_bidi.cmd', 'a save whose names hold U+202E and a terminal escape: shown escaped', 'grail play rules/tamoul.rules --seed 1', 'load tests/hostile/data/save_bidi.ron\nlog\nload tests/hostile/data/save_bidi_digest.ron\n')
cmd('play_put_range.cmd', 'put with numbers at and past the 32-bit range', 'grail play rules/tamoul.rules --seed 1', 'put P0.score 99999999999\nput P0.score 2147483648\nput P0.score -2147483649\nput P0.score 2147483647\nput P0.score -2147483648\nput P0.score +7\nput P0.score 12x\nput P0.score 1e3\n')
cmd('play_expect_random.cmd', 'expect with a random draw is refused; the game is untouched', 'grail play rules/tamoul.rules --seed 1', 'expect random(0,5) == 0\nexpect random(0, 5)\nexpect 1 + random(1,2) >= 2 and true\nexpect count(draw) == 44\nplay 1\nlog\n')
open(D + '/options_long.txt', 'w').write('# an options file whose line is 100 KB long\ntarget=' + '9' * 100000 + '\n')
open(D + '/options_long_noeq.txt', 'w').write('# no `=` on a 100 KB line\n' + 'x' * 100000 + '\n')
cmd('play_variant_long_line.cmd', 'an options file with a 100 KB line: the excerpt is cut', 'grail play rules/tamoul.rules --seed 1', 'variant tests/hostile/data/options_long.txt\nvariant tests/hostile/data/options_long_noeq.txt\n')
cmd('fmt_nul.cmd', 'fmt on a file with NUL bytes: refused with the place, nothing printed raw', 'grail fmt --check tests/hostile/nul_bytes.rules')
cmd('fmt_bidi.cmd', 'fmt on a file with a bidi override', 'grail fmt --check tests/hostile/bidi_override.rules')
w('bidi_override.rules', '# U+202E in a label reverses the text shown after it\n' + MIN.replace('game "Min"', 'game "Min ' + BIDI + 'niM"', 1))
w('bidi_comment.rules', '# a bidi isolate in a comment (Trojan Source) \u2066 hides what follows\n' + MIN)
w('zero_width_space.rules', '# a zero-width space\u200b in a comment\n' + MIN)
w('zwj_emoji.rules', '# an emoji with joiners (U+200D) is fine: \U0001f468\u200d\U0001f469\u200d\U0001f467\n' + MIN)
cmd('check_path_escape.cmd', 'a file name holding a terminal escape: shown escaped', 'grail check no/such/\x1b]0;pwned\x07.rules')
cmd('sim_set_escape.cmd', 'a --set name holding a terminal escape: shown escaped', 'grail sim rules/tamoul.rules --games 1 --set \x1b[2Jx=1')
# Hit counts a run cannot give (they do not overflow: earlier checks let them through).
part('nodes_huge', 'a node that ran 10^18 times in two games', re.sub(r'nodes:\[2,', 'nodes:[1000000000000000000,', p1, count=1))
part('arms_huge', 'an option chosen 10^18 times in 86 decisions', re.sub(r'arms:\[13,', 'arms:[1000000000000000000,', p1, count=1))
part('choices_huge', '9 * 10^18 decisions in two games', p1.replace('choices:86,offered:412', 'choices:9000000000000000000,offered:9000000000000000000'))
# The step budget, exactly: 5,000,000 steps (loops of 2,495 x 1,000 and 7, one assignment,
# `end game`) run; one assignment more is step 5,000,001.
STEPS = DEEP.replace('var score: int per player = 0', 'var score: int per player = 0\nvar x: int = 0')
loops = '  for i in 1..2495 { for j in 1..1000 { } }\n  for k in 1..7 { }\n'
open(D + '/steps_5000000.rules', 'w').write('# exactly 5,000,000 steps without a decision\n' + STEPS % (loops + '  x = 1'))
open(D + '/steps_5000001.rules', 'w').write('# 5,000,001 steps without a decision\n' + STEPS % (loops + '  x = 1\n  x = 2'))
cmd('steps_at_limit.cmd', 'exactly 5,000,000 steps without a decision: the game ends', 'grail sim tests/hostile/data/steps_5000000.rules --games 1 --seed 1')
cmd('steps_over_limit.cmd', '5,000,001 steps without a decision: a rules fault', 'grail sim tests/hostile/data/steps_5000001.rules --games 1 --seed 1')

# New inputs of the last round (each found clear or fixed here).
cmd('sim_first_overflow.cmd', '--first near the last game number: the games would run past it (played fewer, silently)', 'grail sim rules/tamoul.rules --games 3 --first 18446744073709551614')
cmd('sim_agents_longer_than_table.cmd', 'three agents for two seats: the replay command names all three (it named two)', 'grail sim rules/tamoul.rules --games 2 --agent random,greedy,oracle --max-decisions 3')
cmd('sim_agent_budget_huge.cmd', 'an agent budget beyond its limit', 'grail sim rules/tamoul.rules --games 1 --agent mc:99999999999')
cmd('sim_max_decisions_zero.cmd', 'no decision allowed: every game unfinished', 'grail sim rules/tamoul.rules --games 2 --max-decisions 0')
cmd('perft_divide_depth_zero.cmd', 'perft --divide at depth 0 printed perft(0) = 4344', 'grail perft rules/tamoul.rules --depth 0 --divide')
cmd('graph_phase_huge.cmd', 'graph --phase with a 100,000-character name: the echo is cut', 'grail graph rules/tamoul.rules --phase ' + 'x' * 100000)
cmd('rulecheck_vary_range.cmd', 'a --vary value written as a range of two billion', 'rulecheck rules/tamoul.rules --games 1 --vary target=1..2000000000')
cmd('rulecheck_variant_dev_zero.cmd', 'an endless --variant file', 'rulecheck rules/tamoul.rules --games 1 --variant /dev/zero')
cmd('fmt_dev_zero.cmd', 'fmt of an endless file', 'grail fmt --check /dev/zero')
def arith(name, comment, body):
    open(D + '/' + name + '.rules', 'w').write('# ' + comment + '\n' + DEEP.replace('var score: int per player = 0', 'var score: int per player = 0\nvar x: int = 0') % body)
    cmd(name + '.cmd', comment, f'grail sim tests/hostile/data/{name}.rules --games 1 --seed 1')
arith('arith_neg_min', 'negating the least 32-bit integer', '  x = -2147483647 - 1\n  x = -x')
arith('arith_div_min', 'the least 32-bit integer divided by -1', '  x = -2147483647 - 1\n  x = x / -1')
arith('arith_rem_min', 'the least 32-bit integer modulo -1 (0, no overflow)', '  x = -2147483647 - 1\n  x = x % -1\n  if x != 0 { x = 1 / 0 }')
arith('arith_mul_over', 'a product past 32 bits', '  x = 65536 * 65536')
arith('random_full_range', 'random over the whole 32-bit range (2^32 values)', '  x = random(-2147483647 - 1, 2147483647)')
arith('random_reversed', 'random with its bounds reversed', '  x = random(0, -1)')
arith('for_full_range', 'a for over the whole 32-bit range', '  for i in -2147483647 - 1..2147483647 { }')
arith('for_last_value', 'a for over one value, the largest', '  for i in 2147483647..2147483647 { x = i }')
rules_min_literal = '# the literal -2147483648 (its digits do not fit: refused with the range)\n' + STEPS % '  x = -2147483648'
w('int_literal_min.rules', rules_min_literal)
cmd('play_misc_bad_args.cmd', 'REPL commands with arguments out of place', 'grail play rules/tamoul.rules --seed 1', 'save /tmp\nsave /dev/full\nload /dev/urandom\nvariant /dev/zero\nredo 5\nview P-1\nexplain -5\nhint 0 random\ntrace maybe\nrestart --seed -1\nset target\nset target 5 6\nput P0.nosuch 3\nput P9.score 1\narrange pile hand\n')
open(D + '/save_seed_negative.ron', 'w').write(save.replace('seed: 1', 'seed: -1'))
open(D + '/save_players_huge.ron', 'w').write(save.replace('players: 2', 'players: 99999999999999999999'))
open(D + '/save_option_past_i32.ron', 'w').write(save.replace('("target", 100)', '("target", 2147483648)'))
open(D + '/save_deep_brackets.ron', 'w').write(save.replace('steps: [', 'steps: ' + '[' * 100000))
cmd('play_load_numbers.cmd', 'saves with a negative seed, a 20-digit player count, an option past 32 bits, 100,000 brackets', 'grail play rules/tamoul.rules --seed 1', 'load tests/hostile/data/save_seed_negative.ron\nload tests/hostile/data/save_players_huge.ron\nload tests/hostile/data/save_option_past_i32.ron\nload tests/hostile/data/save_deep_brackets.ron\n')

# Limits of docs/language.md at the limit and one past it, where only far-past cases existed.
cmd('rulecheck_jobs_at_limit.cmd', 'rulecheck --jobs 256 (the limit)', 'rulecheck rules/tamoul.rules --games 1 --players 2 --explore 0 --jobs 256')
cmd('rulecheck_jobs_over_limit.cmd', 'rulecheck --jobs 257', 'rulecheck rules/tamoul.rules --games 1 --players 2 --jobs 257')
cmd('sim_players_at_max.cmd', 'the most players the game declares (6)', 'grail sim rules/tamoul.rules --games 1 --players 6')
cmd('sim_players_past_max.cmd', 'one player more than the game declares', 'grail sim rules/tamoul.rules --games 1 --players 7')
cmd('sim_set_at_max.cmd', 'an option at the top of its declared range', 'grail sim rules/tamoul.rules --games 1 --set threshold=100')
cmd('sim_set_past_max.cmd', 'an option one past its declared range', 'grail sim rules/tamoul.rules --games 1 --set threshold=101')
