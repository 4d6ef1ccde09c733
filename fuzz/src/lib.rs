//! Shared by the fuzz targets: the shipped games, loaded once. Every rules
//! file under `rules/` (the games and their variants) and `examples/`.

use grail::Game;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The repository root (the fuzz crate lives in `fuzz/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("fuzz/ has a parent")
        .to_path_buf()
}

/// Every shipped game, sorted by path, compiled once per process.
pub fn games() -> &'static [(String, Game)] {
    static GAMES: OnceLock<Vec<(String, Game)>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let root = root();
        let mut paths = Vec::new();
        for dir in ["rules", "rules/camelot101", "examples"] {
            for e in std::fs::read_dir(root.join(dir)).expect("a rules directory") {
                let p = e.expect("a directory entry").path();
                if p.extension().is_some_and(|x| x == "rules") {
                    paths.push(p);
                }
            }
        }
        paths.sort();
        paths
            .into_iter()
            .map(|p| {
                let g = Game::load(&p).unwrap_or_else(|d| panic!("{}", d.render_plain()));
                (p.display().to_string(), g)
            })
            .collect()
    })
}
