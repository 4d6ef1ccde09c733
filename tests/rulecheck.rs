//! rulecheck as data: every rules file under `tests/rulecheck/` has an insta
//! snapshot of its report; each lint of the registry has a fixture that
//! triggers it (and only it); every silencing comment is load-bearing;
//! Tamoul is sound under `--deny warnings`; the JSON is well formed; the
//! CLI's exit codes and one-line errors; mutated games never panic it.
//! The simulation half is tested in `rulecheck/sim.rs`.

#[path = "rulecheck/exploration.rs"]
mod exploration;
#[path = "rulecheck/games.rs"]
mod games;
#[path = "rulecheck/report.rs"]
mod report;
#[path = "rulecheck/sim.rs"]
mod sim;

use grail::diag::Source;
use grail::rulecheck::{
    Config, FileReport, Pass, REGISTRY, Report, Verdict, check_path, check_source,
};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The repo-relative name of a file, so snapshots do not depend on where
/// the repository is checked out.
fn source_name(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

fn check(path: &Path, config: &Config) -> FileReport {
    let text = std::fs::read_to_string(path).expect("readable test file");
    check_source(Source::new(source_name(path), text), config)
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/rulecheck").join(format!("{name}.rules"))
}

fn fixtures() -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("tests/rulecheck"))
        .expect("tests/rulecheck exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    files
}

fn codes(r: &FileReport) -> BTreeSet<String> {
    r.findings.iter().map(|f| f.diag.code.clone()).collect()
}

fn deny_warnings() -> Config {
    Config {
        deny_warnings: true,
        ..Config::default()
    }
}

