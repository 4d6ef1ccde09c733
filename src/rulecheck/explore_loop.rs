//! The branch distance (`explore_branch.rs`) of a guard that follows a loop,
//! taken through the loop: its weakest precondition, measured where the
//! loop starts.
//!
//! A loop whose every statement that can change the state sits in an `if`
//! that also tests the guard's own condition the wanted way (`for u in
//! 0..7 { if count(cell(u, r)) == 0 and not placed(c) { move c to cell(u,
//! r) } }` before `if not placed(c)`) leaves the guard going the wanted
//! way exactly when none of those `if`s ran. Where the guard runs, the
//! loop has already run, and its distance says only what the loop did
//! (which square it took), not how near the loop came to doing nothing.
//! So the distance is measured at the loop's start instead: how far the
//! guard's condition is from holding there, plus the number of the loop's
//! iterations whose `if` would run (their other conditions, for every
//! value of the loop's variables, `let`s within it taken as written).
//!
//! Sound by construction: 0 means the condition holds before the loop and
//! no `if` that could change the state runs in it (the state is then the
//! same at every iteration, so each `if` is judged as it will be), so the
//! guard goes the wanted way. A loop with anything else that writes (a
//! statement outside such an `if`, a `break`, an assignment to a local the
//! guard reads, an `else` that writes) is not taken through: the guard
//! keeps its own distance.

use super::explore_dist::{Dist, as_expr, build};
use crate::graph::{Graph, Node};
use crate::hir::{Expr, Place};
use crate::syntax::ast::{AggKind, AssignOp, BinOp};

/// For the guard `cond` at node `n` of phase `p`, wanted `want`: where to
/// measure it (the loop's `ForStart`) and its distance there, if the node
/// before it closes a loop that can be taken through.
pub(super) fn after_loop(
    g: &Graph,
    p: usize,
    n: usize,
    cond: &Expr,
    want: bool,
) -> Option<(u32, Dist)> {
    let nodes = &g.phases.get(p)?.nodes;
    let Node::Jump(head) = nodes.get(n.checked_sub(1)?)? else {
        return None;
    };
    let start = (*head as usize).checked_sub(1)?;
    let w = Walk { nodes, cond, want };
    let (count, end) = w.for_loop(start)?;
    if end != n {
        return None;
    }
    let before = as_expr(&build(g, p as u16, cond, want, &[]));
    Some((start as u32, Dist::Num(bin(BinOp::Add, before, count))))
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Bin(op, Box::new(a), Box::new(b))
}

struct Walk<'a> {
    nodes: &'a [Node],
    cond: &'a Expr,
    want: bool,
}

impl Walk<'_> {
    /// The loop starting at `start` (`ForStart`, `ForNext`, body, jump
    /// back): the number of its iterations' `if`s that would run, and the
    /// node after it.
    fn for_loop(&self, start: usize) -> Option<(Expr, usize)> {
        let Node::ForStart { coll, .. } = self.nodes.get(start)? else {
            return None;
        };
        let head = start + 1;
        let Node::ForNext {
            slot, filter, exit, ..
        } = self.nodes.get(head)?
        else {
            return None;
        };
        let end = *exit as usize;
        if end < head + 2
            || !matches!(self.nodes.get(end - 1), Some(Node::Jump(h)) if *h as usize == head)
        {
            return None;
        }
        let body = self.block(head + 1, head + 1, end - 1)?;
        let sum = Expr::Agg {
            kind: AggKind::Sum,
            slot: *slot,
            coll: Box::new(coll.clone()),
            filter: filter.clone().map(Box::new),
            body: Some(Box::new(body)),
        };
        Some((sum, end))
    }

    /// Nodes `lo..hi` of a loop body starting at `first`: the number of
    /// `if`s among them that would run.
    fn block(&self, first: usize, lo: usize, hi: usize) -> Option<Expr> {
        let mut parts = Vec::new();
        let mut i = lo;
        while i < hi {
            match &self.nodes[i] {
                Node::ForStart { .. } => {
                    let (e, end) = self.for_loop(i)?;
                    if end > hi {
                        return None;
                    }
                    parts.push(e);
                    i = end;
                }
                Node::Assign(Place::Local(s), AssignOp::Set, e) => {
                    // `let s = e` holds for what follows in this iteration,
                    // if nothing earlier in it read `s` (a previous value)
                    if reads(self.cond, *s) || self.read_before(first, i, *s) {
                        return None;
                    }
                    let rest = self.block(first, i + 1, hi)?;
                    parts.push(Expr::Bind(vec![(*s, e.clone())], Box::new(rest)));
                    i = hi;
                }
                Node::JumpIfNot(c, to) => {
                    let to = *to as usize;
                    if to <= i || to > hi {
                        return None;
                    }
                    // an `else` after the `then`: its skip jump
                    let end = match &self.nodes[to - 1] {
                        Node::Jump(e) if *e as usize > to && *e as usize <= hi => *e as usize,
                        _ => to,
                    };
                    if !self.pure(i + 1, end) {
                        if !self.pure(to, end) {
                            return None;
                        }
                        parts.push(self.runs_if(c)?);
                    }
                    i = end;
                }
                _ => return None,
            }
        }
        Some(
            parts
                .into_iter()
                .reduce(|a, b| bin(BinOp::Add, a, b))
                .unwrap_or(Expr::Int(0)),
        )
    }

    /// Whether nodes `lo..hi` only test and jump (they write nothing).
    fn pure(&self, lo: usize, hi: usize) -> bool {
        self.nodes[lo..hi]
            .iter()
            .all(|n| matches!(n, Node::JumpIfNot(..) | Node::Jump(_)))
    }

    /// `1` where the `if` testing `c` would run, `0` elsewhere, if one of
    /// its conditions joined by `and` is the guard's wanted way.
    fn runs_if(&self, c: &Expr) -> Option<Expr> {
        let mut parts = Vec::new();
        conjuncts(c, &mut parts);
        let (base, flips) = unwrap_not(self.cond);
        let k = parts.iter().position(|x| {
            let (b, f) = unwrap_not(x);
            (f == flips) == self.want && same(b, base, &mut Vec::new())
        })?;
        parts.remove(k);
        let rest = parts
            .into_iter()
            .cloned()
            .reduce(|a, b| bin(BinOp::And, a, b))
            .unwrap_or(Expr::Int(1));
        Some(Expr::Cond(
            Box::new(rest),
            Box::new(Expr::Int(1)),
            Box::new(Expr::Int(0)),
        ))
    }

    /// Whether a test or loop in nodes `first..i` reads local `s`.
    fn read_before(&self, first: usize, i: usize, s: u16) -> bool {
        self.nodes[first..i].iter().any(|n| match n {
            Node::JumpIfNot(e, _) | Node::ForStart { coll: e, .. } | Node::Assign(_, _, e) => {
                reads(e, s)
            }
            Node::ForNext {
                filter: Some(e), ..
            } => reads(e, s),
            _ => false,
        })
    }
}

