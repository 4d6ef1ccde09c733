//! For the engine's unit tests: every shipped rules file, found by walking
//! `rules/` (at any depth) and `examples/`, so no test names a game.

/// The `.rules` files under `rules/` (subdirectories included) and
/// `examples/`, sorted within each directory.
pub(super) fn shipped_rules_files() -> Vec<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut out = Vec::new();
    walk(&format!("{root}/rules"), true, &mut out);
    walk(&format!("{root}/examples"), false, &mut out);
    assert!(!out.is_empty(), "no rules files found under {root}");
    out
}

fn walk(dir: &str, deep: bool, out: &mut Vec<String>) {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    for p in &paths {
        if p.extension().is_some_and(|x| x == "rules") {
            out.push(p.display().to_string());
        }
    }
    for p in paths.iter().filter(|p| deep && p.is_dir()) {
        walk(&p.display().to_string(), deep, out);
    }
}
