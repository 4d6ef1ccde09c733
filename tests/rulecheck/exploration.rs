//! Guided exploration (a module of `tests/rulecheck.rs`): a fault that
//! random play meets in 1 game in 390,625 is found within the default
//! budget, with a reproduction that really fails at its last move; without
//! exploration the same file only shows code that never ran; a fault
//! behind a far square is found by the distance on squares; the search is
//! the same on one thread and on two; the card games pass `--deny
//! warnings` at five seeds without silences for rare branches.

use super::{root, rulecheck};
use grail::rulecheck::{Budget, Config, Plan, Report, prepare, with_jobs};
use grail::{Game, State};

const STREAK: &str = "tests/rulecheck/explore/lucky_streak.rules";

/// The codes of the first file's findings, in report order.
fn finding_codes(report: &Report) -> Vec<&str> {
    let findings = &report.files[0].findings;
    findings.iter().map(|f| f.diag.code.as_str()).collect()
}

fn run(path: &str, games: u64, budget: Budget, jobs: usize) -> Report {
    let plan = Plan {
        games,
        ..Plan::default()
    };
    let run = prepare(&[path], &Config::default(), &plan).expect("a playable plan");
    let stats = run.simulate(Some(jobs), &|| {});
    let explored = with_jobs(Some(jobs), || run.explore(&stats, budget));
    run.finish_explored(stats, explored)
}

#[test]
fn a_fault_behind_a_rare_line_of_play_is_found_within_the_default_budget() {
    let report = run(STREAK, 1000, Budget::default(), 2);
    let r = &report.files[0];
    let fault = r
        .findings
        .iter()
        .find(|f| f.diag.code == "rule-fault")
        .unwrap_or_else(|| panic!("a rule-fault:\n{}", r.render_plain()));
    assert!(
        fault.diag.message.contains("in 0 of 1000 random games")
            && fault.diag.message.contains("guided exploration met it"),
        "{}",
        fault.diag.message
    );
    assert_eq!(
        r.source.line_of(fault.diag.span().expect("a label").start),
        30
    );
    // the reproduction: eight "lucky" picks, the last of which fails
    let ev = fault.evidence.as_ref().expect("a reproduction");
    assert_eq!(ev.moves, vec![1; 8], "{}", ev.repro);
    assert!(ev.failing_move);
    let game = Game::load(root().join(STREAK)).expect("compiles");
    let mut s = State::new(&game, ev.players, ev.seed, &game.default_options()).expect("starts");
    for (i, m) in ev.moves.iter().enumerate() {
        let action = s.legal_actions(&game)[*m as usize - 1];
        let applied = s.apply(&game, action);
        assert_eq!(applied.is_err(), i + 1 == ev.moves.len(), "move {}", i + 1);
    }
    // the line reached only by exploration is a note, with its reproduction
    let sim = r.sim.as_ref().expect("simulated");
    assert!(
        sim.notes.iter().any(|n| n
            .starts_with("line 30 never ran in the 1000 games played at random")
            && n.contains("grail play")),
        "{:?}",
        sim.notes
    );
}

const DIAL: &str = "tests/rulecheck/explore/dial.rules";

/// A broken invariant behind one exact total (16 picks of 0..4 adding up
/// to 61: one game in about 187 million at random), found by steering on
/// the guard's distance within the default budget.
#[test]
fn a_defect_behind_an_exact_total_is_found_by_branch_distance() {
    let without = run(DIAL, 1000, Budget::Off, 2);
    let codes = finding_codes(&without);
    assert_eq!(
        codes,
        ["never-fired"],
        "{}",
        without.files[0].render_plain()
    );
    let report = run(DIAL, 1000, Budget::default(), 2);
    let r = &report.files[0];
    let broken = r
        .findings
        .iter()
        .find(|f| f.diag.code == "invariant-broken")
        .unwrap_or_else(|| panic!("an invariant-broken:\n{}", r.render_plain()));
    assert!(
        broken.diag.message.contains("in 0 of 1000 random games"),
        "{}",
        broken.diag.message
    );
    // the reproduction adds up to 61 in 16 turns, and breaks it there
    let ev = broken.evidence.as_ref().expect("a reproduction");
    assert_eq!(ev.moves.len(), 16, "{}", ev.repro);
    let total: u32 = ev.moves.iter().map(|m| m - 1).sum();
    assert_eq!(total, 61, "{}", ev.repro);
    let game = Game::load(root().join(DIAL)).expect("compiles");
    let mut s = State::new(&game, ev.players, ev.seed, &game.default_options()).expect("starts");
    let pile = game.probe("count(pile)", 2).expect("a probe");
    for m in &ev.moves {
        assert_eq!(s.eval_probe(&game, &pile), Ok(2));
        let action = s.legal_actions(&game)[*m as usize - 1];
        s.apply(&game, action).expect("a legal move");
    }
    assert_eq!(s.eval_probe(&game, &pile), Ok(1));
    // the guarded line is a note now, not a warning
    assert!(
        r.findings.iter().all(|f| f.diag.code != "never-fired"),
        "{}",
        r.render_plain()
    );
}

