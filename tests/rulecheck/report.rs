//! What rulecheck's reports say beyond findings (a module of
//! `tests/rulecheck.rs`): a rules variant runs beside its base, with the
//! metrics that moved and code it switched off on purpose as a note; code
//! that never ran in one column is noted; a game that never ends names the
//! values its end condition saw; the text and JSON carry the fire counts,
//! the length histogram and the win margin; `--html` writes one page whose
//! every chart renders (resvg) to more than one colour.

use super::{is_json, rulecheck};
use grail::rulecheck::charts::charts;
use grail::rulecheck::{Config, Plan, prepare};
use std::collections::BTreeSet;

const SPRINT: &str = "tests/rulecheck/variants/sprint.rules";

#[test]
fn a_variant_runs_beside_its_base_and_switched_off_code_is_a_note() {
    let (code, out, err) = rulecheck(&[
        SPRINT,
        "--games",
        "300",
        "--players",
        "2",
        "--explore",
        "0",
        "--deny",
        "warnings",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let header = out
        .lines()
        .find(|l| l.contains("base") && l.contains("sprint"))
        .unwrap_or_else(|| panic!("one table with both columns:\n{out}"));
    assert!(header.find("base") < header.find("sprint"), "{header}");
    assert!(out.contains("against the base"), "{out}");
    // a race to 3 is shorter: the length moved, with its interval
    let turns = out
        .lines()
        .find(|l| l.trim_start().starts_with("turns: mean") && l.contains("->"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(turns.contains('[') && turns.ends_with("moved"), "{turns}");
    assert!(
        out.contains("race.rules:4") && out.contains("switched off by the variant on purpose"),
        "{out}"
    );
    assert!(!out.contains("never-fired"), "{out}");
}

#[test]
fn code_that_never_ran_in_one_column_is_noted() {
    let (_, out, _) = rulecheck(&[
        "tests/rulecheck/variants/race.rules",
        "--games",
        "200",
        "--players",
        "2",
        "--vary",
        "target=2,30",
        "--explore",
        "0",
    ]);
    assert!(
        out.contains("note: column target=2:") && out.contains("though it ran in other columns"),
        "{out}"
    );
}

#[test]
fn a_game_that_never_ends_names_the_values_its_end_saw() {
    let (code, out, _) = rulecheck(&[
        "tests/rulecheck/games/tamoul_target_typo.rules",
        "--games",
        "64",
        "--players",
        "2",
        "--max-decisions",
        "400",
        "--explore",
        "0",
    ]);
    assert_eq!(code, 1, "{out}");
    let label = out
        .lines()
        .find(|l| l.contains("was tested") && l.contains("never true"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        label.contains("values seen: `max(p.score for p in players)` ")
            && label.contains("`target * 100` 10000"),
        "{label}"
    );
}

#[test]
fn reports_carry_fire_counts_histograms_and_margins() {
    let race = "tests/rulecheck/variants/race.rules";
    let (_, out, _) = rulecheck(&[race, "--games", "100", "--players", "2", "--explore", "0"]);
    for row in [
        "turns histogram",
        "win margin: mean / max",
        "fire counts",
        "phase play (line ",
    ] {
        assert!(out.contains(row), "no `{row}`:\n{out}");
    }
    assert!(out.contains("option \"spend {c}\""), "{out}");
    let (_, json, _) = rulecheck(&[race, "--games", "100", "--players", "2", "--json"]);
    assert!(is_json(&json), "{json}");
    for key in [
        "\"turns_histogram\":[[",
        "\"margin\":{\"mean\":",
        "\"fires\":[{\"what\":\"phase start\"",
        "\"options\":{\"target\":10,\"refill\":1}",
    ] {
        assert!(json.contains(key), "no `{key}`:\n{json}");
    }
}

/// Distinct colours of a chart rendered by a real SVG renderer.
fn colours(svg: &str) -> BTreeSet<[u8; 4]> {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .unwrap_or_else(|e| panic!("not SVG: {e}\n{svg}"));
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a size");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .pixels()
        .iter()
        .map(|p| [p.red(), p.green(), p.blue(), p.alpha()])
        .collect()
}

#[test]
fn every_chart_renders_and_is_not_blank() {
    let plan = Plan {
        games: 200,
        players: Some(vec![2]),
        ..Plan::default()
    };
    let run = prepare(&[SPRINT], &Config::default(), &plan).expect("a plan");
    let stats = run.simulate(None, &|| {});
    let report = run.finish(stats);
    let all = charts(&report);
    // base and variant: a histogram and win shares each, and the deltas
    assert_eq!(all.len(), 5, "{} charts", all.len());
    for c in all {
        let c = c.expect("drawn");
        let seen = colours(&c.svg);
        assert!(seen.len() > 2, "{}: {} colours", c.title, seen.len());
        assert!(
            seen.iter().any(|[r, g, b, _]| !(r == g && g == b)),
            "{}: no coloured mark",
            c.title
        );
    }
    let dir = std::env::temp_dir().join("rulecheck-html-test");
    std::fs::create_dir_all(&dir).expect("a folder");
    let page = dir.join("sprint.html");
    let page_arg = page.display().to_string();
    let (code, out, err) = rulecheck(&[
        SPRINT,
        "--games",
        "100",
        "--players",
        "2",
        "--explore",
        "0",
        "--html",
        &page_arg,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let html = std::fs::read_to_string(&page).expect("written");
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert_eq!(html.matches("<svg").count(), 5, "{html}");
    assert!(html.contains("against the base") && html.contains("switched off"));
    assert!(
        !html.contains("<script") && !html.contains("<link"),
        "self-contained"
    );
}

/// A variant silences a line of its base by name (`allow(LINT) at NAME`),
/// as docs/rulecheck.md shows: with its games played beside the base, it
/// passes `--deny warnings`. The same silence misspelt is an
/// `invalid-allow` at the variant's line, with a did-you-mean, and the
/// finding it meant to silence stays at the base's line, with its path.
#[test]
fn a_variant_silences_a_base_line_by_name() {
    let file = "tests/rulecheck/variants/early_refill.rules";
    let text = std::fs::read_to_string(super::root().join(file)).expect("the fixture");
    let doc = std::fs::read_to_string(super::root().join("docs/rulecheck.md")).expect("docs");
    let shown = doc
        .lines()
        .find(|l| l.contains("allow(unused-option) at refill"))
        .expect("the example in docs/rulecheck.md");
    assert!(
        text.lines().any(|l| l == shown),
        "the docs show `{shown}`, which {file} does not hold"
    );
    let args = [
        file,
        "--games",
        "300",
        "--players",
        "2",
        "--explore",
        "0",
        "--deny",
        "warnings",
    ];
    let (code, out, err) = rulecheck(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 silenced"), "{out}");
    // the static checks alone: silenced too
    let (_, out, _) = rulecheck(&[file, "--games", "0"]);
    assert!(!out.contains("unused-option"), "{out}");
    let typo = "tests/rulecheck/variants/early_refill_typo.rules";
    let r = grail::rulecheck::check_path(typo, &Config::default());
    let codes: BTreeSet<&str> = r.findings.iter().map(|f| f.diag.code.as_str()).collect();
    assert_eq!(
        codes,
        BTreeSet::from(["invalid-allow", "unused-option"]),
        "{}",
        r.render_plain()
    );
    let report = grail::rulecheck::Report { files: vec![r] };
    let out = report.render_plain();
    for want in [
        "nothing is named `refil`",
        "did you mean `refill`?",
        "[tests/rulecheck/variants/early_refill_typo.rules:6:",
        "[tests/rulecheck/variants/race.rules:8:",
    ] {
        assert!(out.contains(want), "no `{want}`:\n{out}");
    }
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("silence_by_name_typo", out));
}

/// Fire counts per object: an option offered for each value of an enum
/// (Kameloot's `"lay {o}" for o in Object`) is counted per value, in the
/// text and in the JSON.
#[test]
fn options_are_counted_per_object() {
    let args = [
        "rules/kameloot.rules",
        "--games",
        "20",
        "--players",
        "3",
        "--seed",
        "1",
        "--explore",
        "0",
    ];
    let (_, out, err) = rulecheck(&args);
    let per: Vec<&str> = out.lines().filter(|l| l.contains(", by o: ")).collect();
    assert!(per.len() >= 3, "{out}{err}");
    assert!(
        per.iter()
            .any(|l| l.contains("option \"lay {o}\"") && l.contains("cloak ")),
        "{out}"
    );
    // the example in docs/rulecheck.md is this run's
    let doc = std::fs::read_to_string(super::root().join("docs/rulecheck.md")).expect("docs");
    assert!(
        doc.lines().any(|l| l == per[0]),
        "the docs should show:\n{}",
        per[0]
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("fires_per_object", per.join("\n")));
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (_, json, _) = rulecheck(&json_args);
    assert!(is_json(&json), "{json}");
    assert!(
        json.contains("\"by\":\"o\",\"per\":[{\"value\":\"ring\",\"count\":")
            && json.contains("{\"value\":\"cloak\",\"count\":"),
        "{json}"
    );
}

/// A `while` whose condition was never false is named as the loop's way
/// out, with the values its sides took, as docs/rulecheck.md shows.
#[test]
fn a_while_never_false_is_named_with_its_values() {
    let (code, out, _) = rulecheck(&[
        "tests/rulecheck/games/tamoul_endless_pile.rules",
        "--games",
        "64",
        "--players",
        "2",
        "--max-decisions",
        "400",
        "--explore",
        "0",
    ]);
    assert_eq!(code, 1, "{out}");
    let label = out
        .lines()
        .find(|l| l.contains("never false (the `while` loop's way out)"))
        .unwrap_or_else(|| panic!("{out}"));
    let at = label.find('`').expect("a condition");
    let doc = std::fs::read_to_string(super::root().join("docs/rulecheck.md")).expect("docs");
    assert!(
        doc.contains(&label[at..]),
        "docs/rulecheck.md should show: {}",
        &label[at..]
    );
}
