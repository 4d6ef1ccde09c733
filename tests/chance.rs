//! Explicit-chance mode (docs/embedding.md, "Explicit chance") on every
//! shipped rules file: games play to the end through chance nodes whose
//! probabilities sum to one, a shuffle is one card at a time, the same
//! outcomes replay the same game, a state at a chance node round-trips
//! through JSON, and a bad outcome is refused.

use grail::engine::ChanceNode;
use grail::{Game, State, Status};

/// Every rules file shipped in `rules/` (variants too) and `examples/`.
fn shipped_rules() -> Vec<String> {
    let out: Vec<String> = ["examples", "rules"]
        .iter()
        .flat_map(|d| grail::load::rules_files(std::path::Path::new(d)).expect("a rules folder"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    assert!(out.len() > 5, "{out:?}");
    out
}

/// Play with outcomes and actions picked by a counter; returns the
/// number of chance nodes met.
fn play(game: &Game, state: &mut State, seed: u64, limit: usize) -> usize {
    let mut k = seed as usize;
    let mut chance = 0;
    for _ in 0..limit {
        k = k
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        match state.status(game) {
            Status::Chance => {
                chance += 1;
                let outcomes = state.chance_outcomes();
                let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-9, "{total}");
                let (v, _) = outcomes[(k >> 33) % outcomes.len()];
                state.apply_chance(game, v).expect("an outcome");
            }
            Status::Decide(_) => {
                let legal = state.legal_actions(game);
                let a = legal[(k >> 33) % legal.len()];
                state.apply(game, a).expect("legal");
            }
            Status::Over | Status::Stuck => break,
        }
    }
    chance
}

#[test]
fn every_rules_file_plays_through_chance_nodes() {
    for path in shipped_rules() {
        let game = Game::load(&path).unwrap_or_else(|d| panic!("{}", d.render_plain()));
        let players = game.players().0;
        let opts = game.default_options();
        let mut a = State::new_explicit_chance(&game, players, 3, &opts).expect("starts");
        let mut b = State::new_explicit_chance(&game, players, 3, &opts).expect("starts");
        play(&game, &mut a, 9, 400);
        play(&game, &mut b, 9, 400);
        assert_eq!(a.to_json(), b.to_json(), "{path}: the same outcomes replay");
        let back = State::from_json(&game, &a.to_json()).expect("reads back");
        assert_eq!(back.status(&game), a.status(&game), "{path}");
        assert_eq!(back.chance_outcomes(), a.chance_outcomes(), "{path}");
    }
}

#[test]
fn a_shuffle_is_one_card_at_a_time_and_bad_outcomes_are_refused() {
    let game = Game::load("rules/tamoul.rules").expect("compiles");
    let opts = game.default_options();
    let mut s = State::new_explicit_chance(&game, 2, 1, &opts).expect("starts");
    let mut sizes = Vec::new();
    while let Some(node) = s.chance_node().cloned() {
        let value = match node {
            ChanceNode::Card { cards, .. } => {
                sizes.push(cards.len());
                i32::from(cards[0])
            }
            ChanceNode::Number { lo, .. } => lo,
        };
        s.apply_chance(&game, value).expect("an outcome");
    }
    let shuffle: Vec<usize> = sizes.iter().copied().skip_while(|n| *n != 52).collect();
    assert_eq!(shuffle, (2..=52).rev().collect::<Vec<_>>(), "{sizes:?}");
    assert!(matches!(s.status(&game), Status::Decide(_)));
    assert!(s.apply_chance(&game, 0).is_err(), "no draw is pending");
    // the journal does not record chance bookkeeping: undo and make refuse
    let a = s.legal_actions(&game)[0];
    let mut u = s.clone();
    let err = u.make(&game, a).expect_err("make refuses in chance mode");
    assert!(err.to_string().contains("explicit-chance"), "{err}");
    let err = u.undo(&game).expect_err("undo refuses in chance mode");
    assert!(err.to_string().contains("explicit-chance"), "{err}");
    let mut t = State::new_explicit_chance(&game, 2, 1, &opts).expect("starts");
    assert!(
        t.apply_chance(&game, 999).is_err(),
        "not a card of the draw"
    );
    let normal = State::new(&game, 2, 1, &opts).expect("starts");
    assert_eq!(normal.chance_node(), None);
    assert!(matches!(normal.status(&game), Status::Decide(_)));
}

#[test]
fn the_observation_tensor_has_the_documented_length_and_is_honest() {
    use grail::engine::TensorShape;
    use rand::SeedableRng;
    for path in shipped_rules() {
        let game = Game::load(&path).unwrap_or_else(|d| panic!("{}", d.render_plain()));
        let players = game.players().0;
        let mut s = State::new(&game, players, 5, &game.default_options()).expect("starts");
        let len = TensorShape::new(&game, players).len();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for step in 0..40 {
            let Status::Decide(_) = s.status(&game) else {
                break;
            };
            for seat in 0..players {
                let t = s.observation_tensor(&game, seat);
                assert_eq!(t.len(), len, "{path}");
                let d = s.determinize(&game, seat, &mut rng);
                assert_eq!(d.observation_tensor(&game, seat), t, "{path}: seat {seat}");
            }
            let legal = s.legal_actions(&game);
            s.apply(&game, legal[step % legal.len()]).expect("legal");
        }
    }
}
