//! Broken and valid variants of the four games (a module of
//! `tests/rulecheck.rs`), in `tests/rulecheck/games/`. Each file says what
//! rulecheck must find in it with `# expect: LINT LINE` lines (the line is
//! the variant file's own), or `# expect: nothing` for a valid variant,
//! which must then pass `--deny warnings`, its games played too (1000 a
//! column, the default, beside its base). A file with a `# simulate:
//! --games N --players N [--max-decisions N]` line is judged with its
//! games played (for the findings only a simulation gives); the others by
//! the static checks. Every report is an insta snapshot, and the whole set
//! runs in under two minutes.

use super::{root, rulecheck};
use grail::rulecheck::{Config, Parts, Plan, Report, Verdict, check_path, prepare};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/rulecheck/games"))
        .expect("tests/rulecheck/games")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    v.sort();
    v
}

/// The `# expect:` lines of a file: (lint, line), and whether it is valid.
fn expected(text: &str) -> (BTreeSet<(String, usize)>, bool) {
    let mut want = BTreeSet::new();
    let mut valid = false;
    for l in text.lines() {
        let Some(rest) = l.strip_prefix("# expect: ") else {
            continue;
        };
        if rest.trim() == "nothing" {
            valid = true;
            continue;
        }
        let (lint, line) = rest.split_once(' ').expect("`# expect: LINT LINE`");
        want.insert((
            lint.to_string(),
            line.trim().parse().expect("a line number"),
        ));
    }
    (want, valid)
}

/// The plan of a `# simulate:` line, if the file has one.
fn simulation(text: &str) -> Option<Plan> {
    let line = text.lines().find_map(|l| l.strip_prefix("# simulate: "))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut plan = Plan::default();
    for w in words.chunks(2) {
        let n: u64 = w[1].parse().expect("a number");
        match w[0] {
            "--games" => plan.games = n,
            "--players" => plan.players = Some(vec![n as usize]),
            "--max-decisions" => plan.max_decisions = n as u32,
            other => panic!("unknown `# simulate:` flag {other}"),
        }
    }
    Some(plan)
}

/// A relative path, so reports do not depend on the checkout.
fn relative(p: &std::path::Path) -> PathBuf {
    p.strip_prefix(root()).unwrap_or(p).to_path_buf()
}

#[test]
fn each_broken_variant_is_caught_at_its_line() {
    let clock = std::time::Instant::now();
    let mut broken = 0;
    let mut valid = 0;
    let mut simulated = 0;
    for path in files() {
        let rel = relative(&path);
        let text = std::fs::read_to_string(&path).expect("readable");
        let (want, is_valid) = expected(&text);
        assert!(
            is_valid || !want.is_empty(),
            "{}: no `# expect:` line",
            rel.display()
        );
        let config = Config {
            deny_warnings: is_valid,
            ..Config::default()
        };
        let r = match simulation(&text) {
            Some(plan) => {
                simulated += 1;
                let run = prepare(&[&rel], &config, &plan).expect("a playable plan");
                let stats = run.simulate(None, &|| {});
                let mut report = run.finish(stats);
                assert_eq!(report.files.len(), 1, "{}", rel.display());
                report.files.remove(0)
            }
            None => check_path(&rel, &config),
        };
        let parts = Parts::of(&r.source).expect("a variant");
        let got: BTreeSet<(String, usize)> = r
            .findings
            .iter()
            .map(|f| {
                let (src, d) = parts.place(&f.diag);
                let line = d.span().map_or(0, |s| src.line_of(s.start));
                assert_eq!(
                    src.name,
                    rel.display().to_string(),
                    "{}: a finding in the base:\n{}",
                    rel.display(),
                    r.render_plain()
                );
                (f.diag.code.clone(), line)
            })
            .collect();
        assert_eq!(got, want, "{}:\n{}", rel.display(), r.render_plain());
        if is_valid {
            assert_eq!(r.verdict(), Verdict::Sound, "{}", r.render_plain());
            let file = rel.to_string_lossy().into_owned();
            let args = [
                &file,
                "--players",
                "3",
                "--explore",
                "2000",
                "--deny",
                "warnings",
            ];
            let (code, out, err) = rulecheck(&args);
            assert_eq!(code, 0, "{file} played:\n{out}{err}");
            valid += 1;
        } else {
            broken += 1;
        }
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path("snapshots");
        settings.set_prepend_module_to_snapshot(false);
        let name = format!("game@{}", path.file_name().unwrap().to_string_lossy());
        // the findings only: a simulation's tables hold timings-free but
        // long figures that the assertions above already judge
        let mut r = r;
        r.sim = None;
        let report = Report { files: vec![r] };
        settings.bind(|| insta::assert_snapshot!(name, report.render_plain()));
    }
    assert!(broken >= 12, "{broken} broken variants");
    assert!(simulated >= 5, "{simulated} judged by their games");
    assert!(valid >= 3, "{valid} valid variants");
    let took = clock.elapsed();
    // about 50 s on a loaded two-core machine: the limit leaves headroom
    assert!(took.as_secs() < 120, "the set took {took:?}");
}

