//! The exploration of one simulated file: what its random games covered
//! and met, the decision limit of explored games, and the test of whether
//! anything the random games missed is still unreached (the `never-fired`
//! lint run on the coverage so far).

use super::explore::{Budget, Explored, Setup, explore};
use super::lints::Context;
use super::lints::never_fired::{self, Coverage};
use super::plan::{Column, Plan};
use super::playout::Table;
use super::stats::{Layout, Stats};
use crate::agent::AgentKind;
use crate::diag::Diagnostic;
use crate::engine::Game;

/// Explore `game` after the random games `stats` of its `columns`;
/// `silenced` says which never-fired findings a comment silences (they
/// are not left to reach).
#[allow(clippy::too_many_arguments)]
pub fn file(
    (cx, silenced): (&Context, &dyn Fn(&Diagnostic) -> bool),
    game: &Game,
    layout: &Layout,
    columns: &[Column],
    stats: &[Stats],
    plan: &Plan,
    agent: AgentKind,
    budget: Budget,
) -> Explored {
    let (mut nodes, mut arms) = (vec![0u64; layout.nodes], vec![0u64; layout.arms]);
    let mut longest = 0u32;
    for s in stats {
        for (a, b) in nodes.iter_mut().zip(&s.nodes) {
            *a += b;
        }
        for (a, b) in arms.iter_mut().zip(&s.arms) {
            *a += b;
        }
        longest = longest.max(s.decisions.max());
    }
    // Random games that stopped on an error leave coverage unknown: only
    // hunt for faults then.
    let judged = stats.iter().all(|s| s.errors() == 0);
    let known = stats
        .iter()
        .flat_map(|s| s.incidents.keys().copied())
        .collect();
    // Explored games play like random ones, only steered: twice the
    // longest random game is long enough, and bounds a game that loops.
    let limit = if longest > 0 {
        longest
            .saturating_mul(2)
            .saturating_add(100)
            .min(plan.max_decisions)
    } else {
        plan.max_decisions
    };
    let setup = Setup {
        tables: columns
            .iter()
            .map(|c| Table {
                game,
                layout,
                players: c.players,
                options: &c.options,
                agent,
                max_decisions: plan.max_decisions,
            })
            .collect(),
        layout,
        nodes: &nodes,
        arms: &arms,
        known,
        limit,
        seed: plan.seed,
    };
    let cols: Vec<(&[i32], usize)> = columns
        .iter()
        .map(|c| (c.options.as_slice(), c.players))
        .collect();
    let left = |n: &[u64], a: &[u64]| {
        if !judged {
            return false;
        }
        let cov = Coverage {
            layout,
            nodes: n,
            arms: a,
            games: String::new(),
            columns: cols.clone(),
        };
        let (mut out, mut gated) = (Vec::new(), Vec::new());
        never_fired::run(cx, &cov, &mut out, &mut gated);
        out.iter().any(|d| !silenced(d))
    };
    explore(&setup, budget, &left)
}
