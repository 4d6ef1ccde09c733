//! Playing the games of one column on all cores (rayon): each thread folds
//! its games into its own [`Stats`], and the partial stats are merged. The
//! result depends only on the rules, the column and the range of games,
//! never on the number of threads or the order games finish in.

use super::playout::{Table, play};
use super::stats::Stats;
use rayon::prelude::*;
use std::ops::Range;

/// Play games `range` of the run seeded `seed` at this table; `tick` is
/// called after each game (for progress bars).
pub fn column(t: &Table, seed: u64, range: Range<u64>, tick: &(dyn Fn() + Sync)) -> Stats {
    let empty = || Stats::empty(t.layout, t.players);
    range
        .into_par_iter()
        .fold(
            || (empty(), Vec::new()),
            |(mut stats, mut buf), i| {
                play(t, seed, i, &mut buf, &mut stats, None);
                tick();
                (stats, buf)
            },
        )
        .map(|(stats, _)| stats)
        .reduce(empty, |mut a, b| {
            a.merge(&b);
            a
        })
}

/// Run `work` on `jobs` threads, or on rayon's global pool (all cores).
pub fn with_jobs<T: Send>(jobs: Option<usize>, work: impl FnOnce() -> T + Send) -> T {
    match jobs {
        Some(n) => match rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
        {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        },
        None => work(),
    }
}
