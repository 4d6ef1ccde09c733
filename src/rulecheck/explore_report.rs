//! What guided exploration (`explore.rs`) changes in a report: code that
//! no random game ran but an explored game did is no longer a `never-fired`
//! warning but a note, with when exploration reached it and a command that
//! replays that game up to there; code that neither reached stays a
//! warning, which says what the exploration tried.

use super::evidence::{Input, evidence};
use super::explore::{Explored, Reach};
use super::lints::never_fired::{self, Coverage};
use crate::diag::Parts;
use crate::diag::{Diagnostic, Span};
use crate::graph::Node;
use std::collections::BTreeSet;

/// A never-fired finding's identity: where it is and what it says.
fn key(d: &Diagnostic) -> (u32, u32, String) {
    let s = d.span().unwrap_or(Span::new(0, 0));
    (s.start, s.end, d.message.clone())
}

/// The never-fired findings `before` (from the random games alone) judged
/// again with the explored games counted in: those still unreached are
/// returned (with what exploration tried), the others become `notes`.
pub fn judge(
    input: &Input,
    x: &Explored,
    cov: &Coverage,
    before: Vec<Diagnostic>,
    notes: &mut Vec<String>,
) -> Vec<Diagnostic> {
    let add = |a: &[u64], b: &[u64]| -> Vec<u64> {
        a.iter()
            .zip(b.iter().chain(std::iter::repeat(&0)))
            .map(|(x, y)| x + y)
            .collect()
    };
    let (nodes, arms) = (add(cov.nodes, &x.nodes), add(cov.arms, &x.arms));
    let all = Coverage {
        layout: cov.layout,
        nodes: &nodes,
        arms: &arms,
        games: cov.games.clone(),
        columns: cov.columns.clone(),
    };
    notes.push(coverage_note(input, x, cov, &nodes, &arms));
    let (mut after, mut gated) = (Vec::new(), Vec::new());
    never_fired::run(input.cx, &all, &mut after, &mut gated);
    let still: BTreeSet<_> = after.iter().map(key).collect();
    for d in &before {
        if !still.contains(&key(d)) {
            notes.push(note(input, x, d, &cov.games));
        }
    }
    let tried = |near: String| {
        format!(
            "guided exploration played {} more games in {:.1} s, keeping {} lines of play that reached something new and preferring every option never taken, and did not reach it either{near}: check the conditions that lead here",
            x.games,
            x.millis as f64 / 1000.0,
            x.corpus
        )
    };
    after
        .into_iter()
        .map(|d| {
            let near = match nearest(input, x, &d) {
                Some(n) => format!(
                    " (its nearest game came within {n} of taking this branch, counted as the condition's distance: 0 takes it; a longer --explore may reach it)"
                ),
                None => String::new(),
            };
            d.help(tried(near))
        })
        .collect()
}

/// How near the explored games came to taking a branch that finding `d`
/// labels (a guard on one of its labels' lines), where that is a count
/// (under [`FAR`](super::explore_dist::FAR): a failed test of a card or a
/// yes/no says nothing).
fn nearest(input: &Input, x: &Explored, d: &Diagnostic) -> Option<u32> {
    let lines: BTreeSet<usize> = d
        .labels
        .iter()
        .map(|(s, _)| input.cx.source.line_of(s.start))
        .collect();
    x.nearest
        .iter()
        .filter(|(p, n, _)| lines.contains(&input.game.line_of(*p, *n)))
        .map(|t| t.2)
        .min()
        .filter(|d| *d > 0 && *d < super::explore_dist::FAR)
}

