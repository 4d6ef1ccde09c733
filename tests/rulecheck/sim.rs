//! rulecheck's simulation half (a module of `tests/rulecheck.rs`): every
//! broken variant under `tests/rulecheck/variants/` is caught with its
//! finding name and a seed, and its reproduction really replays the game
//! to the step in question (through the library and through `grail play`);
//! a sharded run merges into exactly the report of one run; variants and
//! `--vary` make columns; the four games have no simulation errors; bad
//! arguments get one line.

use super::{is_json, root, rulecheck};
use grail::rulecheck::{Config, Evidence, FileReport, Origin, Plan, Report, Variant, prepare};
use grail::sim::game_seed;
use grail::{Game, State};
use std::collections::BTreeSet;
use std::process::Command;

const VARIANTS: &str = "tests/rulecheck/variants";
/// Reproductions too long to print inline go here (relative to the repository).
const REPRO_DIR: &str = "target/rulecheck-test-repro";

fn plan(games: u64) -> Plan {
    Plan {
        games,
        max_decisions: 200,
        ..Plan::default()
    }
}

fn config() -> Config {
    Config {
        repro_dir: Some(REPRO_DIR.into()),
        ..Config::default()
    }
}

fn simulate(paths: &[&str], plan: &Plan, config: &Config) -> Report {
    let run = prepare(paths, config, plan).expect("a playable plan");
    let stats = run.simulate(None, &|| {});
    run.finish(stats)
}

fn with_variant(variant: &str) -> Plan {
    let path = format!("{VARIANTS}/{variant}");
    Plan {
        variants: vec![Variant::load(&path).expect("variant file")],
        ..plan(20)
    }
}

/// Each case: the rules file (and variant), and the findings it must give.
fn cases() -> Vec<(&'static str, Plan, &'static [&'static str])> {
    vec![
        ("race.rules", plan(20), &[]),
        (
            "race.rules",
            with_variant("no_refill.variant"),
            &["softlock"],
        ),
        ("never_ends.rules", plan(20), &["does-not-end"]),
        ("round_in_circles.rules", plan(20), &["does-not-end"]),
        (
            "lost_chip.rules",
            plan(20),
            &["invariant-broken", "zone-never-left"],
        ),
        ("empty_pile.rules", plan(20), &["rule-fault"]),
        (
            "never_fires.rules",
            plan(20),
            &["constant-condition", "never-fired"],
        ),
        ("unreachable_phase.rules", plan(20), &["unreachable-phase"]),
        ("wrong_deck_size.rules", plan(20), &["E0105"]),
        ("first_by_lot.rules", plan(1000), &["first-mover-advantage"]),
    ]
}

fn codes(r: &FileReport) -> BTreeSet<&str> {
    r.findings.iter().map(|f| f.diag.code.as_str()).collect()
}

#[test]
fn every_broken_variant_is_caught_with_a_seed() {
    let mut covered = BTreeSet::new();
    for (file, plan, want) in cases() {
        let path = format!("{VARIANTS}/{file}");
        let report = simulate(&[&path], &plan, &config());
        let r = &report.files[0];
        let want: BTreeSet<&str> = want.iter().copied().collect();
        assert_eq!(codes(r), want, "{path}:\n{}", report.render_plain());
        covered.extend(want.iter().map(|s| s.to_string()));
        for f in &r.findings {
            if f.origin == Origin::Simulation && f.diag.is_error() {
                let e = f.evidence.as_ref().expect("an error names its game");
                assert_eq!(e.seed, game_seed(plan.seed, e.game), "{path}");
                assert!(
                    e.repro.contains(&format!("--seed {}", e.seed)),
                    "{}",
                    e.repro
                );
            }
        }
    }
    for lint in grail::rulecheck::REGISTRY {
        // the other balance findings are caught in variants of the real
        // games (tests/rulecheck/games, games.rs)
        let elsewhere = ["card-lost", "seat-imbalance", "all-ties", "no-lead-changes"];
        if matches!(lint.pass, grail::rulecheck::Pass::Simulation)
            && !elsewhere.contains(&lint.name)
        {
            assert!(
                covered.contains(lint.name),
                "no variant shows `{}`",
                lint.name
            );
        }
    }
}

#[test]
fn variant_snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for (file, plan, _) in cases() {
            let path = format!("{VARIANTS}/{file}");
            let report = simulate(&[&path], &plan, &config());
            let name = match plan.variants.first() {
                Some(v) => format!("variant@{file}+{}", v.name()),
                None => format!("variant@{file}"),
            };
            insta::assert_snapshot!(name, report.render_plain());
        }
    });
}

