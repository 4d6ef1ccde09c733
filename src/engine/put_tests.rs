//! Tests of [`Core::put`] (the cards between two places shifted once,
//! journaled or not) against a lift then a place (which shifts everything
//! after each place): 2,000 random moves per rules file, and 500 journaled
//! ones taken back by `rewind`.

use super::{Core, Game, State};

use super::test_files::shipped_rules_files as rules_files;

fn next(k: &mut u64) -> u64 {
    *k = k
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *k >> 33
}

/// A random move on `t`'s table: a card, often to a near instance (its
/// own, a neighbour), else to any; on top, or at the bottom one time in
/// three.
fn random_move(k: &mut u64, t: &Core) -> (u16, u16, bool) {
    let (cards, insts) = (t.card_count() as u64, t.insts() as i64);
    let card = (next(k) % cards) as u16;
    let here = t.card_zone(card as usize) as i64;
    let inst = match next(k) % 4 {
        0 => here,
        1 => (here + 1).min(insts - 1),
        2 => (here - 1).max(0),
        _ => (next(k) % insts as u64) as i64,
    } as u16;
    (card, inst, next(k).is_multiple_of(3))
}

#[test]
fn put_shifts_as_lift_then_place() {
    let files = rules_files();
    assert!(files.len() >= 13, "the shipped rules files: {files:?}");
    let mut moves = 0;
    for path in files {
        let game = Game::load(&path).unwrap_or_else(|d| panic!("{}", d.render_plain()));
        let g = game.graph();
        let opts = game.default_options();
        let state = State::new(&game, game.players().0, 7, &opts).expect("setup");
        let mut fast: Core = state.core.clone();
        let mut slow: Core = state.core.clone();
        assert!(!fast.log.on, "no journal: the direct path is tested");
        let cards = fast.card_count();
        if cards == 0 {
            continue;
        }
        let mut k = 11;
        for step in 0..2000 {
            let (card, inst, bottom) = random_move(&mut k, &fast);
            fast.put(g, card, inst, bottom);
            slow.lift(card);
            slow.place(g, card, inst, bottom);
            assert!(
                fast.same(&slow),
                "{path}: move {step} (card {card} to {inst}, bottom {bottom}) differs"
            );
            assert_eq!(fast.card_zone(card as usize), inst);
            moves += 1;
        }
        let mut moved = state.clone();
        moved.core = fast;
        moved
            .check_conservation(&game)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    assert!(moves >= 13 * 2000);
}

/// With the journal on, `put` shifts once too (one journal entry for the
/// arena): random moves give what a lift then a place gives, and taking
/// them all back (`rewind`) gives the starting table again.
#[test]
fn journaled_puts_rewind_to_the_start() {
    let mut moves = 0;
    for path in rules_files() {
        let game = Game::load(&path).unwrap_or_else(|d| panic!("{}", d.render_plain()));
        let g = game.graph();
        let opts = game.default_options();
        let state = State::new(&game, game.players().0, 7, &opts).expect("setup");
        let start: Core = state.core.clone();
        let (mut t, mut slow) = (start.clone(), start.clone());
        let cards = t.card_count();
        if cards == 0 {
            continue;
        }
        t.log.on = true;
        let mut k = 5;
        for step in 0..500 {
            let (card, inst, bottom) = random_move(&mut k, &t);
            t.put(g, card, inst, bottom);
            slow.lift(card);
            slow.place(g, card, inst, bottom);
            assert!(t.same(&slow), "{path}: journaled move {step} differs");
            moves += 1;
        }
        t.rewind(0);
        assert!(
            t.same(&start),
            "{path}: rewound table differs from the start"
        );
    }
    assert!(moves >= 13 * 500);
}
