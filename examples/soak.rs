//! The soak (docs/reliability.md, "Soak"): random playouts of every shipped
//! rules file (`rules/`, its variants in `rules/camelot101/`, `examples/`),
//! each with a random player count and, one time in two, random option
//! values (each option at its default or anywhere in its range). After
//! every action: the cards are conserved, no invariant is broken, and a game
//! that is not over has a legal action; a panic is caught and counted.
//! Playout `i` depends only on `--seed` and `i`, so a failure is replayed
//! with `--from I --playouts 1`; a failure also writes a REPL script of its
//! moves (`soak-I.grail` in the system's temporary folder) for
//! `grail play FILE --players N --seed S [--set ...] --script soak-I.grail`.
//! Exits 1 on any failure.
//!
//! ```text
//! cargo run --release --example soak -- [--playouts N] [--seed S] [--from I]
//!     [--jobs J] [--max-steps M]
//! ```

use grail::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Counts of one soak (added up over threads).
#[derive(Default)]
struct Counts {
    playouts: AtomicU64,
    steps: AtomicU64,
    finished: AtomicU64,
    capped: AtomicU64,
    refused: AtomicU64,
    optioned: AtomicU64,
}

struct Args {
    playouts: u64,
    seed: u64,
    from: u64,
    jobs: usize,
    max_steps: u64,
}

fn args() -> Args {
    let mut a = Args {
        playouts: 10_000,
        seed: 0,
        from: 0,
        jobs: 1,
        max_steps: 10_000,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().and_then(|v| v.parse::<u64>().ok());
        let Some(v) = value else {
            eprintln!("soak: {flag} needs a whole number (see the top of examples/soak.rs)");
            std::process::exit(2);
        };
        match flag.as_str() {
            "--playouts" => a.playouts = v,
            "--seed" => a.seed = v,
            "--from" => a.from = v,
            "--jobs" => a.jobs = v.clamp(1, 256) as usize,
            "--max-steps" => a.max_steps = v.max(1),
            _ => {
                eprintln!("soak: unknown flag {flag}");
                std::process::exit(2);
            }
        }
    }
    a
}

fn games() -> Vec<(String, Game)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    ["examples", "rules"]
        .iter()
        .flat_map(|d| grail::load::rules_files(&root.join(d)).expect("a rules directory"))
        .map(|p| {
            let g = Game::load(&p).unwrap_or_else(|d| panic!("{}", d.render_plain()));
            let name = p.strip_prefix(root).unwrap_or(&p).display().to_string();
            (name, g)
        })
        .collect()
}

/// What went wrong in one playout, with what replays it.
fn failure(i: u64, name: &str, players: usize, opts: &[String], what: String) -> String {
    format!(
        "playout {i}: {name}, {players} players, options [{}]: {what}",
        opts.join(" ")
    )
}

