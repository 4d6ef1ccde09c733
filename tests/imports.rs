//! No import circles (ARCHITECTURE.md, "Invariants"): between the stages
//! of `src/` (a top-level module imports another by `crate::name`), and
//! between the files of one stage's folder (`super::name`, or
//! `crate::stage::name`), except the circles named in [`ALLOWED`].
//!
//! The references are read from the source text, comments and test
//! modules left out, so the test needs no compiler support. A circle that
//! appears fails with its files and the imports that close it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Circles kept on purpose, each with its reason in ARCHITECTURE.md.
const ALLOWED: &[(&str, &[&str])] = &[
    // the expression compiler: one recursive descent split by kind
    (
        "engine",
        &[
            "compile",
            "compile_call",
            "cond",
            "cse",
            "inline",
            "jump",
            "memo",
            "operand",
            "switch",
            "would",
        ],
    ),
    // explicit chance keeps a copy of the state inside the state
    ("engine", &["chance", "state"]),
];

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The text of a source file without comments and without its test module.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("read a source file");
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `prefix` followed by an identifier, the identifiers.
fn names_after(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
    }
    out
}

/// Each member of a circle (a strongly connected set of more than one).
fn circles(g: &Graph) -> Vec<BTreeSet<String>> {
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(x) = todo.pop() {
            for y in g.get(&x).into_iter().flatten() {
                if seen.insert(y.clone()) {
                    todo.push(y.clone());
                }
            }
        }
        seen
    };
    let all: BTreeMap<&String, BTreeSet<String>> = g.keys().map(|k| (k, reach(k))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for (k, r) in &all {
        if !r.contains(*k) || out.iter().any(|c| c.contains(*k)) {
            continue;
        }
        let set: BTreeSet<String> = all
            .iter()
            .filter(|(j, rj)| r.contains(**j) && rj.contains(*k))
            .map(|(j, _)| (*j).clone())
            .collect();
        out.push(set);
    }
    out
}

fn describe(g: &Graph, set: &BTreeSet<String>) -> String {
    set.iter()
        .map(|m| {
            let to: Vec<&String> = g[m].iter().filter(|t| set.contains(*t)).collect();
            format!("  {m} -> {to:?}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The stages: every top-level module of the library.
fn stages() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in fs::read_dir(src()).unwrap().flatten() {
        let p = e.path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        let folder = p.is_dir() && p.join("mod.rs").exists();
        let file = p.extension().is_some_and(|x| x == "rs") && !["lib", "main"].contains(&&*name);
        if folder || file {
            out.insert(name);
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_import_circle_between_stages() {
    let stages = stages();
    let mut g = Graph::new();
    for s in &stages {
        let mut files = Vec::new();
        let dir = src().join(s);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        } else {
            files.push(src().join(format!("{s}.rs")));
        }
        let deps: BTreeSet<String> = files
            .iter()
            .flat_map(|f| names_after(&code(f), "crate::"))
            .filter(|d| d != s && stages.contains(d))
            .collect();
        g.insert(s.clone(), deps);
    }
    assert!(g.len() > 10, "found the stages: {:?}", g.keys());
    let found = circles(&g);
    let text: Vec<String> = found.iter().map(|c| describe(&g, c)).collect();
    assert!(
        found.is_empty(),
        "import circles between stages:\n{}",
        text.join("\n\n")
    );
}

#[test]
fn no_import_circle_within_a_stage_but_the_named_ones() {
    let mut checked = 0;
    for e in fs::read_dir(src()).unwrap().flatten() {
        let dir = e.path();
        if !dir.is_dir() || !dir.join("mod.rs").exists() {
            continue;
        }
        let stage = dir.file_name().unwrap().to_string_lossy().to_string();
        let files: BTreeSet<String> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
            .filter(|n| n != "mod")
            .collect();
        let mut g = Graph::new();
        for f in &files {
            let text = code(&dir.join(format!("{f}.rs")));
            let mut deps = names_after(&text, "super::");
            deps.extend(names_after(&text, &format!("crate::{stage}::")));
            deps.retain(|d| d != f && files.contains(d));
            g.insert(f.clone(), deps);
        }
        checked += g.len();
        let mut unexpected = Vec::new();
        for c in circles(&g) {
            let allowed = ALLOWED
                .iter()
                .any(|(s, set)| *s == stage && c.iter().eq(set.iter().copied()));
            if !allowed {
                unexpected.push(format!("in src/{stage}/:\n{}", describe(&g, &c)));
            }
        }
        assert!(
            unexpected.is_empty(),
            "import circles not listed in ALLOWED:\n{}",
            unexpected.join("\n\n")
        );
    }
    assert!(checked > 100, "read {checked} files");
}

/// The reader itself: a circle is found, and a chain is not one.
#[test]
fn the_reader_finds_a_circle() {
    let g: Graph = [
        ("a", &["b"][..]),
        ("b", &["c"]),
        ("c", &["a"]),
        ("d", &["a"]),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
    .collect();
    let found = circles(&g);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].iter().collect::<Vec<_>>(), ["a", "b", "c"]);
    let text = "use super::b; // super::z\nlet x = crate::c::f(); a::super::no";
    let code_only: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect();
    assert_eq!(
        names_after(&code_only, "super::"),
        BTreeSet::from(["b".to_string()])
    );
}
