//! Property tests over every shipped game (rules files, their variants and
//! the examples): any sequence of legal actions conserves the cards and keeps
//! the invariants; a state with no legal action is over; a state survives a
//! save (serde, RON) unchanged; the same seed and actions give the same game;
//! rulecheck's shards, for any number of them, any seed and any order of
//! the parts, merge into the report of one run. (Undo after apply is `tests/undo.rs`.) PROPTEST_CASES raises the number of cases.

use grail::rulecheck::{Config, Part, Plan, Shard, merge, prepare};
use grail::{Game, State};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

fn games() -> &'static Vec<(String, Game)> {
    static GAMES: OnceLock<Vec<(String, Game)>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        ["examples", "rules"]
            .iter()
            .flat_map(|d| grail::load::rules_files(&root.join(d)).expect("a rules directory"))
            .map(|p| {
                let g = Game::load(&p).unwrap_or_else(|d| panic!("{}", d.render_plain()));
                (p.display().to_string(), g)
            })
            .collect()
    })
}

fn ron_of(s: &State) -> String {
    ron::to_string(s).expect("a state serializes")
}

/// Play `choices` (each taken modulo the legal actions) and check every step.
fn play(
    game: &Game,
    name: &str,
    players: usize,
    seed: u64,
    choices: &[u16],
) -> Result<State, TestCaseError> {
    let opts = game.default_options();
    let mut s = State::new(game, players, seed, &opts)
        .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
    for &c in choices {
        if s.is_over() {
            break;
        }
        let acts = s.legal_actions(game);
        prop_assert!(
            !acts.is_empty(),
            "{name}: not over, yet no legal action (stuck)"
        );
        let a = acts[c as usize % acts.len()];
        s.apply(game, a)
            .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        s.check_conservation(game)
            .map_err(|e| TestCaseError::fail(format!("{name}: cards not conserved: {e}")))?;
        prop_assert!(
            s.broken_invariant(game).is_none(),
            "{name}: invariant broken: {:?}",
            s.broken_invariant(game)
        );
    }
    Ok(s)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn legal_play_conserves_and_replays(
        which in any::<usize>(),
        extra in any::<usize>(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 0..80),
    ) {
        let all = games();
        let (name, game) = &all[which % all.len()];
        let (lo, hi) = game.players();
        let players = lo + extra % (hi - lo + 1);
        let s = play(game, name, players, seed, &choices)?;
        // Save and load give back the same state.
        let text = ron_of(&s);
        let back: State = ron::from_str(&text).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        prop_assert_eq!(&text, &ron_of(&back), "{}: the state changed through a save", name);
        // The same seed and actions give the same game.
        let again = play(game, name, players, seed, &choices)?;
        prop_assert_eq!(text, ron_of(&again), "{}: the same seed and actions gave another state", name);
    }
}

/// The JSON report of `plan` over `path`, as one run or merged from `n`
/// shards given to `merge` rotated by `turn`.
fn sharded_report(path: &str, plan: &Plan, n: u64, turn: usize) -> Result<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let paths = [root.join(path)];
    let config = Config::default();
    if n == 0 {
        let run = prepare(&paths, &config, plan)?;
        let stats = run.simulate(Some(1), &|| {});
        return Ok(run.finish(stats).to_json(None));
    }
    let mut parts = Vec::new();
    for k in 1..=n {
        let shard = Plan {
            shard: Some(Shard { k, n }),
            ..plan.clone()
        };
        let run = prepare(&paths, &config, &shard)?;
        let stats = run.simulate(Some(1), &|| {});
        // Through the file format, as `rulecheck merge` reads it.
        let text = run.part(&stats).to_ron();
        parts.push((
            format!("part{k}"),
            Part::from_ron(&format!("part{k}"), &text)?,
        ));
    }
    parts.rotate_left(turn % n as usize);
    Ok(merge(&parts, &config)?.to_json(None))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(12),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn shards_merge_into_one_run_for_any_split(
        which in any::<usize>(),
        games in 0u64..24,
        n in 1u64..9,
        seed in any::<u64>(),
        turn in any::<usize>(),
    ) {
        let all = self::games();
        let path = &all[which % all.len()].0;
        let plan = Plan { games, seed, max_decisions: 400, ..Plan::default() };
        let one = sharded_report(path, &plan, 0, 0).map_err(TestCaseError::fail)?;
        let merged = sharded_report(path, &plan, n, turn).map_err(TestCaseError::fail)?;
        prop_assert_eq!(merged, one, "{}: {} games in {} shards", path, games, n);
    }
}

/// Every shipped game at least once, whatever the random cases pick: 7
/// games in 3 shards, the parts merged in a rotated order.
#[test]
fn every_game_merges_into_one_run() {
    for (path, _) in games() {
        let plan = Plan {
            games: 7,
            seed: 11,
            max_decisions: 400,
            ..Plan::default()
        };
        let one = sharded_report(path, &plan, 0, 0).unwrap_or_else(|e| panic!("{path}: {e}"));
        let merged = sharded_report(path, &plan, 3, 1).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(merged, one, "{path}: 7 games in 3 shards");
    }
}
