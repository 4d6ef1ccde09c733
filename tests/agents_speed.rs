//! What the search agents' two ways of going back cost, game by game: a
//! copy into a warm state (`clone_from`) then apply, against make then
//! unmake; for one ply (greedy's lookahead, a tree step) and for a run of
//! moves (a rollout). Ignored by default: it prints times, it asserts only
//! that both ways give the same states. Run it with
//! `cargo test --release --test agents_speed -- --ignored --nocapture`.

use grail::{Action, Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

#[path = "common/positions.rs"]
mod shared;
use shared::{FILES, positions};

#[test]
#[ignore]
fn copy_against_make_unmake() {
    println!("game: one ply copy+apply | make+unmake ; 20-move run copy+apply | make+unmake (ns)");
    for f in FILES {
        let game = Game::load(f).expect("loads");
        let pos = positions(&game, 3, 60);
        let mut best = [u128::MAX; 4];
        for _ in 0..5 {
            let m = measure(f, &game, &pos);
            for (b, x) in best.iter_mut().zip(m) {
                *b = (*b).min(x);
            }
        }
        println!("{f}: {} | {} ; {} | {}", best[0], best[1], best[2], best[3]);
    }
}

/// One round: ns per ply (copy, make), ns per 20-move run (copy, make).
fn measure(f: &str, game: &Game, pos: &[State]) -> [u128; 4] {
    {
        let mut work = pos[0].clone();
        let mut acts: Vec<Action> = Vec::new();
        // one ply, every legal action of every position
        let (mut copy_ns, mut make_ns, mut n) = (0u128, 0u128, 0u128);
        for s in pos {
            s.legal_actions_into(game, &mut acts);
            let t = Instant::now();
            for a in &acts {
                work.clone_from(s);
                let _ = work.apply_unchecked(game, *a);
            }
            copy_ns += t.elapsed().as_nanos();
            work.clone_from(s);
            let t = Instant::now();
            for a in &acts {
                if let Ok(m) = work.make_unchecked(game, *a) {
                    work.unmake(m);
                }
            }
            make_ns += t.elapsed().as_nanos();
            assert!(work.same_as(s), "{f}");
            n += acts.len() as u128;
        }
        // a run of 20 random moves, then back
        let (mut copy_run, mut make_run, mut runs) = (0u128, 0u128, 0u128);
        let mut marks = Vec::new();
        for (i, s) in pos.iter().enumerate() {
            let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
            let t = Instant::now();
            work.clone_from(s);
            for _ in 0..20 {
                work.legal_actions_into(game, &mut acts);
                if acts.is_empty() || work.is_over() {
                    break;
                }
                let a = acts[rng.random_range(0..acts.len())];
                if work.apply_unchecked(game, a).is_err() {
                    break;
                }
            }
            copy_run += t.elapsed().as_nanos();
            work.clone_from(s);
            let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
            let t = Instant::now();
            for _ in 0..20 {
                work.legal_actions_into(game, &mut acts);
                if acts.is_empty() || work.is_over() {
                    break;
                }
                let a = acts[rng.random_range(0..acts.len())];
                match work.make_unchecked(game, a) {
                    Ok(m) => marks.push(m),
                    Err(_) => break,
                }
            }
            while let Some(m) = marks.pop() {
                work.unmake(m);
            }
            make_run += t.elapsed().as_nanos();
            assert!(work.same_as(s), "{f}");
            runs += 1;
        }
        [
            copy_ns / n.max(1),
            make_ns / n.max(1),
            copy_run / runs.max(1),
            make_run / runs.max(1),
        ]
    }
}
