//! The ratio table of docs/performance.md: the engine measured side by side
//! with its references in one run, on one thread, in CPU time.
//!
//! `cargo bench --bench ratios` prints one row per item. Each item runs for
//! about `GRAIL_BENCH_SECS` seconds of CPU time (default 1.5); the whole
//! table takes under a minute. `GRAIL_BENCH_ONLY=chess` runs the rows whose
//! name contains the word. Allocations are counted by a wrapping global
//! allocator.
//!
//! References: a hand-written Rust Tamoul (`ratios/tamoul_hand.rs`, same rules,
//! same uniform random policy) and shakmaty for chess (random playouts with
//! a uniform choice among legal moves and the same 500-ply cap; perft that
//! plays every leaf, as the engine does).

mod tamoul_hand;

use grail::engine::perft::perft;
use grail::{Action, Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.load(Ordering::Relaxed)
}

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}
unsafe extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// CPU time of this thread, in seconds.
fn cpu() -> f64 {
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: a valid pointer to a timespec-shaped struct.
    unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.sec as f64 + ts.nsec as f64 * 1e-9
}

/// Seconds of CPU per row, read once (reading the environment allocates,
/// and `rate` asks after every unit: it would be counted).
fn budget() -> f64 {
    static SECS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *SECS.get_or_init(|| {
        std::env::var("GRAIL_BENCH_SECS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1.5)
    })
}

/// Runs `f` (which returns how many units it did) until the budget is spent;
/// returns (units per CPU second, units, allocations per unit).
fn rate(mut f: impl FnMut() -> u64) -> (f64, u64, f64) {
    let (t0, a0) = (cpu(), allocs());
    let mut units = 0;
    loop {
        units += f();
        let t = cpu() - t0;
        if t >= budget() {
            let a = (allocs() - a0) as f64 / units.max(1) as f64;
            return (units as f64 / t, units, a);
        }
    }
}

fn load(path: &str) -> Game {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    Game::load(&full).unwrap_or_else(|d| panic!("{}", d.render_plain()))
}

/// The engine's random playout: uniform among the legal actions. The
/// game is started in `state`'s buffers (`State::restart`).
fn playout(
    game: &Game,
    state: &mut State,
    players: usize,
    opts: &[i32],
    seed: u64,
    buf: &mut Vec<Action>,
) -> u32 {
    state.restart(game, players, seed, opts).expect("setup");
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    while !state.is_over() {
        state.legal_actions_into(game, buf);
        if buf.is_empty() {
            break;
        }
        let i = if buf.len() > 1 {
            rng.random_range(0..buf.len())
        } else {
            0
        };
        state.apply_unchecked(game, buf[i]).expect("no fault");
    }
    state.decisions()
}

struct Row {
    work: String,
    grail: String,
    reference: String,
    ratio: String,
}

fn row(work: &str, grail: String, reference: String, ratio: String) -> Row {
    println!("  {work}: {grail} | {reference} | {ratio}");
    Row {
        work: work.into(),
        grail,
        reference,
        ratio,
    }
}

fn wanted(name: &str) -> bool {
    match std::env::var("GRAIL_BENCH_ONLY") {
        Ok(w) => name.contains(&w),
        Err(_) => true,
    }
}

fn human(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 1e4 {
        format!("{:.0}k", x / 1e3)
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

fn ratio(a: f64, b: f64) -> String {
    if a >= b {
        format!("{:.1}x", a / b)
    } else {
        format!("1/{:.1}", b / a)
    }
}

/// A shakmaty random playout with the engine's policy and a ply cap.
fn shak_playout(seed: u64, cap: u32) -> u32 {
    use shakmaty::{Chess, Position};
    let mut pos = Chess::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut plies = 0;
    while plies < cap {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        pos.play_unchecked(m);
        plies += 1;
    }
    plies
}

/// Perft that plays every leaf (no bulk counting at depth 1).
fn shak_perft(pos: &shakmaty::Chess, depth: u32) -> u64 {
    use shakmaty::Position;
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_unchecked(m);
        n += shak_perft(&next, depth - 1);
    }
    n
}

const FILES: &[(&str, &str, usize)] = &[
    ("tamoul", "rules/tamoul.rules", 4),
    ("kameloot", "rules/kameloot.rules", 4),
    ("camelot", "rules/camelot.rules", 2),
    ("camelot101", "rules/camelot101.rules", 2),
    ("chess", "examples/chess.rules", 2),
];

fn options(game: &Game, name: &str) -> Vec<i32> {
    let mut opts = game.default_options();
    if name == "chess" {
        // 250 moves by each side: the 500-ply cap of the reference
        game.set_option(&mut opts, "max_moves", "250")
            .expect("chess has max_moves");
    }
    opts
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the command line.
    let mut rows = Vec::new();
    let mut buf = Vec::new();
    println!(
        "grail ratio table (one thread, CPU time, {:.1} s per item)",
        budget()
    );

    for (name, path, players) in FILES {
        let key = format!("playout {name}");
        if !wanted(&key) {
            continue;
        }
        let game = load(path);
        let opts = options(&game, name);
        let mut seed = 0u64;
        let mut decisions = 0u64;
        let mut state = State::new(&game, *players, seed, &opts).expect("setup");
        let (games, n, a) = rate(|| {
            seed += 1;
            decisions += u64::from(playout(&game, &mut state, *players, &opts, seed, &mut buf));
            1
        });
        let per_game = decisions as f64 / n as f64;
        let grail = format!(
            "{} games/s ({} decisions/s, {per_game:.1} a game, {:.2} allocs a game)",
            human(games),
            human(games * per_game),
            a
        );
        match *name {
            "tamoul" => {
                let mut seed = 0u64;
                let mut hd = 0u64;
                let (hg, hn, _) = rate(|| {
                    seed += 1;
                    hd += u64::from(tamoul_hand::play(4, seed));
                    1
                });
                let hper = hd as f64 / hn as f64;
                rows.push(row(
                    &format!("Tamoul, {players} players, random match to 100"),
                    grail,
                    format!(
                        "hand-written Rust: {} games/s ({hper:.1} decisions a game, {:+.1}%)",
                        human(hg),
                        (per_game / hper - 1.0) * 100.0
                    ),
                    ratio(games, hg),
                ));
            }
            "chess" => {
                let mut seed = 0u64;
                let (sg, _, _) = rate(|| {
                    seed += 1;
                    black_box(shak_playout(seed, 500));
                    1
                });
                rows.push(row(
                    "chess random playouts, 500-ply cap",
                    grail,
                    format!("shakmaty: {} games/s", human(sg)),
                    ratio(games, sg),
                ));
            }
            _ => rows.push(row(
                &format!("{name} random playouts, {players} players"),
                grail,
                "-".into(),
                "-".into(),
            )),
        }
    }

    let chess = load("examples/chess.rules");
    let start = State::new(&chess, 2, 1, &chess.default_options()).expect("chess");
    for depth in [3u32, 4] {
        let key = format!("perft({depth}) chess");
        if !wanted(&key) {
            continue;
        }
        let (nodes_s, _, _) = rate(|| perft(&chess, &start, depth));
        let pos = shakmaty::Chess::default();
        let (s_nodes, _, _) = rate(|| shak_perft(&pos, depth));
        rows.push(row(
            &format!("perft({depth}) from the chess start"),
            format!("{} nodes/s", human(nodes_s)),
            format!("shakmaty playing every leaf: {} nodes/s", human(s_nodes)),
            ratio(nodes_s, s_nodes),
        ));
    }

    for (name, path, players) in FILES {
        let key = format!("step clone {name}");
        if !wanted(&key) {
            continue;
        }
        let game = load(path);
        let opts = options(&game, name);
        // legal_actions + apply, over whole games
        let mut seed = 0u64;
        let mut state = State::new(&game, *players, seed, &opts).expect("setup");
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut mids = Vec::new();
        // allocations inside the decisions themselves, apart from starting games
        let (mut in_steps, mut games) = (0u64, 0u64);
        let (steps, units, a) = rate(|| {
            if state.is_over() || state.chooser().is_none() {
                seed += 1;
                games += 1;
                state.restart(&game, *players, seed, &opts).expect("setup");
            }
            let a0 = allocs();
            state.legal_actions_into(&game, &mut buf);
            if buf.is_empty() {
                in_steps += allocs() - a0;
                seed += 1;
                games += 1;
                state.restart(&game, *players, seed, &opts).expect("setup");
                return 0;
            }
            let i = rng.random_range(0..buf.len());
            state.apply_unchecked(&game, buf[i]).expect("no fault");
            in_steps += allocs() - a0;
            if mids.len() < 64 && state.decisions() == 20 {
                mids.push(state.clone());
            }
            1
        });
        rows.push(row(
            &format!("{name}: legal_actions + apply"),
            format!(
                "{:.0} ns a decision; allocs a decision {:.4} in the decision, {a:.2} with new games ({} games)",
                1e9 / steps,
                in_steps as f64 / units.max(1) as f64,
                games
            ),
            "-".into(),
            "-".into(),
        ));
        if mids.is_empty() {
            mids.push(state.clone());
        }
        let mut k = 0;
        let (clones, _, a) = rate(|| {
            for _ in 0..100 {
                k = (k + 1) % mids.len();
                black_box(mids[k].clone());
            }
            100
        });
        rows.push(row(
            &format!("{name}: state clone (20 decisions in)"),
            format!("{:.0} ns, {a:.1} allocs", 1e9 / clones),
            "-".into(),
            "-".into(),
        ));
        // a copy into a warm state (what search and perft do)
        let mut into = mids[0].clone();
        let (copies, _, a) = rate(|| {
            for _ in 0..100 {
                k = (k + 1) % mids.len();
                into.clone_from(&mids[k]);
                black_box(&into);
            }
            100
        });
        rows.push(row(
            &format!("{name}: state clone_from into a warm state"),
            format!(
                "{:.0} ns, {a:.2} allocs, {:.0} bytes copied",
                1e9 / copies,
                mids.iter().map(State::copy_bytes).sum::<usize>() as f64 / mids.len() as f64
            ),
            "-".into(),
            "-".into(),
        ));
    }

    println!();
    println!("| work | grail | reference | ratio |");
    println!("|---|---|---|---|");
    for r in rows {
        println!(
            "| {} | {} | {} | {} |",
            r.work, r.grail, r.reference, r.ratio
        );
    }
}