fn reads(e: &Expr, s: u16) -> bool {
    let mut out = Vec::new();
    e.free_locals(&mut Vec::new(), &mut out);
    out.contains(&s)
}

fn conjuncts<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::Bin(BinOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

/// `e` without its `not`s, and whether there was an odd number of them.
fn unwrap_not(e: &Expr) -> (&Expr, bool) {
    match e {
        Expr::Not(x) => {
            let (b, f) = unwrap_not(x);
            (b, !f)
        }
        _ => (e, false),
    }
}

/// Whether `a` and `b` are the same expression up to the slots they bind
/// (two expansions of one function call bind different slots); `map` pairs
/// the slots bound so far.
pub(super) fn same(a: &Expr, b: &Expr, map: &mut Vec<(u16, u16)>) -> bool {
    match (a, b) {
        (Expr::Local(x), Expr::Local(y)) => match map.iter().rev().find(|(p, _)| p == x) {
            Some((_, q)) => q == y,
            None => x == y && !map.iter().any(|(_, q)| q == y),
        },
        (Expr::Bind(xs, bx), Expr::Bind(ys, by)) => {
            if xs.len() != ys.len() || !xs.iter().zip(ys).all(|((_, x), (_, y))| same(x, y, map)) {
                return false;
            }
            let mark = map.len();
            map.extend(xs.iter().zip(ys).map(|((p, _), (q, _))| (*p, *q)));
            let r = same(bx, by, map);
            map.truncate(mark);
            r
        }
        (
            Expr::Agg {
                kind: k1,
                slot: s1,
                coll: c1,
                filter: f1,
                body: b1,
            },
            Expr::Agg {
                kind: k2,
                slot: s2,
                coll: c2,
                filter: f2,
                body: b2,
            },
        ) => {
            if k1 != k2 || !same(c1, c2, map) {
                return false;
            }
            map.push((*s1, *s2));
            let r = same_opt(f1.as_deref(), f2.as_deref(), map)
                && same_opt(b1.as_deref(), b2.as_deref(), map);
            map.pop();
            r
        }
        _ => same_head(a, b) && same_children(a, b, map),
    }
}

fn same_opt(a: Option<&Expr>, b: Option<&Expr>, map: &mut Vec<(u16, u16)>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => same(a, b, map),
        (None, None) => true,
        _ => false,
    }
}

fn same_children(a: &Expr, b: &Expr, map: &mut Vec<(u16, u16)>) -> bool {
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    a.for_each_child(|x| xs.push(x));
    b.for_each_child(|y| ys.push(y));
    xs.len() == ys.len() && xs.iter().zip(&ys).all(|(x, y)| same(x, y, map))
}

/// Whether `a` and `b` are the same kind of node with the same data (their
/// children aside).
fn same_head(a: &Expr, b: &Expr) -> bool {
    use Expr as E;
    match (a, b) {
        (E::Int(x), E::Int(y)) => x == y,
        (E::Opt(x), E::Opt(y))
        | (E::Global(x), E::Global(y))
        | (E::PerPlayer(x, _), E::PerPlayer(y, _))
        | (E::PerCard(x, _), E::PerCard(y, _))
        | (E::Table(x, _), E::Table(y, _))
        | (E::Attr(x, _), E::Attr(y, _))
        | (E::ZoneAll(x), E::ZoneAll(y))
        | (E::EnumAll(x), E::EnumAll(y)) => x == y,
        (E::Zone(x, a), E::Zone(y, b)) => x == y && a.is_some() == b.is_some(),
        (E::Region(x, a), E::Region(y, b)) => x == y && a == b,
        (E::Bin(x, ..), E::Bin(y, ..)) => x == y,
        (E::Call(x, a), E::Call(y, b)) => x == y && a.len() == b.len(),
        (E::Nothing, E::Nothing)
        | (E::Players, E::Players)
        | (E::PlayerCount, E::PlayerCount)
        | (E::Actor, E::Actor)
        | (E::Current, E::Current)
        | (E::Index(..), E::Index(..))
        | (E::Not(_), E::Not(_))
        | (E::Neg(_), E::Neg(_))
        | (E::Cond(..), E::Cond(..)) => true,
        _ => false,
    }
}

#[cfg(test)]
#[path = "explore_loop_tests.rs"]
mod tests;