/// `guided exploration: 2000 games in 1.3 s (corpus 168); code that can
/// run reached: 97.1% -> 98.4% of nodes, 95.0% -> 97.5% of options`.
fn coverage_note(
    input: &Input,
    x: &Explored,
    cov: &Coverage,
    nodes: &[u64],
    arms: &[u64],
) -> String {
    let live = input.cx.liveness();
    let layout = input.layout;
    let (mut total, mut before, mut after) = (0u64, 0u64, 0u64);
    for (p, flags) in live.nodes.iter().enumerate() {
        for (n, alive) in flags.iter().enumerate() {
            if !alive {
                continue;
            }
            let i = layout.node(p as u16, n as u32);
            total += 1;
            before += u64::from(cov.nodes.get(i).is_some_and(|c| *c > 0));
            after += u64::from(nodes.get(i).is_some_and(|c| *c > 0));
        }
    }
    let pct = |a: u64, b: u64| {
        if b == 0 {
            100.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    let (ab, aa) = (
        cov.arms.iter().filter(|c| **c > 0).count() as u64,
        arms.iter().filter(|c| **c > 0).count() as u64,
    );
    let n_arms = layout.arms as u64;
    format!(
        "guided exploration: {} games in {:.1} s (corpus {}); reached {:.1}% -> {:.1}% of the nodes that can run ({before} -> {after} of {total}), {:.1}% -> {:.1}% of the options ({ab} -> {aa} of {n_arms})",
        x.games,
        x.millis as f64 / 1000.0,
        x.corpus,
        pct(before, total),
        pct(after, total),
        pct(ab, n_arms),
        pct(aa, n_arms),
    )
}

/// The first explored game that ran code inside `span`, or took the
/// option labelled there.
fn reach(input: &Input, x: &Explored, span: Span) -> Option<Reach> {
    let layout = input.layout;
    let mut best: Option<Reach> = None;
    let mut consider = |r: Option<Reach>| {
        if let Some(r) = r
            && best.is_none_or(|b| (r.find, r.moves) < (b.find, b.moves))
        {
            best = Some(r);
        }
    };
    for (p, ph) in input.game.graph().phases.iter().enumerate() {
        for (n, s) in ph.spans.iter().enumerate() {
            let flat = layout.node(p as u16, n as u32);
            if s.start >= span.start && s.end <= span.end {
                consider(x.first_node.get(flat).copied().flatten());
            }
            let Some(Node::Choose { arms, .. }) = ph.nodes.get(n) else {
                continue;
            };
            if !(s.start <= span.start && s.end >= span.end) {
                continue;
            }
            // the option labelled at `span`: the first whose body follows it
            let arm = (0..arms.len())
                .filter_map(|j| {
                    let at = ph.spans.get(arms[j].target as usize)?.start;
                    (at >= span.end).then_some((at, j))
                })
                .min();
            if let Some((_, j)) = arm
                && let Some(k) = layout.arm(p as u16, n as u32, j as u16)
            {
                consider(x.first_arm.get(k).copied().flatten());
            }
        }
    }
    best
}

/// `line 195 never ran in 1000 random games; guided exploration reached it
/// after 0.42 s (its game 812); reproduce: ...`.
fn note(input: &Input, x: &Explored, d: &Diagnostic, games: &str) -> String {
    let span = d.span().unwrap_or(Span::new(0, 0));
    let line = match Parts::of(input.cx.source) {
        Some(parts) => parts.where_is(span.start),
        None => format!("line {}", input.cx.source.line_of(span.start)),
    };
    let what = if d.message.starts_with("this option") {
        "was never chosen"
    } else {
        "never ran"
    };
    let Some(r) = reach(input, x, span) else {
        return format!(
            "{line} {what} in the {games} played at random; guided exploration reached it"
        );
    };
    let Some(f) = x.finds.get(r.find as usize) else {
        return format!(
            "{line} {what} in the {games} played at random; guided exploration reached it"
        );
    };
    let moves: Vec<u32> = f
        .picks
        .iter()
        .take(r.moves as usize)
        .map(|p| p + 1)
        .collect();
    let ev = evidence(input, f.column, f.game, f.seed, moves, false, "");
    format!(
        "{line} {what} in the {games} played at random; guided exploration reached it after {:.2} s (its game {}); reproduce: {}",
        f.millis as f64 / 1000.0,
        f.game,
        ev.repro
    )
}
