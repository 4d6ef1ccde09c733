//! Make/unmake gives back exactly the state before, in every shipped game:
//! at random positions of seeded random games, one action made and unmade,
//! and a run of several actions made and unmade last first, leave a state
//! equal in every field (`State::same_as`) to a copy taken before. Making
//! is applying: the state after `make` equals a copy after `apply`. And
//! `undo` from the journal equals `undo` by replay.

use grail::{Game, State};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every shipped rules file (`examples/`, `rules/` and its levels).
fn games() -> &'static [(String, Game)] {
    static GAMES: std::sync::OnceLock<Vec<(String, Game)>> = std::sync::OnceLock::new();
    GAMES.get_or_init(|| {
        ["examples", "rules"]
            .iter()
            .flat_map(|d| {
                grail::load::rules_files(std::path::Path::new(d)).expect("a rules folder")
            })
            .map(|p| {
                let g = Game::load(&p)
                    .unwrap_or_else(|d| panic!("{}: {}", p.display(), d.render_plain()));
                (p.display().to_string(), g)
            })
            .collect()
    })
}

/// A random legal action, if the game goes on.
fn pick(game: &Game, s: &State, rng: &mut ChaCha8Rng) -> Option<grail::Action> {
    let a = s.legal_actions(game);
    (!a.is_empty()).then(|| a[rng.random_range(0..a.len())])
}

/// Walk one seeded game; at each of its first `plies` positions check
/// make/unmake of one action and of a run of `run` actions.
fn check_game(name: &str, game: &Game, seed: u64, plies: usize, run: usize) {
    let (lo, hi) = game.players();
    let players = lo + (seed as usize) % (hi - lo + 1);
    let Ok(mut s) = State::new(game, players, seed, &game.default_options()) else {
        return;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for ply in 0..plies {
        let Some(a) = pick(game, &s, &mut rng) else {
            break;
        };
        let before = s.clone();
        // one action: make is apply, unmake gives back the state before
        let mut applied = s.clone();
        let applied_ok = applied.apply(game, a).is_ok();
        match s.make(game, a) {
            Ok(mark) => {
                assert!(
                    applied_ok,
                    "{name} seed {seed} ply {ply}: make ok, apply not"
                );
                assert!(
                    s.same_as(&applied),
                    "{name} seed {seed} ply {ply}: make != apply"
                );
                s.unmake(mark);
            }
            Err(_) => assert!(!applied_ok, "{name} seed {seed} ply {ply}"),
        }
        assert!(
            s.same_as(&before),
            "{name} seed {seed} ply {ply}: one make/unmake"
        );
        // a run of actions, unmade last first
        let mut marks = Vec::new();
        for _ in 0..run {
            let Some(b) = pick(game, &s, &mut rng) else {
                break;
            };
            match s.make(game, b) {
                Ok(m) => marks.push(m),
                Err(_) => break,
            }
        }
        while let Some(m) = marks.pop() {
            s.unmake(m);
        }
        assert!(
            s.same_as(&before),
            "{name} seed {seed} ply {ply}: {run} made and unmade"
        );
        if s.apply(game, a).is_err() {
            break;
        }
    }
}

#[test]
fn make_then_unmake_restores_every_game() {
    for (name, game) in games() {
        for seed in 0..3 {
            check_game(name, game, seed, 60, 8);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn make_unmake_at_random_positions(file in 0..games().len(), seed in any::<u64>(), run in 1usize..40) {
        let (name, game) = &games()[file];
        check_game(name, game, seed, 25, run);
    }
}

#[test]
fn undo_from_the_journal_equals_undo_by_replay() {
    for (name, game) in games() {
        let mut kept = State::new(game, game.players().0, 5, &game.default_options()).unwrap();
        kept.keep_undo(true);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut states = vec![kept.clone()];
        for _ in 0..40 {
            let Some(a) = pick(game, &kept, &mut rng) else {
                break;
            };
            kept.apply(game, a).unwrap();
            states.push(kept.clone());
        }
        assert_eq!(kept.open_marks(), states.len() - 1, "{name}");
        states.pop();
        while let Some(want) = states.pop() {
            // the replay needs no journal: a copy has none
            let mut replayed = kept.clone();
            replayed.undo(game).unwrap();
            kept.undo(game).unwrap();
            assert!(kept.same_as(&want), "{name}: journal undo");
            assert!(replayed.table().same(want.table()), "{name}: replayed undo");
            assert_eq!(replayed.history(), want.history(), "{name}");
        }
        assert!(kept.undo(game).is_err(), "{name}: nothing left to undo");
    }
}

#[test]
fn a_hand_edit_forgets_the_marks() {
    let (_, game) = &games()[0];
    let mut s = State::new(game, 2, 1, &game.default_options()).unwrap();
    s.keep_undo(true);
    let a = s.legal_actions(game)[0];
    s.apply(game, a).unwrap();
    assert_eq!(s.open_marks(), 1);
    let _ = s.edit_table();
    assert_eq!(s.open_marks(), 0);
    assert!(
        s.undo(game).is_err(),
        "an edited position cannot be replayed"
    );
}