const FAR_SQUARE: &str = "tests/rulecheck/explore/far_square.rules";

/// A fault behind a far square (a king's walk of 17 steps from a1 that
/// must end on p16: about one game in 35 billion at random), found by
/// measuring the guard `here == cell(15, 15)` as how far apart the two
/// squares are on the board (before that measure it was an identity test,
/// 0 or far, and 2048 explored games did not find it at seeds 0 to 3).
#[test]
fn a_fault_behind_a_far_square_is_found_by_the_distance_on_squares() {
    let without = run(FAR_SQUARE, 1000, Budget::Off, 2);
    let codes = finding_codes(&without);
    assert_eq!(
        codes,
        ["never-fired"],
        "{}",
        without.files[0].render_plain()
    );
    let report = run(FAR_SQUARE, 1000, Budget::Games(512), 2);
    let r = &report.files[0];
    let fault = r
        .findings
        .iter()
        .find(|f| f.diag.code == "rule-fault")
        .unwrap_or_else(|| panic!("a rule-fault:\n{}", r.render_plain()));
    assert!(
        fault.diag.message.contains("in 0 of 1000 random games"),
        "{}",
        fault.diag.message
    );
    // the reproduction walks to p16 in 17 steps and faults on the last
    let ev = fault.evidence.as_ref().expect("a reproduction");
    assert_eq!(ev.moves.len(), 17, "{}", ev.repro);
    let game = Game::load(root().join(FAR_SQUARE)).expect("compiles");
    let mut s = State::new(&game, ev.players, ev.seed, &game.default_options()).expect("starts");
    let square = game
        .probe("x_of(zone_of(tok)) * 100 + y_of(zone_of(tok))", 2)
        .expect("a probe");
    for (i, m) in ev.moves.iter().enumerate() {
        let action = s.legal_actions(&game)[*m as usize - 1];
        let applied = s.apply(&game, action);
        assert_eq!(applied.is_err(), i + 1 == ev.moves.len(), "move {}", i + 1);
    }
    assert_eq!(s.eval_probe(&game, &square), Ok(1515), "{}", ev.repro);
}

/// Camelot 101's rare promotion, lone king and king taken whose lord is
/// already out (two king captures in one game) carry no silence:
/// exploration reaches them.
/// One cheap configuration here (2 players, 100 random games, 320 explored
/// games: a fixed number, so the run is deterministic); every level at five
/// seeds is the ignored test `camelot101_levels_pass_at_five_seeds`.
#[test]
fn camelot101_passes_without_silences_for_its_rare_branches() {
    let args = [
        "rules/camelot101.rules",
        "--deny",
        "warnings",
        "--seed",
        "1",
        "--players",
        "2",
        "--games",
        "100",
        "--explore",
        "320",
    ];
    let (code, out, err) = rulecheck(&args);
    assert_eq!(code, 0, "{out}{err}");
    for line in [557, 604, 621] {
        let note = format!(
            "note: line {line} never ran in the 100 games played at random; guided exploration reached it"
        );
        assert!(out.contains(&note), "{line}:\n{out}");
    }
}

/// `cargo test --release --test rulecheck -- --ignored camelot101_levels`:
/// Camelot 101 and every level, at five seeds, two players, 1000 explored
/// games (368 s of CPU for the 45 runs, 4 to 32 s each: most stop once
/// all is reached, level 1.1 at seed 2 takes 1,376 games; too slow for
/// CI). It passes since the twenty-eighth round of the exploration
/// (45 of 45; with 320 games, level 1.1 seed 2 still missed line 650). See
/// docs/rulecheck.md, "Guided exploration". The branches of
/// `tell` that levels 2, 3 and 3.1 switch off by their options are notes
/// now (`camelot101_levels_note_what_their_options_switch_off`).
#[test]
#[ignore]
fn camelot101_levels_pass_at_five_seeds() {
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
    for seed in 1..=5 {
        for game in &files {
            let seed = seed.to_string();
            let args = [
                game.as_str(),
                "--deny",
                "warnings",
                "--seed",
                &seed,
                "--players",
                "2",
                "--games",
                "100",
                "--explore",
                "1000",
            ];
            let (code, out, err) = rulecheck(&args);
            assert_eq!(code, 0, "{game} at seed {seed}:\n{out}{err}");
        }
    }
}

