//! The engine API on Tamoul and on small purpose-made games: determinism,
//! card conservation, hidden information, faults and stuck states.

use grail::{Action, EngineError, Game, State, Viewer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod common;
use common::small;

fn tamoul() -> Game {
    Game::load("rules/tamoul.rules").expect("tamoul compiles")
}

/// Play random moves; return the actions taken.
fn playout(game: &Game, s: &mut State, rng_seed: u64, limit: usize, check: bool) -> Vec<Action> {
    let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
    let mut taken = Vec::new();
    let mut acts = Vec::new();
    while !s.is_over() && taken.len() < limit {
        s.legal_actions_into(game, &mut acts);
        assert!(!acts.is_empty(), "stuck at decision {}", taken.len());
        let a = acts[rng.random_range(0..acts.len())];
        s.apply(game, a).expect("legal action applies");
        if check {
            s.check_conservation(game)
                .expect("all cards in exactly one place");
        }
        taken.push(a);
    }
    taken
}

#[test]
fn same_seed_and_actions_give_the_same_game() {
    let game = tamoul();
    let opts = game.default_options();
    let mut a = State::new(&game, 4, 11, &opts).unwrap();
    let actions = playout(&game, &mut a, 5, 400, false);
    let mut b = State::new(&game, 4, 11, &opts).unwrap();
    for act in &actions {
        b.apply(&game, *act).unwrap();
    }
    assert_eq!(a.view(&game, Viewer::All), b.view(&game, Viewer::All));
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

#[test]
fn all_52_cards_are_conserved_at_every_step() {
    let game = tamoul();
    assert_eq!(game.card_count(), 52);
    for players in 2..=6 {
        for seed in 0..20 {
            let mut s = State::new(&game, players, seed, &game.default_options()).unwrap();
            s.check_conservation(&game).unwrap();
            playout(&game, &mut s, seed + 100, 5_000, true);
            assert!(s.is_over(), "{players} players seed {seed} did not finish");
            assert!(!s.winners(&game).is_empty());
        }
    }
}

#[test]
fn a_player_sees_only_what_it_knows() {
    let game = tamoul();
    let s = State::new(&game, 3, 2, &game.default_options()).unwrap();
    let v0 = s.view(&game, Viewer::Seat(0));
    let own = v0
        .lines()
        .find(|l| l.trim_start().starts_with("P0.slots"))
        .unwrap();
    let other = v0
        .lines()
        .find(|l| l.trim_start().starts_with("P1.slots"))
        .unwrap();
    // P0 looked at its bottom two cards (slots 3 and 4) and nothing else.
    let own_cards: Vec<&str> = own.split(']').nth(1).unwrap().split_whitespace().collect();
    assert_eq!(own_cards.len(), 4);
    assert_eq!(&own_cards[..2], &["##", "##"]);
    assert!(own_cards[2..].iter().all(|c| *c != "##"), "{own}");
    assert!(
        other
            .split(']')
            .nth(1)
            .unwrap()
            .split_whitespace()
            .all(|c| c == "##"),
        "{other}"
    );
    // the designer sees everything
    assert!(!s.view(&game, Viewer::All).contains("##"));
}

#[test]
fn options_are_checked_by_name_and_range() {
    let game = tamoul();
    let mut opts = game.default_options();
    game.set_option(&mut opts, "threshold", "5").unwrap();
    assert_eq!(opts[game.option_index("threshold").unwrap()], 5);
    let e = game
        .set_option(&mut opts, "treshold", "5")
        .unwrap_err()
        .to_string();
    assert!(e.contains("did you mean `threshold`"), "{e}");
    let e = game
        .set_option(&mut opts, "penalty", "1000")
        .unwrap_err()
        .to_string();
    assert!(e.contains("0..200"), "{e}");
    let e = game
        .set_option(&mut opts, "penalty", "lots")
        .unwrap_err()
        .to_string();
    assert!(e.contains("whole number"), "{e}");
}

#[test]
fn illegal_actions_and_bad_setups_are_refused() {
    let game = tamoul();
    let opts = game.default_options();
    assert!(matches!(
        State::new(&game, 7, 1, &opts),
        Err(EngineError::Setup(_))
    ));
    assert!(matches!(
        State::new(&game, 4, 1, &[1]),
        Err(EngineError::Setup(_))
    ));
    let mut s = State::new(&game, 4, 1, &opts).unwrap();
    let bad = Action { arm: 40, value: 3 };
    assert!(matches!(s.apply(&game, bad), Err(EngineError::Illegal(_))));
}

#[test]
fn a_rules_fault_is_an_error_not_a_panic() {
    let game = small("move all pile to seat(0).hand\n  move top(pile) to seat(1).hand");
    match State::new(&game, 2, 1, &[]) {
        Err(EngineError::Fault { fault, line, .. }) => {
            let message = fault.to_string();
            assert!(message.contains("none"), "{message}");
            assert_eq!(line, 10);
        }
        other => panic!("expected a fault, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn an_endless_loop_is_reported() {
    let game = small("loop { n += 1 }");
    assert!(matches!(
        State::new(&game, 2, 1, &[]),
        Err(EngineError::Runaway { .. })
    ));
}

#[test]
fn a_choice_with_nothing_to_choose_is_stuck() {
    let game = small(
        "move all pile to seat(0).hand\n  choose seat(1) { \"play {c}\" for c in seat(1).hand { } }",
    );
    let s = State::new(&game, 2, 1, &[]).unwrap();
    assert!(!s.is_over());
    assert!(s.legal_actions(&game).is_empty());
    assert!(s.view(&game, Viewer::All).contains("stuck"));
}

#[test]
fn labels_name_only_known_cards() {
    let game = small(
        "deal 1 from pile to seat(0).hand\n  choose seat(1) { \"take {c}\" for c in seat(0).hand { } \"pass\" { } }",
    );
    let s = State::new(&game, 2, 1, &[]).unwrap();
    let labels: Vec<String> = s
        .legal_actions(&game)
        .iter()
        .map(|a| s.label(&game, *a))
        .collect();
    assert_eq!(labels, ["take ##", "pass"]);
}