/// Replay the evidence's moves with the library and check the step.
fn replay_in_library(path: &str, e: &Evidence, code: &str, plan: &Plan, options: &[i32]) {
    let game = Game::load(path).expect("compiles");
    let mut state = State::new(&game, e.players, e.seed, options).expect("starts");
    let n = e.moves.len();
    for (i, m) in e.moves.iter().enumerate() {
        // the REPL's numbers: identical moves are listed once
        let legal = state.distinct_actions(&game);
        let action = legal[*m as usize - 1];
        let result = state.apply(&game, action);
        if i + 1 == n && e.failing_move {
            assert!(result.is_err(), "{path}: the last move should fail");
            return;
        }
        result.expect("an earlier move works");
    }
    match code {
        "softlock" => assert!(!state.is_over() && state.legal_actions(&game).is_empty()),
        "invariant-broken" => assert!(state.broken_invariant(&game).is_some()),
        "does-not-end" => {
            assert!(!state.is_over());
            assert_eq!(n, plan.max_decisions as usize);
        }
        other => panic!("no check for {other}"),
    }
}

#[test]
fn reproductions_replay_the_game_to_the_step() {
    let grail = env!("CARGO_BIN_EXE_grail");
    for (file, plan, _) in cases() {
        let path = format!("{VARIANTS}/{file}");
        let report = simulate(&[&path], &plan, &config());
        let r = &report.files[0];
        for f in &r.findings {
            let Some(e) = &f.evidence else { continue };
            let sim = r.sim.as_ref().expect("simulated");
            let column = sim
                .columns
                .iter()
                .find(|c| c.label == e.column)
                .expect("its column");
            replay_in_library(&path, e, &f.diag.code, &plan, &column.options);
            // The command itself, with this build's grail.
            let cmd = e.repro.replace("grail play ", &format!("{grail} play "));
            let out = Command::new("sh")
                .arg("-c")
                .arg(&cmd)
                .current_dir(root())
                .output()
                .expect("sh runs");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{cmd}\n{text}");
            let expect = match f.diag.code.as_str() {
                "softlock" => "stuck: P",
                "rule-fault" => "error: rules fault",
                _ => " - view of everything",
            };
            assert!(text.contains(expect), "{cmd}:\n{text}");
            if e.moves.len() > grail::rulecheck::INLINE_MOVES {
                // a long one is a saved game that `load` opens at the step,
                // named with the options set
                let file = e.script.as_deref().expect("a long one is written");
                assert!(
                    file.ends_with(".ron") && e.repro.starts_with("printf 'load %s\\n"),
                    "{}",
                    e.repro
                );
                let game = Game::load(&path).expect("compiles");
                for set in &column.set_args(&game) {
                    assert!(file.contains(set.as_str()), "{file} names {set}");
                }
                let text = std::fs::read_to_string(root().join(file)).expect("written");
                let saved = grail::repl::saved::SavedGame::parse(&text).expect("a saved game");
                let made = e.moves.len() - usize::from(e.failing_move);
                assert_eq!(saved.steps.len(), made, "{file}");
                assert_eq!(saved.seed, e.seed);
            }
        }
    }
}

