//! The options that shut the way to a target, for guided exploration
//! (`explore.rs`). An aimed game steers its target's measure (the proxy,
//! `explore_proxy.rs`) one move at a time; but an option can leave that
//! measure as it is and still shut off every later chance to move it.
//! In a memory game, `"call" { p.called = true }` changes no card, yet the
//! cards that would empty a row move only in `for q in order(actor) where
//! not q.called`: a line that empties a row must not call until then.
//!
//! Such an option is read off the rules, not learned: its body begins by
//! setting a variable to a constant, and with that value a gate (an `if`
//! or `while` condition, a `for` filter, an option's `when` or filter)
//! around a statement that writes what the proxy reads can no longer hold.
//! Which player's or card's variable is written is not looked at: a seat's
//! call is taken to shut the way for every seat, as ending a round does.
//! Half the games aimed at a target with such options avoid them wherever
//! another option is offered (`explore_play.rs`).
//!
//! A statement writes what the proxy reads when it assigns a variable the
//! proxy reads, or moves, deals or swaps cards to or from a zone it reads,
//! or moves a card held in a local (whose zone is not known here).

use super::gate::{Need, fold, needs};
use super::stats::Layout;
use crate::graph::{Graph, Node, Phase};
use crate::hir::{Expr, Place};
use crate::syntax::ast::AssignOp;

/// The zones and variables an expression reads.
#[derive(Default)]
struct Reads {
    zones: Vec<u16>,
    vars: Vec<u16>,
}

fn reads(e: &Expr, r: &mut Reads) {
    match e {
        Expr::Zone(z, _) | Expr::ZoneAll(z) => r.zones.push(*z),
        Expr::Global(v) | Expr::PerPlayer(v, _) | Expr::PerCard(v, _) => r.vars.push(*v),
        _ => {}
    }
    e.for_each_child(|x| reads(x, r));
}

/// Whether `e` names one of `zones`, or is a card held in a local.
fn touches(e: &Expr, zones: &[u16]) -> bool {
    match e {
        Expr::Zone(z, _) | Expr::ZoneAll(z) => zones.contains(z),
        Expr::Local(_) => true,
        _ => {
            let mut any = false;
            e.for_each_child(|x| any = any || touches(x, zones));
            any
        }
    }
}

/// Whether node `n` writes what `r` reads.
fn writes(n: &Node, r: &Reads) -> bool {
    let z = |e: &Expr| !r.zones.is_empty() && touches(e, &r.zones);
    match n {
        Node::Move { what, to, .. } => z(what) || z(to),
        Node::MoveAll { from, to, .. } | Node::Deal(_, from, to) => z(from) || z(to),
        Node::Swap(a, b) => z(a) || z(b),
        Node::Assign(Place::Global(v) | Place::PerPlayer(v, _) | Place::PerCard(v, _), ..) => {
            r.vars.contains(v)
        }
        _ => false,
    }
}

/// The gates of a phase: the nodes each holds (`first..end`) and its
/// condition.
fn gates(ph: &Phase) -> Vec<(usize, usize, &Expr)> {
    let mut out = Vec::new();
    for (j, n) in ph.nodes.iter().enumerate() {
        match n {
            Node::JumpIfNot(c, t) if *t as usize > j => out.push((j + 1, *t as usize, c)),
            Node::ForNext {
                filter: Some(f),
                exit,
                ..
            } if *exit as usize > j => out.push((j + 1, *exit as usize, f)),
            Node::Choose {
                arms, otherwise, ..
            } => {
                // the bodies follow each other; each but the last ends with
                // a jump to the end of the choice (or out of a window)
                let mut starts: Vec<usize> = arms.iter().map(|a| a.target as usize).collect();
                starts.extend(otherwise.map(|o| o as usize));
                starts.sort_unstable();
                let end =
                    starts
                        .windows(2)
                        .find_map(|w| match ph.nodes.get(w[1].checked_sub(1)?) {
                            Some(Node::Jump(t) | Node::Exit { target: t, .. }) => Some(*t as usize),
                            _ => None,
                        });
                for a in arms {
                    let first = a.target as usize;
                    let Some(last) = starts.iter().find(|s| **s > first).copied().or(end) else {
                        continue;
                    };
                    let conds = a
                        .guard
                        .iter()
                        .chain(a.bind.iter().filter_map(|b| b.filter.as_ref()));
                    out.extend(conds.map(|c| (first, last, c)));
                }
            }
            _ => {}
        }
    }
    out
}

/// The value of `e` with variable `v` read as `c`, where that is all it
/// reads (`None` otherwise).
fn with_var(e: &Expr, v: u16, c: i32) -> Option<i32> {
    Some(match e {
        Expr::Int(x) => *x,
        Expr::Global(w) | Expr::PerPlayer(w, _) | Expr::PerCard(w, _) if *w == v => c,
        Expr::Not(a) => i32::from(with_var(a, v, c)? == 0),
        Expr::Neg(a) => with_var(a, v, c)?.checked_neg()?,
        Expr::Bin(op, a, b) => fold(*op, with_var(a, v, c)?, with_var(b, v, c)?)?,
        _ => return None,
    })
}

/// The constants an option's body begins by setting: (variable, value).
fn sets(ph: &Phase, first: usize) -> Vec<(u16, i32)> {
    ph.nodes[first.min(ph.nodes.len())..]
        .iter()
        .map_while(|n| match n {
            Node::Assign(
                Place::Global(v) | Place::PerPlayer(v, _) | Place::PerCard(v, _),
                AssignOp::Set,
                e,
            ) => Some(with_var(e, u16::MAX, 0).map(|c| (*v, c))),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The flat arms (`Layout::arm`), in order, of the options that shut the
/// way to what `proxy` measures.
pub(super) fn shut(g: &Graph, layout: &Layout, proxy: &Expr) -> Vec<usize> {
    let mut r = Reads::default();
    reads(proxy, &mut r);
    // what the gates around a statement that writes it need
    let mut held: Vec<Need> = Vec::new();
    for ph in &g.phases {
        let movers: Vec<usize> = (0..ph.nodes.len())
            .filter(|&i| writes(&ph.nodes[i], &r))
            .collect();
        for (first, end, c) in gates(ph) {
            if movers.iter().any(|m| (first..end).contains(m)) {
                needs(c, true, &mut held);
            }
        }
    }
    let closes = |v: u16, c: i32| {
        held.iter()
            .any(|n| with_var(n.expr, v, c).is_some_and(|x| (x != 0) != n.want))
    };
    let mut out = Vec::new();
    for (p, ph) in g.phases.iter().enumerate() {
        for (n, node) in ph.nodes.iter().enumerate() {
            let Node::Choose { arms, .. } = node else {
                continue;
            };
            for (k, a) in arms.iter().enumerate() {
                if sets(ph, a.target as usize)
                    .iter()
                    .any(|(v, c)| closes(*v, *c))
                    && let Some(f) = layout.arm(p as u16, n as u32, k as u16)
                {
                    out.push(f);
                }
            }
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
#[path = "explore_keep_tests.rs"]
mod tests;