/// A line the search came near but did not reach says how near: level 1.3
/// with a budget too small for line 685 (a freed piece with no room at
/// home) reports how many home squares short its nearest game was.
#[test]
fn a_line_not_reached_says_how_near_the_search_came() {
    let args = [
        "rules/camelot101/level1.3.rules",
        "--seed",
        "1",
        "--players",
        "2",
        "--games",
        "100",
        "--explore",
        "64",
    ];
    let (_, out, err) = rulecheck(&args);
    let plain = out.split_whitespace().collect::<Vec<_>>().join(" ");
    let at = plain.find("camelot101.rules:685").expect("685 is missed");
    let help = &plain[at..];
    let help = &help[help.find("help:").expect("a help")..];
    assert!(
        help.contains("its nearest game came within ") && help.contains("of taking this branch"),
        "{out}{err}"
    );
}

/// Levels 2, 3 and 3.1 switch off branches of `tell` through a card's
/// attribute (`usable(c)` with `all_active = 0`), a phase's parameter and
/// the cards setup puts away (Pandora's boxes with `pandora = 0`): notes,
/// not never-fired warnings, whatever the games played.
#[test]
fn camelot101_levels_note_what_their_options_switch_off() {
    for (level, lines) in [
        ("level2", &[892, 894, 900][..]),
        ("level3", &[900][..]),
        ("level3.1", &[900][..]),
    ] {
        let file = format!("rules/camelot101/{level}.rules");
        let args = [&file, "--players", "2", "--games", "10", "--explore", "0"];
        let (_, out, err) = rulecheck(&args);
        for line in lines {
            let note = format!(
                "note: rules/camelot101/../camelot101.rules:{line} never ran: switched off by the options"
            );
            assert!(out.contains(&note), "{level} {line}:\n{out}{err}");
        }
    }
}

#[test]
fn without_exploration_the_rare_line_only_never_ran() {
    let report = run(STREAK, 1000, Budget::Off, 2);
    let codes = finding_codes(&report);
    assert_eq!(codes, ["never-fired"], "{}", report.files[0].render_plain());
}

#[test]
fn exploration_is_the_same_on_any_number_of_threads() {
    let explore = |jobs| {
        let plan = Plan {
            games: 50,
            ..Plan::default()
        };
        let run = prepare(&["rules/tamoul.rules"], &Config::default(), &plan).expect("plan");
        let stats = run.simulate(Some(jobs), &|| {});
        let x = with_jobs(Some(jobs), || run.explore(&stats, Budget::Games(300)));
        let x = x[0].as_ref().expect("explored");
        let finds: Vec<_> = x
            .finds
            .iter()
            .map(|f| (f.column, f.seed, f.picks.clone(), f.game))
            .collect();
        (x.games, x.corpus, x.nodes.clone(), x.arms.clone(), finds)
    };
    let one = explore(1);
    assert!(
        one.0 > 0 && one.1 > 0,
        "games and corpus: {} {}",
        one.0,
        one.1
    );
    assert_eq!(one, explore(2));
}

/// Every card game passes `--deny warnings` at five seeds, with its rare
/// branches reached by exploration instead of silenced. (Camelot 101 and
/// its levels take about a tenth of a second a game: too slow here; see
/// the ignored test in `sim.rs`.)
#[test]
fn the_card_games_pass_at_five_seeds() {
    for seed in 1..=5 {
        for game in [
            "rules/tamoul.rules",
            "rules/kameloot.rules",
            "rules/camelot.rules",
        ] {
            let seed = seed.to_string();
            let args = [
                game,
                "--deny",
                "warnings",
                "--seed",
                &seed,
                "--games",
                "200",
                "--explore",
                "2000",
            ];
            let (code, out, err) = rulecheck(&args);
            assert_eq!(code, 0, "{game} at seed {seed}:\n{out}{err}");
        }
    }
}