/// A column of games that never end stops after about 20 of them (a whole
/// chunk of 64), and says so.
#[test]
fn hung_games_stop_the_column_early() {
    let (code, out, _) = rulecheck(&[
        "tests/rulecheck/variants/never_ends.rules",
        "--games",
        "5000",
        "--players",
        "2",
        "--max-decisions",
        "300",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("in 64 of 64 games (a column stops after 20"),
        "{out}"
    );
    assert!(out.contains("`p.score >= target` was tested"), "{out}");
    assert_eq!(out.matches("does-not-end").count(), 1, "{out}");
}

/// `--json` says `null`, not 0, for a figure with no data: a column where
/// no game finished has no lengths, tie rate, lead changes or win shares.
#[test]
fn json_says_null_for_figures_with_no_data() {
    let (code, out, err) = rulecheck(&[
        "tests/rulecheck/variants/never_ends.rules",
        "--games",
        "64",
        "--players",
        "2",
        "--max-decisions",
        "300",
        "--json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(super::is_json(&out), "{out}");
    assert!(out.contains("\"finished\":0,"), "{out}");
    for figure in [
        "\"turns\":null",
        "\"decisions\":null",
        "\"tie_rate\":null",
        "\"lead_changes\":null",
        "{\"seat\":0,\"share\":null,\"low\":null,\"high\":null}",
        "\"first_seat_advantage\":null",
    ] {
        assert!(out.contains(figure), "no `{figure}`:\n{out}");
    }
    // decisions were taken, so these have data
    assert!(!out.contains("\"branching\":null"), "{out}");
    let (_, out, _) = rulecheck(&[
        "tests/rulecheck/variants/race.rules",
        "--games",
        "40",
        "--players",
        "2",
        "--json",
    ]);
    assert!(!out.contains("null,\"low\""), "{out}");
}

/// Fewer than 30 finished games give "too few games", not an interval of
/// ±20% or more; 30 and over give the interval.
#[test]
fn few_games_have_no_interval() {
    let few = |games: &str| {
        let args = [
            "tests/rulecheck/variants/race.rules",
            "--games",
            games,
            "--players",
            "2",
        ];
        rulecheck(&args).1
    };
    let out = few("29");
    let row = out
        .lines()
        .find(|l| l.contains("win share P0"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(row.contains("too few games") && !row.contains('±'), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("first seat advantage") && l.ends_with("too few games")),
        "{out}"
    );
    let out = few("30");
    assert!(!out.contains("too few games") && out.contains('±'), "{out}");
}

/// A game that goes round in circles through a choice is found from its
/// repeated position, far under the decision limit, at the choice's line.
#[test]
fn repeated_positions_are_found_early() {
    let (code, out, _) = rulecheck(&[
        "tests/rulecheck/variants/round_in_circles.rules",
        "--games",
        "64",
        "--players",
        "2",
        "--max-decisions",
        "10000",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("games go round in circles"), "{out}");
    assert!(out.contains("round_in_circles.rules:38"), "{out}");
    let at = out
        .find("came back 64 times by move ")
        .unwrap_or_else(|| panic!("{out}"));
    let rest = &out[at + "came back 64 times by move ".len()..];
    let moves: u32 = rest[..rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(0)]
        .parse()
        .unwrap_or_else(|_| panic!("{out}"));
    assert!(moves < 1000, "found only at move {moves}:\n{out}");
}

/// The first-mover advantage is judged on the seat that took each game's
/// first decision: in a race whose first player is drawn by lot, P0 wins
/// about half the games, but whoever moves first wins more.
#[test]
fn first_mover_is_the_seat_of_the_first_decision() {
    let (_, out, err) = rulecheck(&[
        "tests/rulecheck/variants/first_by_lot.rules",
        "--games",
        "1000",
        "--players",
        "2",
    ]);
    let cell = |row: &str| -> String {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(row))
            .unwrap_or_else(|| panic!("no `{row}`:\n{out}{err}"));
        line[2 + 22..].trim().to_string()
    };
    let p0: f64 = cell("win share P0")
        .split('%')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((40.0..60.0).contains(&p0), "P0 wins {p0}%:\n{out}");
    let first: f64 = cell("first mover win share")
        .split('%')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(first > 55.0, "the first mover wins {first}%:\n{out}");
    assert_eq!(cell("first seat advantage"), "SIGNIFICANT", "{out}");
}

/// Code an option switches off only through what its conditions read (a
/// card's attribute through a function, a phase's parameter, the cards a
/// zone can hold once setup has put some away, a count that is never
/// negative) is a note naming the
/// options, never a warning; switched on, it runs.
#[test]
fn code_switched_off_through_attributes_and_parameters_is_a_note() {
    let file = "tests/rulecheck/variants/switched_through.rules";
    let run = |set: &[&str]| {
        let mut args = vec![
            file,
            "--games",
            "300",
            "--explore",
            "0",
            "--deny",
            "warnings",
        ];
        for s in set {
            args.extend(["--set", s]);
        }
        let (code, out, err) = rulecheck(&args);
        assert_eq!(code, 0, "{set:?}:\n{out}{err}");
        out
    };
    let note = |line: u32, opts: &str| {
        format!(
            "note: line {line} never ran: switched off by the options ({opts}) through what its conditions read"
        )
    };
    // gold and star chips are both out: the whole `else` of `pay`
    let out = run(&[]);
    assert!(out.contains(&note(83, "gold = 0, stars = 0")), "{out}");
    // a zone holds no fewer than 0 cards: `count(p.hand) < extra` fails
    assert!(out.contains(&note(64, "extra = 0")), "{out}");
    // gold chips are spent, star chips are still in the box
    let out = run(&["gold=1"]);
    assert!(out.contains(&note(86, "gold = 1, stars = 0")), "{out}");
    assert!(!out.contains("line 84 never ran"), "{out}");
    // star chips are dealt, gold chips still cannot be spent
    let out = run(&["stars=1"]);
    assert!(out.contains(&note(84, "gold = 0")), "{out}");
    assert!(!out.contains("line 86 never ran"), "{out}");
    let out = run(&["gold=1", "stars=1", "extra=1"]);
    assert!(!out.contains("through what its conditions read"), "{out}");
}

/// Code inside a loop or a choice over a zone that can hold no card with
/// the run's options (the moves that fill it are behind a gate the options
/// close, here in a phase called only from there) is a note naming the
/// options, not a warning; with the option on, it runs.
#[test]
fn code_switched_off_through_the_zones_is_a_note() {
    let file = "tests/rulecheck/variants/switched_zones.rules";
    let run = |set: &[&str]| {
        let mut args = vec![
            file,
            "--games",
            "300",
            "--explore",
            "0",
            "--deny",
            "warnings",
        ];
        for s in set {
            args.extend(["--set", s]);
        }
        let (code, out, err) = rulecheck(&args);
        assert_eq!(code, 0, "{set:?}:\n{out}{err}");
        out
    };
    let note = |line: u32| {
        format!(
            "note: line {line} never ran: switched off by the options (bonus = 0) through what its conditions read"
        )
    };
    let out = run(&[]);
    // the loop over the stash, and the option to cash a chip from it
    assert!(out.contains(&note(48)), "{out}");
    assert!(out.contains(&note(61)), "{out}");
    let out = run(&["bonus=1"]);
    assert!(!out.contains("never ran"), "{out}");
}
