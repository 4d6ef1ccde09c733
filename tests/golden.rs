//! Golden logs: 200 seeded random games of every rules file and level,
//! recorded before the engine was redesigned, replayed after every change.
//! A game's line holds its seed, table size, decision count, a digest of
//! every action label in order (as the chooser sees it) and of every
//! option count, the final scores and winners, and how it ended. The first
//! three games of each file are also written out label by label, so a
//! change shows where it first differs.
//!
//! The games choose with their own generator (not `grail::agent`), so a
//! change to the agents never moves these logs: only the engine and the
//! rules files can. Record again, after a deliberate change of rules, with
//! `GOLDEN_RECORD=1 cargo test --release --test golden`, and say why in
//! the commit.

use grail::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

const GAMES: u64 = 200;
const SHOWN: u64 = 3;
/// Decisions after which a game is cut (no file needs this many).
const CAP: u32 = 20_000;

const FILES: &[&str] = &[
    "rules/tamoul.rules",
    "rules/kameloot.rules",
    "rules/camelot.rules",
    "rules/camelot101.rules",
    "rules/camelot101/level1.rules",
    "rules/camelot101/level1.1.rules",
    "rules/camelot101/level1.2.rules",
    "rules/camelot101/level1.3.rules",
    "rules/camelot101/level2.rules",
    "rules/camelot101/level3.rules",
    "rules/camelot101/level3.1.rules",
    "rules/camelot101/level4.rules",
    "examples/chess.rules",
];

fn fnv(h: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *h ^= u64::from(*b);
        *h = h.wrapping_mul(0x100000001b3);
    }
}

/// Plays one game and returns its summary line (and its labels if `shown`).
fn play(game: &Game, seed: u64, shown: bool) -> (String, String) {
    let (lo, hi) = game.players();
    let players = lo + (seed as usize) % (hi - lo + 1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x601d);
    let mut digest = 0xcbf29ce484222325u64;
    let mut labels = String::new();
    let mut state = match State::new(game, players, seed, &game.default_options()) {
        Ok(s) => s,
        Err(e) => {
            return (
                format!("seed={seed} players={players} setup-error: {e}"),
                labels,
            );
        }
    };
    let mut decisions = 0u32;
    let end = loop {
        if state.is_over() {
            break "over".to_string();
        }
        let actions = state.legal_actions(game);
        if actions.is_empty() {
            break "stuck".to_string();
        }
        if decisions >= CAP {
            break "cap".to_string();
        }
        let i = rng.random_range(0..actions.len());
        let label = state.label(game, actions[i]);
        let who = state.chooser().map_or(-1, |p| p as i64);
        fnv(&mut digest, &(actions.len() as u64).to_le_bytes());
        fnv(&mut digest, &who.to_le_bytes());
        fnv(&mut digest, label.as_bytes());
        if shown {
            let _ = writeln!(labels, "  P{who} ({} options): {label}", actions.len());
        }
        decisions += 1;
        if let Err(e) = state.apply(game, actions[i]) {
            break format!("error: {e}");
        }
    };
    let line = format!(
        "seed={seed} players={players} decisions={decisions} digest={digest:016x} scores={:?} winners={:?} end={end}",
        state.scores(game),
        state.winners(game),
    );
    (line, labels)
}

fn log_of(path: &str) -> String {
    let game = Game::load(path).unwrap_or_else(|d| panic!("{}", d.render_plain()));
    let mut out = format!("# golden log of {path}: {GAMES} random games, default options\n");
    for seed in 0..GAMES {
        let (line, labels) = play(&game, seed, seed < SHOWN);
        out.push_str(&line);
        out.push('\n');
        out.push_str(&labels);
    }
    out
}

fn log_path(rules: &str) -> String {
    let name = rules
        .trim_end_matches(".rules")
        .replace(['/', '.'], "_")
        .replace("rules_", "");
    format!("tests/golden/{name}.log")
}

/// First line where two logs differ, with both versions.
fn first_difference(want: &str, got: &str) -> String {
    for (i, (a, b)) in want.lines().zip(got.lines()).enumerate() {
        if a != b {
            return format!("line {}:\n  recorded: {a}\n  now:      {b}", i + 1);
        }
    }
    format!(
        "lengths differ: {} recorded lines, {} now",
        want.lines().count(),
        got.lines().count()
    )
}

#[test]
fn random_games_replay_exactly() {
    let record = std::env::var_os("GOLDEN_RECORD").is_some();
    // The files are independent: play them on every core.
    let logs: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = FILES.iter().map(|p| s.spawn(move || log_of(p))).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a file's games"))
            .collect()
    });
    let mut failures = Vec::new();
    for (path, got) in FILES.iter().zip(logs) {
        let file = log_path(path);
        if record {
            std::fs::create_dir_all("tests/golden").expect("tests/golden");
            std::fs::write(&file, &got).expect("write golden log");
            continue;
        }
        let want = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{file}: {e} (record with GOLDEN_RECORD=1)"));
        if want != got {
            failures.push(format!(
                "{path} ({file}): {}",
                first_difference(&want, &got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "games changed:\n{}",
        failures.join("\n")
    );
}
