//! Diagnostics as data: every broken rules file under `tests/diagnostics/`
//! has an insta snapshot of its rendered report, every diagnostic carries a
//! code, a label and a help line, and random mutations of a complete game
//! never panic the compile pipeline.

use grail::diag::{Diagnostics, Source};
use grail::load::compile;
use proptest::prelude::*;
use std::path::Path;

/// The repo-relative name of a test file, so snapshots do not depend on
/// where the repository is checked out.
fn source_name(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

fn diagnose(path: &Path) -> Diagnostics {
    let text = std::fs::read_to_string(path).expect("readable test file");
    compile(Source::new(source_name(path), text)).diags
}

fn broken_files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/diagnostics exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    files
}

#[test]
fn snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("diagnostics/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("diagnostics/*.rules", |path| {
            insta::assert_snapshot!(diagnose(path).render_plain());
        });
    });
}

#[test]
fn every_broken_file_reports_something() {
    let files = broken_files();
    assert!(files.len() >= 15, "only {} broken files", files.len());
    for path in files {
        let d = diagnose(&path);
        assert!(
            !d.items.is_empty(),
            "{}: no diagnostic at all",
            path.display()
        );
    }
}

#[test]
fn every_diagnostic_has_code_label_and_help() {
    for path in broken_files() {
        let d = diagnose(&path);
        let len = d.source.text.len() as u32;
        for item in &d.items {
            let what = format!("{}: {:?}", path.display(), item.message);
            assert!(
                item.code.len() == 5 && item.code.starts_with('E'),
                "{what}: code `{}` is not of the form E0000",
                item.code
            );
            assert!(!item.labels.is_empty(), "{what}: no label");
            for (span, text) in &item.labels {
                assert!(
                    span.start <= span.end && span.end <= len,
                    "{what}: span {span:?} outside the file"
                );
                assert!(!text.is_empty(), "{what}: empty label text");
            }
            let help = item.help.as_deref().unwrap_or("");
            assert!(!help.trim().is_empty(), "{what}: no help line");
            assert!(
                !item.message.ends_with('.'),
                "{what}: titles do not end with a period"
            );
        }
    }
}

/// The rendered report names the file given as the source name.
#[test]
fn reports_name_the_file() {
    for path in broken_files() {
        let name = source_name(&path);
        let out = diagnose(&path).render_plain();
        assert!(
            out.contains(&format!("[{name}:")),
            "{name}: the report does not point into the file:\n{out}"
        );
    }
}

/// Several independent mistakes in different declarations are all reported.
#[test]
fn one_run_reports_every_error() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics/several_errors.rules");
    let d = diagnose(&path);
    assert!(d.error_count() >= 4, "{}", d.render_plain());
    // Syntax errors in two declarations, and a type error in a third that parsed.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics/several_syntax_errors.rules");
    let d = diagnose(&path);
    let codes: Vec<&str> = d.items.iter().map(|i| i.code.as_str()).collect();
    assert_eq!(codes, ["E0001", "E0103", "E0001"], "{}", d.render_plain());
}

// ---- robustness: mutated copies of a complete game -----------------------

const TAMOUL: &str = include_str!("../rules/tamoul.rules");

#[derive(Clone, Debug)]
enum Mutation {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    DeleteChar(usize),
    DuplicateChar(usize),
    SwapChars(usize, usize),
    InsertChar(usize, char),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        at.prop_map(Mutation::DeleteLine),
        at.prop_map(Mutation::DuplicateLine),
        (at, any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        at.prop_map(Mutation::DeleteChar),
        at.prop_map(Mutation::DuplicateChar),
        (at, any::<usize>()).prop_map(|(a, b)| Mutation::SwapChars(a, b)),
        (
            at,
            prop::sample::select(vec![
                '{', '}', '(', ')', '"', '#', '.', ',', ':', '=', '-', '\n', ' ', 'x', '0', 'é'
            ])
        )
            .prop_map(|(a, c)| Mutation::InsertChar(a, c)),
    ]
}

fn mutate(text: &str, muts: &[Mutation]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut chars: Vec<char>;
    for m in muts {
        match *m {
            Mutation::DeleteLine(i) if !lines.is_empty() => {
                lines.remove(i % lines.len());
            }
            Mutation::DuplicateLine(i) if !lines.is_empty() => {
                let l = lines[i % lines.len()].clone();
                lines.insert(i % lines.len(), l);
            }
            Mutation::SwapLines(a, b) if !lines.is_empty() => {
                let n = lines.len();
                lines.swap(a % n, b % n);
            }
            Mutation::DeleteLine(_) | Mutation::DuplicateLine(_) | Mutation::SwapLines(..) => {}
            _ => {
                chars = lines.join("\n").chars().collect();
                if chars.is_empty() {
                    continue;
                }
                let n = chars.len();
                match *m {
                    Mutation::DeleteChar(i) => {
                        chars.remove(i % n);
                    }
                    Mutation::DuplicateChar(i) => chars.insert(i % n, chars[i % n]),
                    Mutation::SwapChars(a, b) => chars.swap(a % n, b % n),
                    Mutation::InsertChar(i, c) => chars.insert(i % (n + 1), c),
                    _ => unreachable!(),
                }
                lines = chars
                    .iter()
                    .collect::<String>()
                    .lines()
                    .map(str::to_string)
                    .collect();
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

proptest! {
    #![proptest_config(ProptestConfig {
        // PROPTEST_CASES=5000 for a longer hunt.
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_rules_never_panic(muts in prop::collection::vec(mutation(), 1..4)) {
        let text = mutate(TAMOUL, &muts);
        let compiled = compile(Source::new("mutated.rules", text.clone()));
        // Rendering walks every span: it must not panic either.
        let out = compiled.diags.render_plain();
        prop_assert!(out.ends_with("warning(s)\n"));
        for d in &compiled.diags.items {
            for (span, _) in &d.labels {
                prop_assert!(span.start <= span.end && span.end as usize <= text.len(), "{:?} {:?}", d.message, span);
                prop_assert!(text.is_char_boundary(span.start as usize) && text.is_char_boundary(span.end as usize));
            }
        }
    }
}

/// A rule holds at most `MAX_LOCALS` (65,535) local slots: at the limit the
/// game loads; one past it is refused with E0118 once, at its place.
#[test]
fn local_slots_at_and_past_the_limit() {
    let game = |lets: usize| {
        let mut text = String::from(
            "game \"Slots\" {\n  players 2..2\n}\ncard Chip {\n  value: int\n}\n\
             deck chips of Chip size 1 in pile {\n  1 x { value: 1 }\n}\n\
             zone pile: shared pile hidden\nvar score: int per player = 0\n\nstart {\n",
        );
        for i in 0..lets {
            text.push_str(&format!("  let v{i} = 1\n"));
        }
        text.push_str("  end game\n}\n\nwinners highest p.score\n");
        grail::Game::from_source("slots.rules", &text)
    };
    assert!(game(65_535).is_ok(), "65,535 locals is the limit");
    let err = game(65_536).err().expect("65,536 locals is past the limit");
    let text = err.render_plain();
    assert_eq!(text.matches("E0118").count(), 1, "{text}");
    assert!(text.contains("more than 65535 local values"), "{text}");
}
