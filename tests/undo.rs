//! Make/unmake gives back exactly the state before, in every shipped game:
//! at random positions of seeded random games, one action made and unmade,
//! and a run of several actions made and unmade last first, leave a state
//! equal in every field (`State::same_as`) to a copy taken before. Making
//! is applying: the state after `make` equals a copy after `apply`. And
//! `undo` from the journal equals `undo` by replay. A look-ahead's move
//! that does not list the decision it stops at runs the same nodes and,
//! once listed, offers the same actions as a move applied.

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

/// The nodes a move runs, a node seen twice in a row counted once (a
/// decision listed later is seen again).
fn runs(s: &mut State, game: &Game, a: grail::Action, unlisted: bool) -> (bool, Vec<(u16, u32)>) {
    let mut seen = Vec::new();
    let mut look = |_: &State, p: u16, n: u32| {
        if seen.last() != Some(&(p, n)) {
            seen.push((p, n));
        }
    };
    let ok = if unlisted {
        s.apply_looking_unlisted(game, a, &mut look).is_ok()
    } else {
        s.apply_looking(game, a, &mut look).is_ok()
    };
    (ok, seen)
}

#[test]
fn a_move_unlisted_runs_the_same_nodes_and_lists_the_same_actions() {
    for (name, game) in games() {
        for seed in 1..=2u64 {
            let Ok(mut s) = State::new(game, game.players().0, seed, &game.default_options())
            else {
                continue;
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for ply in 0..40 {
                let legal = s.legal_actions(game);
                for &a in legal.iter().take(6) {
                    let (mut full, mut lazy) = (s.clone(), s.clone());
                    let (ok, ran) = runs(&mut full, game, a, false);
                    let (lazy_ok, lazy_ran) = runs(&mut lazy, game, a, true);
                    assert_eq!(ran, lazy_ran, "{name} seed {seed} ply {ply}: nodes run");
                    if !ok {
                        continue;
                    }
                    assert!(lazy_ok, "{name} seed {seed} ply {ply}: unlisted failed");
                    let at = (full.is_over(), full.chooser());
                    assert_eq!(at, (lazy.is_over(), lazy.chooser()), "{name} ply {ply}");
                    lazy.list_pending(game, &mut |_, _, _| {}).expect("listed");
                    assert_eq!(
                        full.legal_actions(game),
                        lazy.legal_actions(game),
                        "{name} seed {seed} ply {ply}: actions"
                    );
                }
                let Some(a) = pick(game, &s, &mut rng) else {
                    break;
                };
                if s.apply(game, a).is_err() {
                    break;
                }
            }
        }
    }
}