/// Play playout `i`; `Err` holds a failure.
fn playout(
    i: u64,
    a: &Args,
    all: &[(String, Game)],
    counts: &Counts,
    acts: &mut Vec<grail::Action>,
    picks: &mut Vec<String>,
) -> Result<(), String> {
    picks.clear();
    let mut rng = ChaCha8Rng::seed_from_u64(grail::sim::game_seed(a.seed, i));
    let (name, game) = &all[rng.random_range(0..all.len())];
    let (lo, hi) = game.players();
    let players = rng.random_range(lo..=hi);
    let mut opts = game.default_options();
    let mut shown = Vec::new();
    if rng.random_bool(0.5) {
        counts.optioned.fetch_add(1, Ordering::Relaxed);
        for (o, v) in game.options().iter().zip(opts.iter_mut()) {
            if rng.random_bool(0.5) {
                *v = rng.random_range(o.min..=o.max);
                shown.push(format!("{}={v}", o.name));
            }
        }
    }
    let seed: u64 = rng.random();
    let mut s = match State::new(game, players, seed, &opts) {
        Ok(s) => s,
        Err(_) => {
            // Options that do not make a game are refused with an error:
            // that is the clear refusal asked for, not a failure.
            counts.refused.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
    };
    let fail = |what: String, picks: &[String]| {
        // moves by label: the REPL offers identical moves once, so a number
        // in the engine's full list would not be the REPL's number
        let mut script: String = picks.iter().map(|l| format!("play {l}\n")).collect();
        script.push_str("moves\n");
        let path = std::env::temp_dir().join(format!("soak-{i}.grail"));
        let sets: String = shown.iter().map(|s| format!(" --set {s}")).collect();
        let replay = match std::fs::write(&path, script) {
            Ok(()) => format!(
                "\n    grail play {name} --players {players} --seed {seed}{sets} --script {}",
                path.display()
            ),
            Err(_) => String::new(),
        };
        Err(failure(i, name, players, &shown, what + &replay))
    };
    let mut steps = 0;
    while !s.is_over() {
        if steps == a.max_steps {
            counts.capped.fetch_add(1, Ordering::Relaxed);
            counts.steps.fetch_add(steps, Ordering::Relaxed);
            return Ok(());
        }
        s.legal_actions_into(game, acts);
        if acts.is_empty() {
            return fail(
                format!("step {steps}: not over, yet no legal action"),
                picks,
            );
        }
        let pick = rng.random_range(0..acts.len());
        picks.push(s.label(game, acts[pick]));
        if let Err(e) = s.apply(game, acts[pick]) {
            let why = format!("step {steps}: applying a legal action failed: {e}");
            return fail(why, picks);
        }
        if let Err(e) = s.check_conservation(game) {
            return fail(format!("step {steps}: cards not conserved: {e}"), picks);
        }
        if let Some(b) = s.broken_invariant(game) {
            return fail(format!("step {steps}: invariant broken: {b}"), picks);
        }
        steps += 1;
    }
    counts.finished.fetch_add(1, Ordering::Relaxed);
    counts.steps.fetch_add(steps, Ordering::Relaxed);
    Ok(())
}

fn main() {
    let a = args();
    let started = Instant::now();
    let all = games();
    let counts = Counts::default();
    let failures = Mutex::new(Vec::new());
    let next = AtomicU64::new(a.from);
    let end = a.from.saturating_add(a.playouts);
    std::panic::set_hook(Box::new(|_| {}));
    std::thread::scope(|scope| {
        for _ in 0..a.jobs {
            scope.spawn(|| {
                let mut acts = Vec::new();
                let mut picks = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= end {
                        break;
                    }
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        playout(i, &a, &all, &counts, &mut acts, &mut picks)
                    }));
                    counts.playouts.fetch_add(1, Ordering::Relaxed);
                    let why = match r {
                        Ok(Ok(())) => continue,
                        Ok(Err(why)) => why,
                        Err(p) => {
                            let msg = p
                                .downcast_ref::<String>()
                                .cloned()
                                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                                .unwrap_or_default();
                            format!("playout {i}: panicked: {msg}")
                        }
                    };
                    if let Ok(mut f) = failures.lock() {
                        f.push(why);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_default();
    let secs = started.elapsed().as_secs_f64();
    let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
    println!(
        "soak: {} playouts (from {}, seed {}) of {} rules files in {secs:.1} s, {:.0} a second, {} threads",
        n(&counts.playouts),
        a.from,
        a.seed,
        all.len(),
        n(&counts.playouts) as f64 / secs.max(1e-9),
        a.jobs
    );
    println!(
        "soak: {} steps checked; {} games finished, {} cut at {} steps, {} with random options ({} of them refused at the start)",
        n(&counts.steps),
        n(&counts.finished),
        n(&counts.capped),
        a.max_steps,
        n(&counts.optioned),
        n(&counts.refused)
    );
    println!("soak: {} failures", failures.len());
    for f in failures.iter().take(20) {
        println!("  {f}");
    }
    if !failures.is_empty() {
        println!(
            "  (replay one with --seed {} --from I --playouts 1)",
            a.seed
        );
        std::process::exit(1);
    }
}