fn strip_elapsed(json: &str) -> String {
    match json.find(",\"elapsed_ms\":") {
        Some(i) => {
            let rest = &json[i + 1..];
            let end = rest.find(',').unwrap_or(rest.len());
            format!("{}{}", &json[..i], &rest[end..])
        }
        None => json.to_string(),
    }
}

#[test]
fn shards_merge_into_the_same_report() {
    let dir = root().join("target/rulecheck-test-shards");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let base = [
        "tests/rulecheck/variants/race.rules",
        "tests/rulecheck/variants/never_fires.rules",
        "tests/rulecheck/variants/empty_pile.rules",
        // shards do not explore: neither does the run they are compared with
        "--explore",
        "0",
        "--vary",
        "target=8,12",
        "--games",
        "25",
        "--seed",
        "7",
        "--players",
        "2,3",
        "--repro-dir",
        REPRO_DIR,
        "--json",
    ];
    let (code, full, err) = rulecheck(&base);
    assert_eq!(code, 1, "empty_pile faults: {err}");
    assert!(full.contains("\"code\":\"never-fired\""), "{full}");
    assert!(is_json(&full), "{full}");
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = dir.join(format!("part{k}.ron"));
        let shard = format!("{k}/3");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard, "--out", part.to_str().expect("utf-8")]);
        let (code, out, err) = rulecheck(&args);
        assert_eq!(code, 0, "{out}{err}");
        parts.push(part.to_string_lossy().into_owned());
    }
    // any order
    let order = [&parts[2], &parts[0], &parts[1]];
    let mut args = vec!["merge", "--json", "--repro-dir", REPRO_DIR];
    args.extend(order.iter().map(|s| s.as_str()));
    let (code, merged, err) = rulecheck(&args);
    assert_eq!(code, 1, "{err}");
    assert_eq!(strip_elapsed(&merged), strip_elapsed(&full));
    // the text report too, but for the time on its last line
    let text_of = |args: &[&str]| {
        let args: Vec<&str> = args.iter().copied().filter(|a| *a != "--json").collect();
        let out = rulecheck(&args).1;
        out.lines()
            .filter(|l| !l.starts_with("verdict:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(text_of(&args), text_of(&base));
    // a missing or repeated shard is refused in one line
    let (code, out, err) = rulecheck(&["merge", &parts[0], &parts[2]]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(err.trim(), "rulecheck: error: shard 2/3 is missing");
    let (code, _, err) = rulecheck(&["merge", &parts[0], &parts[1], &parts[1], &parts[2]]);
    assert_eq!(code, 2);
    assert!(err.contains("shard 2/3 is given twice"), "{err}");
    let (code, _, err) = rulecheck(&["merge", "tests/rulecheck/variants/race.rules"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a rulecheck part file"), "{err}");
}

#[test]
fn variants_and_values_are_columns_of_one_table() {
    let (code, out, err) = rulecheck(&[
        "tests/rulecheck/variants/race.rules",
        "--vary",
        "target=5,20",
        "--players",
        "2,3",
        "--games",
        "10",
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(is_json(&out), "{out}");
    let labels: Vec<&str> = out
        .match_indices("{\"label\":\"")
        .map(|(i, _)| {
            let rest = &out[i + 10..];
            &rest[..rest.find('"').unwrap_or(0)]
        })
        .collect();
    assert_eq!(
        labels,
        ["target=5 2p", "target=5 3p", "target=20 2p", "target=20 3p"]
    );
    let (_, text, _) = rulecheck(&[
        "tests/rulecheck/variants/race.rules",
        "--variant",
        "tests/rulecheck/variants/no_refill.variant",
        "--games",
        "10",
    ]);
    let header = text
        .lines()
        .find(|l| l.contains("base") && l.contains("no_refill"))
        .unwrap_or_else(|| panic!("one table with both columns:\n{text}"));
    assert!(header.find("base") < header.find("no_refill"), "{header}");
    for row in [
        "turns: mean",
        "win share P1 (95% CI)",
        "first seat advantage",
        "lead changes",
    ] {
        assert!(text.contains(row), "no `{row}` row:\n{text}");
    }
}

/// The games, with few games per column (a debug build is slow). Camelot
/// 101 is left out: it is slow, and the engine panics evaluating one of its
/// invariants (`State::broken_invariant` has 16 locals; its functions bind
/// more), which rulecheck reports as an engine failure with a seed.
const GAMES: [&str; 3] = [
    "rules/tamoul.rules",
    "rules/kameloot.rules",
    "rules/camelot.rules",
];

#[test]
fn the_games_have_no_simulation_errors() {
    let plan = Plan {
        games: 40,
        ..Plan::default()
    };
    let report = simulate(&GAMES, &plan, &Config::default());
    for r in &report.files {
        assert!(r.sim.is_some(), "{}", r.render_plain());
        assert_eq!(r.errors(), 0, "{}", r.render_plain());
        for f in &r.findings {
            assert_eq!(f.diag.code, "never-fired", "{}", r.render_plain());
        }
    }
    assert!(is_json(&report.to_json(None)));
}

/// The card games at rulecheck's default run (1000 games a column) pass
/// with `--deny warnings`: their rare branches carry justified silences.
#[test]
fn the_card_games_pass_with_deny_warnings() {
    for game in [
        "rules/tamoul.rules",
        "rules/kameloot.rules",
        "rules/camelot.rules",
    ] {
        let (code, out, _) = rulecheck(&[game, "--deny", "warnings"]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("sound (0 errors, 0 warnings"), "{out}");
    }
}

/// Camelot 101 and its levels at the default run take about a minute each
/// on two cores: `cargo test --release --test rulecheck -- --ignored`.
#[test]
#[ignore]
fn camelot101_and_its_levels_pass_with_deny_warnings() {
    let mut files = vec!["rules/camelot101.rules".to_string()];
    let mut levels: Vec<String> = std::fs::read_dir(root().join("rules/camelot101"))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| format!("rules/camelot101/{}", e.file_name().to_string_lossy()))
                .collect()
        })
        .unwrap_or_default();
    levels.sort();
    files.extend(levels);
    for game in &files {
        let (code, out, _) = rulecheck(&[game, "--deny", "warnings"]);
        assert_eq!(code, 0, "{out}");
    }
}

#[test]
fn rules_variants_are_compared_with_their_base() {
    let (code, out, err) = rulecheck(&[
        "tests/rulecheck/variants/race.rules",
        "--variant",
        "tests/rulecheck/variants/long_race.rules",
        "--games",
        "30",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let header = out
        .lines()
        .find(|l| l.contains("base") && l.contains("long_race"))
        .unwrap_or_else(|| panic!("one table with both columns:\n{out}"));
    assert!(header.find("base") < header.find("long_race"), "{header}");
    assert!(out.contains("verdict: sound (2 files checked"), "{out}");
    assert!(out.contains("its columns are in the table of tests/rulecheck/variants/race.rules"));
    // the variant alone is a game like any other
    let (code, out, _) = rulecheck(&["tests/rulecheck/variants/long_race.rules", "--games", "10"]);
    assert_eq!(code, 0, "{out}");
    let (code, _, err) = rulecheck(&[
        "tests/rulecheck/variants/race.rules",
        "tests/rulecheck/variants/never_fires.rules",
        "--variant",
        "tests/rulecheck/variants/long_race.rules",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("compared with one FILE"), "{err}");
}

#[test]
fn bad_simulation_arguments_give_one_line() {
    let race = "tests/rulecheck/variants/race.rules";
    for (args, says) in [
        (vec![race, "--vary", "target"], "--vary takes OPTION=V1,V2"),
        (vec![race, "--vary", "targte=5,6"], "did you mean"),
        (vec![race, "--vary", "target=5,1000"], "1000"),
        (vec![race, "--players", "9"], "2 to 4 players, not 9"),
        (vec![race, "--set", "refill=2"], "refill"),
        (vec![race, "--shard", "3/2"], "--shard takes K/N"),
        (
            vec![race, "--variant", "no/such.variant"],
            "cannot read variant",
        ),
        (
            vec![race, "--variant", "Cargo.toml"],
            "expected `OPTION=VALUE`",
        ),
        (vec![race, "--jobs", "0"], "--jobs"),
        (vec!["merge"], "required"),
    ] {
        let (code, out, err) = rulecheck(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("rulecheck: error: ") && err.contains(says),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn part_files_round_trip() {
    let path = format!("{VARIANTS}/race.rules");
    let plan = Plan {
        shard: Some(grail::rulecheck::Shard { k: 1, n: 2 }),
        ..plan(6)
    };
    let run = prepare(&[&path], &Config::default(), &plan).expect("plan");
    let stats = run.simulate(Some(1), &|| {});
    let part = run.part(&stats);
    let back = grail::rulecheck::Part::from_ron("p", &part.to_ron()).expect("reads back");
    assert_eq!(back, part);
    assert_eq!(part.files[0].stats[0].games, 3);
    // the same slice on more threads counts the same
    let again = run.simulate(Some(2), &|| {});
    assert_eq!(again, stats);
}

#[test]
fn never_fired_is_silenced_like_any_lint() {
    let text = std::fs::read_to_string(root().join(VARIANTS).join("never_fires.rules"))
        .expect("never_fires.rules");
    let silenced = text.replace(
        "      if c.value == 4 {",
        "      # rulecheck: allow(constant-condition, never-fired) the jackpot is for a later edition of the chips\n      \
         if c.value == 4 {",
    );
    assert_ne!(silenced, text);
    let dir = root().join("target/rulecheck-test-shards");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("never_fires_allowed.rules");
    std::fs::write(&path, silenced).expect("written");
    let deny = Config {
        deny_warnings: true,
        ..Config::default()
    };
    let path = path.to_string_lossy().into_owned();
    let report = simulate(&[&path], &plan(20), &deny);
    let r = &report.files[0];
    assert!(r.findings.is_empty(), "{}", report.render_plain());
    assert_eq!((r.silenced, report.exit_code()), (2, 0));
    // and without the silence, --deny warnings makes it an error
    let report = simulate(
        &[&format!("{VARIANTS}/never_fires.rules")],
        &plan(20),
        &deny,
    );
    assert_eq!(report.exit_code(), 1);
}

/// A base checked beside its variants is often also a FILE of the run:
/// its games are played once and shared, and every copy holds exactly the
/// counts of playing them again (the base's own report, and each variant
/// checked alone, which plays its base afresh).
#[test]
fn a_base_shared_by_several_files_has_the_counts_of_its_own_games() {
    let (base, a, b) = (
        "rules/tamoul.rules",
        "tests/rulecheck/games/tamoul_seat_order.rules",
        "tests/rulecheck/games/tamoul_value_14.rules",
    );
    let plan = plan(40);
    let stats = |r: &Report, i: usize| r.files[i].sim.as_ref().map(|s| s.stats.clone());
    let based = |r: &Report, i: usize| {
        let sim = r.files[i].sim.as_ref();
        sim.and_then(|s| s.base.as_ref()).map(|s| s.stats.clone())
    };
    let all = simulate(&[base, a, b], &plan, &config());
    let own = stats(&all, 0).expect("the base is simulated");
    assert_eq!(own.first().map(|s| s.games), Some(40));
    assert_eq!(based(&all, 1).as_ref(), Some(&own));
    assert_eq!(based(&all, 2).as_ref(), Some(&own));
    for (i, v) in [(1, a), (2, b)] {
        let alone = simulate(&[v], &plan, &config());
        assert_eq!(based(&alone, 0).as_ref(), Some(&own), "{v}");
        assert_eq!(stats(&alone, 0), stats(&all, i), "{v}");
    }
}
