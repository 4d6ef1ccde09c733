//! Tests of [`State::restart`]: a state restarted in its own buffers
//! plays exactly the game a fresh state plays, for every shipped rules
//! file, and a restart with the same game allocates nothing new.

use super::{Action, Game, State};

use super::test_files::shipped_rules_files as rules_files;

/// A small deterministic choice among `n`.
fn pick(k: &mut u64, n: usize) -> usize {
    *k = k
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*k >> 33) as usize % n
}

/// Play `fresh` and `reused` side by side with the same choices, checking
/// after every action that they are the same in every field.
fn play_both(game: &Game, fresh: &mut State, reused: &mut State, mut k: u64, what: &str) {
    let mut buf: Vec<Action> = Vec::new();
    assert!(reused.same_as(fresh), "{what}: differs at the start");
    for step in 0..400 {
        if fresh.is_over() {
            break;
        }
        fresh.legal_actions_into(game, &mut buf);
        if buf.is_empty() {
            break;
        }
        let a = buf[pick(&mut k, buf.len())];
        fresh.apply_unchecked(game, a).expect("no fault");
        reused.apply_unchecked(game, a).expect("no fault");
        assert!(
            reused.same_as(fresh),
            "{what}: differs after {step} actions"
        );
    }
}

#[test]
fn a_restarted_state_plays_the_fresh_game() {
    let files = rules_files();
    assert!(files.len() >= 13, "the shipped rules files: {files:?}");
    for path in files {
        let game = Game::load(&path).unwrap_or_else(|d| panic!("{}", d.render_plain()));
        let opts = game.default_options();
        let (lo, hi) = game.players();
        // one state reused for every seed and player count, mid-game each time
        let mut reused = State::new(&game, lo, 99, &opts).expect("setup");
        for players in [lo, hi] {
            for seed in 1..=5u64 {
                let mut fresh = State::new(&game, players, seed, &opts).expect("setup");
                reused
                    .restart(&game, players, seed, &opts)
                    .expect("restart");
                let what = format!("{path}, {players} players, seed {seed}");
                play_both(&game, &mut fresh, &mut reused, seed, &what);
            }
        }
    }
}

#[test]
fn a_restart_refuses_a_wrong_setup() {
    // the first shipped game with options that two can play
    let (game, opts, mut s) = rules_files()
        .iter()
        .find_map(|path| {
            let game = Game::load(path).ok()?;
            let opts = game.default_options();
            let s = State::new(&game, 2, 1, &opts).ok()?;
            (!opts.is_empty()).then_some((game, opts, s))
        })
        .expect("a two-player game with options");
    assert!(s.restart(&game, 99, 1, &opts).is_err());
    assert!(s.restart(&game, 2, 1, &[]).is_err());
    // and a good restart afterwards plays again
    s.restart(&game, 2, 1, &opts).expect("restart");
    let fresh = State::new(&game, 2, 1, &opts).expect("setup");
    assert!(s.same_as(&fresh));
}
