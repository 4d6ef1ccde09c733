//! Playing the games of one column on all cores (rayon): each thread folds
//! its games into its own [`Stats`], and the partial stats are merged. The
//! result depends only on the rules, the column and the range of games,
//! never on the number of threads or the order games finish in.
//!
//! A column whose games do not end stops after [`HUNG_LIMIT`] of them
//! (at the end of a chunk of games, so the result stays deterministic).
//!
//! A panic in the engine is caught per game and counted as a `rule-fault`
//! of that game (so a bug in the engine gets a seed and a reproduction
//! instead of stopping the run).

use super::playout::{Seat, Table, play};
use super::stats::{At, Incident, Kind, Stats};
use crate::interrupt;
use crate::sim::game_seed;
use rayon::prelude::*;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};

pub use crate::playout::with_jobs;

/// Moves of an incident that replays every move made before a panic.
pub const ALL_MOVES: u32 = u32::MAX;

/// The message of a caught panic.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into());
    format!("the engine panicked: {text}")
}

/// Play one game in `seat` into `stats`, turning a panic into an incident
/// (and dropping the seat's state, which the panic may have left half
/// changed).
pub fn guarded(t: &Table, seed: u64, index: u64, seat: &mut Seat, stats: &mut Stats) {
    let r = catch_unwind(AssertUnwindSafe(|| play(t, seed, index, seat, stats, None)));
    if let Err(payload) = r {
        seat.forget_state();
        stats.incident(
            Kind::RuleFault,
            At::Game,
            Incident {
                game: index,
                seed: game_seed(seed, index),
                moves: ALL_MOVES,
                failing_move: false,
                message: panic_message(payload.as_ref()),
            },
        );
    }
}

/// A column stops once this many of its games did not end (hung or
/// runaway): more of them would only take time and say the same.
pub const HUNG_LIMIT: u64 = 20;
/// Games are played in chunks of this many, so that where a column stops
/// does not depend on the number of threads.
const CHUNK: u64 = 64;

/// Play games `range` of the run seeded `seed` at this table; `tick` is
/// called after each game (for progress bars). Stops early, after a whole
/// chunk, once [`HUNG_LIMIT`] games did not end, and at once after a
/// Ctrl-C caught by [`crate::interrupt`] (the games begun are finished
/// and counted; the others are not played).
pub fn column(t: &Table, seed: u64, range: Range<u64>, tick: &(dyn Fn() + Sync)) -> Stats {
    let mut all = Stats::empty(t.layout, t.players);
    let mut at = range.start;
    while at < range.end && !interrupt::interrupted() {
        let end = (at + CHUNK).min(range.end);
        // counts of played games stay far below u64::MAX
        let exact = all.merge(&chunk(t, seed, at..end, tick));
        debug_assert!(exact);
        at = end;
        let hung: u64 = all
            .incidents
            .iter()
            .filter(|((k, _), _)| *k == Kind::DoesNotEnd)
            .map(|(_, l)| l.count)
            .sum();
        if hung >= HUNG_LIMIT {
            break;
        }
    }
    all
}

fn chunk(t: &Table, seed: u64, range: Range<u64>, tick: &(dyn Fn() + Sync)) -> Stats {
    let empty = || Stats::empty(t.layout, t.players);
    range
        .into_par_iter()
        .fold(
            || (empty(), Seat::default()),
            |(mut stats, mut seat), i| {
                if !interrupt::interrupted() {
                    guarded(t, seed, i, &mut seat, &mut stats);
                    tick();
                }
                (stats, seat)
            },
        )
        .map(|(stats, _)| stats)
        .reduce(empty, |mut a, b| {
            let exact = a.merge(&b);
            debug_assert!(exact);
            a
        })
}
