//! `grail fmt`: snapshots of its output on badly laid out files, and its
//! promises on every rules file of the repository and every example of the
//! docs: idempotent, every comment kept, and the same syntax tree.

use grail::fmt::{ast_shape, format, lex};
use grail::syntax::parse_file;
use std::path::{Path, PathBuf};

fn rules_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            // hostile inputs (not UTF-8, megabytes deep) have their own test
            if p.ends_with("tests/hostile") {
                continue;
            }
            rules_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rules") {
            out.push(p);
        }
    }
}

/// Every `rules` block of the docs, made a whole file as tests/docs.rs does.
fn doc_examples() -> Vec<(String, String)> {
    const TOP: &[&str] = grail::fmt::lex::DECL_KEYWORDS;
    let mut out = Vec::new();
    for doc in [
        "docs/language.md",
        "docs/editing.md",
        "docs/repl.md",
        "docs/rulecheck.md",
    ] {
        let Ok(text) = std::fs::read_to_string(doc) else {
            continue;
        };
        let mut cur: Option<(usize, String)> = None;
        for (i, line) in text.lines().enumerate() {
            match &mut cur {
                None if line.trim() == "```rules" => cur = Some((i + 2, String::new())),
                Some((at, body)) if line.trim() == "```" => {
                    let first = body.split_whitespace().next().unwrap_or("");
                    let source = if TOP.contains(&first) {
                        body.clone()
                    } else {
                        format!("phase doc_example {{\n{body}}}\n")
                    };
                    out.push((format!("{doc}:{at}"), source));
                    cur = None;
                }
                Some((_, body)) => {
                    body.push_str(line);
                    body.push('\n');
                }
                None => {}
            }
        }
    }
    out
}

fn comments(text: &str) -> Vec<String> {
    lex::lex(text)
        .iter()
        .filter(|t| t.kind == lex::Kind::Comment)
        .map(|t| t.text(text).to_string())
        .collect()
}

fn promises(name: &str, text: &str) -> bool {
    // a lone carriage return ends a line, as `grail check` reads it
    let text = &*grail::fmt::lone_cr_to_lf(text);
    let (before, errors) = parse_file(text);
    if errors.iter().any(|d| d.is_error()) {
        assert!(format(text).is_err(), "{name}: a broken file was formatted");
        return false;
    }
    let once = format(text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let twice = format(&once).unwrap_or_else(|e| panic!("{name} (second pass): {e:?}"));
    assert_eq!(once, twice, "{name}: not idempotent");
    assert_eq!(comments(text), comments(&once), "{name}: comments changed");
    let (after, _) = parse_file(&once);
    assert_eq!(
        ast_shape(&before),
        ast_shape(&after),
        "{name}: meaning changed"
    );
    true
}

#[test]
fn every_rules_file_and_doc_example_keeps_its_meaning() {
    let mut files = Vec::new();
    for dir in ["rules", "examples", "tests"] {
        rules_files(Path::new(dir), &mut files);
    }
    files.sort();
    let mut formatted = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read");
        formatted += usize::from(promises(&path.display().to_string(), &text));
    }
    assert!(formatted >= 30, "only {formatted} files parsed");
    let examples = doc_examples();
    assert!(examples.len() >= 10, "only {} doc examples", examples.len());
    for (name, text) in examples {
        promises(&name, &text);
    }
}

#[test]
fn the_repository_rules_files_are_canonical() {
    // Reported, not asserted: other branches edit these files, and the
    // layout is applied to them when the branches are merged.
    let mut files = Vec::new();
    rules_files(Path::new("rules"), &mut files);
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read");
        if let Ok(f) = format(&text) {
            let n = grail::fmt::changed_lines(&text, &f);
            eprintln!("{}: {n} line(s) would change", path.display());
        }
    }
}

#[test]
fn a_file_with_a_syntax_error_is_left_alone() {
    let text = "game \"x\" {\n  players 2..2\n}\nphase p {\n  let = 3\n}\n";
    assert!(format(text).is_err());
}

#[test]
fn snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("fmt/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("fmt/*.rules", |path| {
            let text = std::fs::read_to_string(path).expect("read");
            let out = format(&text).expect("the fixtures parse");
            insta::assert_snapshot!(out);
        });
    });
}

#[test]
fn check_mode_reports_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("grail-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("messy.rules");
    let messy = std::fs::read_to_string("tests/fmt/messy.rules").expect("fixture");
    std::fs::write(&file, &messy).expect("write");
    let bin = env!("CARGO_BIN_EXE_grail");
    let out = std::process::Command::new(bin)
        .args(["fmt", "--check"])
        .arg(&file)
        .output()
        .expect("run grail fmt");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("not formatted"));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), messy);
    let out = std::process::Command::new(bin)
        .arg("fmt")
        .arg(&file)
        .output()
        .expect("run grail fmt");
    assert!(out.status.success());
    let done = std::fs::read_to_string(&file).expect("read");
    assert_eq!(done, format(&messy).expect("formats"));
    let out = std::process::Command::new(bin)
        .args(["fmt", "--check"])
        .arg(&file)
        .output()
        .expect("run grail fmt");
    assert!(out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