#[test]
fn snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("rulecheck/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("rulecheck/*.rules", |path| {
            let report = Report {
                files: vec![check(path, &Config::default())],
            };
            insta::assert_snapshot!(report.render_plain());
        });
    });
}

#[test]
fn json_snapshot() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("rulecheck/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    let report = Report {
        files: vec![check(&fixture("invalid_allow"), &Config::default())],
    };
    settings.bind(|| insta::assert_snapshot!("invalid_allow.json", report.to_json(None)));
}

/// Lints whose fixture necessarily triggers another lint too.
fn companions(lint: &str) -> &'static [&'static str] {
    match lint {
        // a phase called only from dead code never runs either
        "unreachable-node" => &["unreachable-phase"],
        // the misspelt silence leaves the finding it meant to silence
        "invalid-allow" => &["unused-var"],
        _ => &[],
    }
}

#[test]
fn every_lint_has_a_fixture_that_triggers_it() {
    for lint in REGISTRY {
        if matches!(lint.pass, Pass::Simulation) {
            continue;
        }
        let path = fixture(&lint.name.replace('-', "_"));
        assert!(
            path.exists(),
            "no fixture {} for `{}`",
            path.display(),
            lint.name
        );
        let r = check(&path, &Config::default());
        let mut want: BTreeSet<String> = companions(lint.name)
            .iter()
            .map(|s| s.to_string())
            .collect();
        want.insert(lint.name.to_string());
        assert_eq!(codes(&r), want, "{}:\n{}", path.display(), r.render_plain());
        assert_eq!(r.verdict(), Verdict::Warnings, "{}", r.render_plain());
    }
}

/// docs/rulecheck.md documents every lint, with its severity, as registered.
#[test]
fn the_reference_names_every_lint() {
    let doc = std::fs::read_to_string(root().join("docs/rulecheck.md")).expect("docs/rulecheck.md");
    for lint in REGISTRY {
        let level = format!("{:?}", lint.level).to_lowercase();
        let row = format!("| `{}` | {level} |", lint.name);
        assert!(
            doc.contains(&row),
            "docs/rulecheck.md needs the row `{row}`"
        );
    }
}

#[test]
fn registry_is_well_formed() {
    let mut seen = BTreeSet::new();
    for lint in REGISTRY {
        let n = lint.name;
        assert!(seen.insert(n), "`{n}` registered twice");
        assert!(
            !n.is_empty()
                && n.split('-')
                    .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())),
            "`{n}` is not kebab-case"
        );
        for text in [lint.description, lint.help] {
            assert!(!text.is_empty() && !text.contains('\n'), "`{n}`: {text:?}");
        }
        let file = root()
            .join("src/rulecheck/lints")
            .join(format!("{}.rs", n.replace('-', "_")));
        let src = std::fs::read_to_string(&file)
            .unwrap_or_else(|_| panic!("`{n}` has no file {}", file.display()));
        assert!(
            src.starts_with("//!"),
            "{} lacks its doc comment",
            file.display()
        );
        assert!(
            src.contains(&format!("name: \"{n}\"")),
            "{} does not define `{n}`",
            file.display()
        );
    }
}

#[test]
fn every_finding_has_code_label_and_help() {
    for path in fixtures() {
        let r = check(&path, &Config::default());
        let len = r.source.text.len() as u32;
        for f in &r.findings {
            let d = &f.diag;
            assert!(
                !d.labels.is_empty() && d.help.is_some(),
                "{}: {:?}",
                path.display(),
                d.message
            );
            for (span, _) in &d.labels {
                assert!(
                    span.start <= span.end && span.end <= len,
                    "{}: bad span in {:?}",
                    path.display(),
                    d.message
                );
            }
        }
    }
}

#[test]
fn allow_file_is_sound_and_every_directive_matters() {
    let path = fixture("allow");
    let text = std::fs::read_to_string(&path).expect("allow.rules");
    let r = check(&path, &deny_warnings());
    assert!(r.findings.is_empty(), "{}", r.render_plain());
    assert_eq!(r.silenced, 6);
    assert_eq!(r.verdict(), Verdict::Sound);
    // Remove one directive at a time: what it silenced comes back.
    let lines: Vec<&str> = text.lines().collect();
    let mut directives = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(at) = line.find("rulecheck:") else {
            continue;
        };
        directives += 1;
        let mut edited = lines.clone();
        let stripped = format!("{}rulecheck-off", &line[..at]);
        edited[i] = &stripped;
        let r2 = check_source(
            Source::new("allow.rules", edited.join("\n")),
            &Config::default(),
        );
        assert!(
            r2.silenced < 6 && !r2.findings.is_empty(),
            "directive on line {} silences nothing",
            i + 1
        );
    }
    assert_eq!(directives, 6);
}

#[test]
fn tamoul_is_sound_with_deny_warnings() {
    let r = check(&root().join("rules/tamoul.rules"), &deny_warnings());
    assert_eq!(r.verdict(), Verdict::Sound, "{}", r.render_plain());
    assert!(r.linted && r.findings.is_empty() && r.silenced == 0);
}

#[test]
fn deny_promotes_warnings() {
    let path = fixture("unused_var");
    let plain = Report {
        files: vec![check(&path, &Config::default())],
    };
    assert_eq!((plain.verdict(), plain.exit_code()), (Verdict::Warnings, 0));
    let denied = Report {
        files: vec![check(&path, &deny_warnings())],
    };
    assert_eq!(
        (denied.verdict(), denied.exit_code()),
        (Verdict::Unsound, 1)
    );
    assert_eq!(denied.files[0].errors(), 2);
    let mut one = Config::default();
    one.deny("unused-var").expect("a lint name");
    assert_eq!(check(&path, &one).errors(), 2);
    let mut other = Config::default();
    other.deny("unused-zone").expect("a lint name");
    assert_eq!(check(&path, &other).verdict(), Verdict::Warnings);
    let e = Config::default().deny("warning").expect_err("not a lint");
    assert!(e.contains("did you mean `warnings`"), "{e}");
}

#[test]
fn unreadable_files_are_reported_not_fatal() {
    let config = Config::default();
    let report = grail::rulecheck::check_paths(
        &[
            root().join("rules/tamoul.rules"),
            root().join("no/such.rules"),
        ],
        &config,
    );
    assert_eq!(report.verdict(), Verdict::Unsound);
    assert_eq!(report.files[0].verdict(), Verdict::Sound);
    let bad = &report.files[1];
    assert!(bad.unreadable.is_some() && bad.errors() == 1);
    assert_eq!(
        bad.render_plain().lines().count(),
        1,
        "{}",
        bad.render_plain()
    );
    let dir = check_path(root().join("tests"), &config);
    assert!(dir.unreadable.is_some());
}

/// A strict JSON recogniser (RFC 8259 values), enough to trust the emitter.
fn json_value(s: &[u8], i: &mut usize) -> bool {
    fn ws(s: &[u8], i: &mut usize) {
        while *i < s.len() && matches!(s[*i], b' ' | b'\n' | b'\t' | b'\r') {
            *i += 1;
        }
    }
    fn lit(s: &[u8], i: &mut usize, w: &str) -> bool {
        let ok = s[*i..].starts_with(w.as_bytes());
        *i += if ok { w.len() } else { 0 };
        ok
    }
    fn string(s: &[u8], i: &mut usize) -> bool {
        if s.get(*i) != Some(&b'"') {
            return false;
        }
        *i += 1;
        while let Some(&c) = s.get(*i) {
            *i += 1;
            match c {
                b'"' => return true,
                b'\\' => {
                    match s.get(*i) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => *i += 1,
                        Some(b'u')
                            if s.len() >= *i + 5
                                && s[*i + 1..*i + 5].iter().all(u8::is_ascii_hexdigit) =>
                        {
                            *i += 5
                        }
                        _ => return false,
                    };
                }
                c if c < 0x20 => return false,
                _ => {}
            }
        }
        false
    }
    ws(s, i);
    let ok = match s.get(*i) {
        Some(b'{') | Some(b'[') => {
            let close = if s[*i] == b'{' { b'}' } else { b']' };
            let object = close == b'}';
            *i += 1;
            ws(s, i);
            if s.get(*i) == Some(&close) {
                *i += 1;
                true
            } else {
                loop {
                    ws(s, i);
                    if object
                        && !(string(s, i) && {
                            ws(s, i);
                            lit(s, i, ":")
                        })
                    {
                        return false;
                    }
                    if !json_value(s, i) {
                        return false;
                    }
                    ws(s, i);
                    if lit(s, i, ",") {
                        continue;
                    }
                    break s.get(*i) == Some(&close) && {
                        *i += 1;
                        true
                    };
                }
            }
        }
        Some(b'"') => string(s, i),
        Some(b't') => lit(s, i, "true"),
        Some(b'f') => lit(s, i, "false"),
        Some(b'n') => lit(s, i, "null"),
        Some(c) if *c == b'-' || c.is_ascii_digit() => {
            let start = *i;
            *i += 1;
            while *i < s.len()
                && (s[*i].is_ascii_digit() || matches!(s[*i], b'.' | b'e' | b'E' | b'+' | b'-'))
            {
                *i += 1;
            }
            std::str::from_utf8(&s[start..*i]).is_ok_and(|n| n.parse::<f64>().is_ok())
        }
        _ => false,
    };
    ws(s, i);
    ok
}

fn is_json(text: &str) -> bool {
    let mut i = 0;
    json_value(text.as_bytes(), &mut i) && i == text.len()
}

#[test]
fn json_is_well_formed() {
    assert!(is_json(r#"{"a":[1,-2.5e3,"x\"\u00e9",true,null],"b":{}}"#));
    assert!(!is_json(
        r#"{"a":"line
break"}"#
    ));
    let mut paths = fixtures();
    paths.push(root().join("rules/tamoul.rules"));
    paths.push(root().join("no/such.rules"));
    let report = grail::rulecheck::check_paths(&paths, &Config::default());
    let json = report.to_json(Some(std::time::Duration::from_micros(1234)));
    assert!(is_json(&json), "{json}");
    assert!(json.contains("\"elapsed_ms\":1.234"));
    // a name with quotes, backslashes and control characters survives
    let odd = check_source(
        Source::new("we\"ird\\name\t\u{1}.rules", "game"),
        &Config::default(),
    );
    let json = Report { files: vec![odd] }.to_json(None);
    assert!(is_json(&json), "{json}");
}

fn rulecheck(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rulecheck"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("rulecheck runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_exit_codes_and_output() {
    let (code, out, err) = rulecheck(&["rules/tamoul.rules", "--deny", "warnings", "--games", "0"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("rules/tamoul.rules: sound (0 errors, 0 warnings)"),
        "{out}"
    );
    let last = out.lines().last().unwrap_or("");
    assert!(
        last.starts_with("verdict: sound (1 file checked") && last.ends_with(" ms"),
        "{last}"
    );

    let (code, out, _) = rulecheck(&["tests/rulecheck/unused_var.rules", "--games", "0"]);
    assert_eq!(code, 0, "warnings alone are sound: {out}");
    assert!(out.contains("warning") || out.contains("⚠"), "{out}");
    let (code, _, _) = rulecheck(&[
        "tests/rulecheck/unused_var.rules",
        "--deny",
        "warnings",
        "--games",
        "0",
    ]);
    assert_eq!(code, 1);
    let (code, _, _) = rulecheck(&[
        "--deny",
        "unused-var",
        "--games=0",
        "tests/rulecheck/unused_var.rules",
    ]);
    assert_eq!(code, 1);
    let (code, _, _) = rulecheck(&["tests/rulecheck/checker_errors.rules"]);
    assert_eq!(code, 1);

    let (code, out, err) = rulecheck(&[
        "tests/rulecheck/allow.rules",
        "no/such.rules",
        "--games",
        "0",
    ]);
    assert_eq!(code, 1);
    assert!(err.is_empty(), "{err}");
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{out}");
    assert!(errors[0].contains("cannot read `no/such.rules`"), "{out}");

    let (code, out, _) = rulecheck(&[
        "--json",
        "--games",
        "0",
        "tests/rulecheck/unused_zone.rules",
    ]);
    assert_eq!(code, 0);
    assert!(
        is_json(&out)
            && out.contains("\"elapsed_ms\":")
            && out.contains("\"code\":\"unused-zone\""),
        "{out}"
    );
    // a variant's file is its own path (its text name also names the base)
    let (_, out, _) = rulecheck(&["--json", "--games", "0", "tests/variants/broken.rules"]);
    assert!(
        out.contains(r#""files":[{"file":"tests/variants/broken.rules","verdict""#)
            && !out.contains("after its base"),
        "{out}"
    );

    let (code, out, _) = rulecheck(&["--list"]);
    assert_eq!(code, 0);
    for lint in REGISTRY {
        assert!(out.contains(lint.name), "--list misses {}", lint.name);
    }
}

#[test]
fn cli_bad_arguments_give_one_line() {
    for args in [
        &["--frobnicate", "x.rules"][..],
        &[][..],
        &["--deny", "warning", "x.rules"][..],
        &["--deny"][..],
    ] {
        let (code, out, err) = rulecheck(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("rulecheck: error: "), "{args:?}: {err}");
    }
    let (_, _, err) = rulecheck(&["--deny", "warning", "x.rules"]);
    assert!(err.contains("did you mean `warnings`"), "{err}");
}

/// One random edit of a rules file, by lines.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    for e in edits {
        let n = lines.len().max(1);
        match *e {
            Edit::Delete(i) if !lines.is_empty() => {
                lines.remove(i % n);
            }
            Edit::Duplicate(i) if !lines.is_empty() => lines.insert(i % n, lines[i % n]),
            Edit::Swap(i, j) if !lines.is_empty() => lines.swap(i % n, j % n),
            _ => {}
        }
    }
    lines.join("\n")
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::Swap(i, j)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn mutated_games_never_panic(edits in proptest::collection::vec(edit(), 1..4)) {
        let text = std::fs::read_to_string(root().join("rules/tamoul.rules")).expect("tamoul");
        let r = check_source(Source::new("mutant.rules", apply(&text, &edits)), &Config::default());
        let json = Report { files: vec![r.clone()] }.to_json(None);
        prop_assert!(is_json(&json));
        let _ = r.render_plain();
    }
}
