//! Engine benchmarks on rules/tamoul.rules at 4 players: whole random
//! playouts (games per second), single steps (legal actions + agent +
//! apply), cloning a state, and a batch through the simulator on one thread.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grail::agent::{Agent, RandomAgent};
use grail::sim::{SimConfig, simulate};
use grail::{Action, Game, State};
use std::hint::black_box;

const PLAYERS: usize = 4;

fn game() -> Game {
    Game::load(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/tamoul.rules"))
        .expect("the rules compile")
}

/// One random game from `seed` to its end; returns the decisions taken.
fn playout(game: &Game, opts: &[i32], seed: u64, buf: &mut Vec<Action>) -> u32 {
    let mut state = State::new(game, PLAYERS, seed, opts).expect("setup");
    let mut agent = RandomAgent::new(seed ^ 0x5eed);
    while !state.is_over() {
        state.legal_actions_into(game, buf);
        let i = agent.choose(game, &state, buf);
        state.apply_unchecked(game, buf[i]).expect("no fault");
    }
    state.decisions()
}

fn benches(c: &mut Criterion) {
    let game = game();
    let opts = game.default_options();
    let mut buf = Vec::new();

    let mut g = c.benchmark_group("random-playout-4p");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("game", |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout(&game, &opts, seed, &mut buf))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("step-4p");
    g.throughput(Throughput::Elements(1));
    let mut seed = 1u64;
    let mut state = State::new(&game, PLAYERS, seed, &opts).expect("setup");
    let mut agent = RandomAgent::new(7);
    g.bench_function("legal_actions+apply", |b| {
        b.iter(|| {
            if state.is_over() {
                seed += 1;
                state = State::new(&game, PLAYERS, seed, &opts).expect("setup");
            }
            state.legal_actions_into(&game, &mut buf);
            let i = agent.choose(&game, &state, &buf);
            state.apply_unchecked(&game, buf[i]).expect("no fault");
        })
    });
    // A position a few decisions into a game, for the read-only benches.
    let mut mid = State::new(&game, PLAYERS, 3, &opts).expect("setup");
    for _ in 0..6 {
        mid.legal_actions_into(&game, &mut buf);
        let i = agent.choose(&game, &mid, &buf);
        mid.apply_unchecked(&game, buf[i]).expect("no fault");
    }
    assert!(!mid.is_over());
    g.bench_function("legal_actions", |b| {
        b.iter(|| {
            mid.legal_actions_into(&game, &mut buf);
            black_box(buf.len())
        })
    });
    g.bench_function("clone", |b| b.iter(|| black_box(mid.clone())));
    g.finish();

    let mut g = c.benchmark_group("simulate-4p");
    const GAMES: u64 = 200;
    g.throughput(Throughput::Elements(GAMES));
    g.sample_size(20);
    let mut cfg = SimConfig::new(&game, PLAYERS, GAMES);
    cfg.jobs = Some(1);
    g.bench_function("200-games-1-thread", |b| {
        b.iter(|| black_box(simulate(&game, &cfg).finished))
    });
    g.finish();
}

criterion_group!(engine, benches);
criterion_main!(engine);
