//! Variants: a file that extends a base and replaces some of its declarations.

use grail::{Game, State};

#[test]
fn a_variant_replaces_options_and_phases() {
    let base = Game::load("tests/variants/base.rules").unwrap();
    let v = Game::load("tests/variants/double.rules")
        .unwrap_or_else(|d| panic!("{}", d.render_plain()));
    assert_eq!(v.name(), "Count (Double)");
    let goal = |g: &Game| g.options()[g.option_index("goal").unwrap()].default;
    assert_eq!((goal(&base), goal(&v)), (3, 6));
    let s = State::new(&v, 2, 1, &v.default_options()).unwrap();
    let labels: Vec<String> = s
        .legal_actions(&v)
        .iter()
        .map(|a| s.label(&v, *a))
        .collect();
    assert_eq!(labels, ["two"]);
}

#[test]
fn a_missing_base_is_a_diagnostic() {
    let err = Game::load("tests/variants/orphan.rules")
        .err()
        .expect("no base");
    let text = err.render_plain();
    assert!(
        text.contains("E0116") && text.contains("missing.rules"),
        "{text}"
    );
}

#[test]
fn errors_in_a_variant_are_reported() {
    let err = Game::load("tests/variants/broken.rules")
        .err()
        .expect("broken");
    let text = err.render_plain();
    assert!(
        text.contains("scor") && text.contains("did you mean `score`"),
        "{text}"
    );
    // the variant's own path and line (5 of its 7), not the line of the
    // joined text of base and variant
    assert!(
        text.contains("[tests/variants/broken.rules:5:15]"),
        "{text}"
    );
    assert!(text.ends_with("tests/variants/broken.rules: 1 error(s), 0 warning(s)\n"));
    assert!(!text.contains("after its base"), "{text}");
}

/// `rules_files` walks a folder and its subfolders, sorted by path; a
/// missing folder is an error.
#[test]
fn rules_files_lists_a_folder_sorted() {
    let files = grail::load::rules_files(std::path::Path::new("rules")).expect("readable");
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    assert!(
        names.iter().any(|n| n == "rules/camelot101.rules"),
        "{names:?}"
    );
    assert!(
        names.iter().any(|n| n == "rules/camelot101/level4.rules"),
        "{names:?}"
    );
    assert!(files.windows(2).all(|w| w[0] < w[1]), "{names:?}");
    assert!(names.iter().all(|n| n.ends_with(".rules")), "{names:?}");
    assert!(grail::load::rules_files(std::path::Path::new("no/such/folder")).is_err());
}

/// A variant's run-time places (a fault, the pending choice) name the file
/// the line is written in and that file's own line, not a line of the
/// joined text of base and variant.
#[test]
fn run_time_lines_of_a_variant_are_its_own() {
    use grail::EngineError;
    use std::path::Path;
    let v = Game::load("tests/variants/faults.rules")
        .unwrap_or_else(|d| panic!("{}", d.render_plain()));
    let s = State::new(&v, 2, 1, &v.default_options()).unwrap();
    let choice = s.pending_choice(&v).expect("a choice");
    assert_eq!(
        choice.file.as_deref(),
        Some(Path::new("tests/variants/faults.rules"))
    );
    assert_eq!(
        (choice.line, choice.line_name()),
        (7, "tests/variants/faults.rules line 7".into())
    );
    let fault = s
        .legal_actions(&v)
        .into_iter()
        .find(|a| s.label(&v, *a) == "fault")
        .expect("the faulting move");
    let err = s.clone().apply(&v, fault).expect_err("a division by zero");
    assert!(matches!(err, EngineError::Fault { line: 9, .. }), "{err:?}");
    assert_eq!(err.file(), Some(Path::new("tests/variants/faults.rules")));
    assert_eq!(
        err.to_string(),
        "rules fault in phase `score_turn` (tests/variants/faults.rules line 9): division by zero"
    );
    // a plain file names no file, as before
    let base = Game::load("tests/variants/base.rules").unwrap();
    let s = State::new(&base, 2, 1, &base.default_options()).unwrap();
    let choice = s.pending_choice(&base).expect("a choice");
    assert_eq!(
        (choice.file.clone(), choice.line_name()),
        (None, "line 18".into())
    );
}

/// A variant of a variant: each file replaces the declarations of the
/// files before it (the middle one's `goal` replaced its base's; before,
/// only the last seam was merged and `goal` was "defined twice").
#[test]
fn a_variant_of_a_variant_replaces_at_each_step() {
    let v = Game::load("tests/variants/chain_top.rules")
        .unwrap_or_else(|d| panic!("{}", d.render_plain()));
    let goal = v.options()[v.option_index("goal").unwrap()].default;
    assert_eq!(goal, 5);
    let s = State::new(&v, 2, 1, &v.default_options()).unwrap();
    let labels: Vec<String> = s
        .legal_actions(&v)
        .iter()
        .map(|a| s.label(&v, *a))
        .collect();
    assert_eq!(labels, ["two"]);
    assert!(v.probe("P0.score + goal", 2).is_ok());
}

/// `grail graph` labels a variant's phases and nodes with the file each
/// line is in and that file's own line (before, lines of the joined text).
#[test]
fn the_graph_of_a_variant_names_its_files() {
    let v = Game::load("tests/variants/faults.rules")
        .unwrap_or_else(|d| panic!("{}", d.render_plain()));
    let g = v.graph();
    let line = |s: grail::diag::Span| v.source().line_label(s.start);
    let only = [grail::graph::phase_named(g, "score_turn").expect("score_turn")];
    let text = grail::graph::overview(g, Some(&only), &line);
    assert!(
        text.contains("line 6 of tests/variants/faults.rules"),
        "{text}"
    );
    let dot = grail::graph::to_dot(g, Some(&only), &line);
    assert!(
        dot.contains("(line 7 of tests/variants/faults.rules)"),
        "{dot}"
    );
    // a phase the variant keeps from its base is named at the base's line
    let all = grail::graph::overview(g, None, &line);
    assert!(all.contains(" of tests/variants/base.rules"), "{all}");
}
