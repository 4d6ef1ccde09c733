//! Branch distance for guided exploration (`explore.rs`), as search-based
//! testing and coverage-guided fuzzers measure it: for a guard that games
//! have reached but whose other branch no game has taken (`if count(draw)
//! == 0`, `if promotes(x, t)`), how far the running state is from taking
//! it, evaluated in the guard's own frame each time the guard runs.
//!
//! - A comparison of numbers is `|a - b|` away (plus one for a strict
//!   one); a test of identity (a card, a player, an enum value, `none`) or
//!   a yes/no value is [`FAR`] away when it fails; two squares of a board
//!   wanted equal are as many king steps apart as they are on the board.
//!   `a and b` adds its sides' distances, `a or b` takes the nearer, `not`
//!   flips what is wanted, and a user function's expansion is looked into (its
//!   arguments bound around each side), so `x.kind == runner and row_of(t,
//!   x.side) == 13` gets nearer as a runner advances.
//! - An explored game that gets nearer to a target than any game before is
//!   kept in the corpus, and free choices can be steered toward a target by
//!   looking ahead: each option is played on a scratch copy (and, when that
//!   reaches no verdict and the same seat chooses again, a few of its next
//!   options too), and the option whose play brought the guard nearest wins.
//!
//! Loop filters, options never offered and `otherwise` branches are
//! targets too (`explore_aim.rs`); a target the run's options switch off
//! is not.
//!
//! Nothing here is in the engine's hot loop: distances are evaluated only at
//! target guards, only in explored games.

use super::explore_aim::{self as aim, Columns};
use super::explore_dist::{Target, build};
use super::explore_keep as keep;
use super::explore_link::link;
use super::explore_loop::after_loop;
use super::explore_proxy as proxy;
use super::stats::Layout;
use crate::engine::{Action, Game, Probe, State};
use crate::graph::Node;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;

#[cfg(test)]
#[path = "explore_branch_tests.rs"]
mod tests;

/// At most this many targets are followed at once.
const MAX_TARGETS: usize = 128;
/// Options looked at one move ahead, and one move further.
const LOOK: usize = 16;
const DEEPER: usize = 6;

/// The guards that games have reached (`nodes[flat] > 0`) with a branch
/// none has taken, in graph order, at most [`MAX_TARGETS`]: `if` and
/// `while` conditions, loop filters, options never offered, `otherwise`s;
/// none that the options of every column (`columns`) switch off.
pub fn targets(game: &Game, layout: &Layout, nodes: &[u64], columns: &Columns) -> Vec<Target> {
    let g = game.graph();
    let mut out = Vec::new();
    for (p, ph) in g.phases.iter().enumerate() {
        let ran = |n: usize| {
            n < ph.nodes.len()
                && nodes
                    .get(layout.node(p as u16, n as u32))
                    .is_some_and(|c| *c > 0)
        };
        for (n, node) in ph.nodes.iter().enumerate() {
            if !ran(n) || out.len() >= MAX_TARGETS {
                continue;
            }
            match node {
                Node::JumpIfNot(e, to) => {
                    for (want, next) in [(true, n + 1), (false, *to as usize)] {
                        if next < ph.nodes.len() && !ran(next) && !aim::off(e, want, columns) {
                            let mut t = Target::new(p, n, want, build(g, p as u16, e, want, &[]));
                            if let Some((at, d)) = after_loop(g, p, n, e, want) {
                                (t.at, t.dist) = (at, d);
                            }
                            out.push(t);
                        }
                    }
                }
                Node::ForNext { .. } if !ran(n + 1) => {
                    out.extend(aim::loop_target(g, p, n, columns));
                }
                Node::Choose { .. } => aim::choice_targets(g, p, n, &ran, columns, &mut out),
                _ => {}
            }
        }
    }
    out.truncate(MAX_TARGETS);
    for t in &mut out {
        aim::under_guard(g, t);
        link(g, t);
        t.proxy = proxy::proxy(g, t.phase, &t.dist).filter(proxy::reads_state);
        if t.proxy.is_none()
            && let Some((e, pins)) = proxy::pinned(g, t.phase, &t.dist)
            && proxy::reads_state(&e)
        {
            (t.proxy, t.pins) = (Some(e), pins);
        }
        if let Some(e) = &t.proxy {
            t.shut = keep::shut(g, layout, e);
        }
    }
    out
}

/// For each flat node, the first of the targets measured at it
/// (`u16::MAX`: none); the targets measured at one node follow each other.
pub fn index(layout: &Layout, targets: &[Target]) -> Vec<u16> {
    let mut at = vec![u16::MAX; layout.nodes];
    for (k, t) in targets.iter().enumerate().rev() {
        if let Some(slot) = at.get_mut(layout.node(t.phase, t.at)) {
            *slot = k as u16;
        }
    }
    at
}

/// Play `a` on `next` (a copy of the state), returning the nearest the
/// target's guard came during the move (`u32::MAX`: it did not run). The
/// decision the move stops at is not listed (a look needs only what the
/// move runs; see [`State::apply_looking_unlisted`]).
fn nearest(game: &Game, next: &mut State, a: Action, t: &Target) -> Option<u32> {
    let mut best = u32::MAX;
    let r = next.apply_looking_unlisted(game, a, &mut |st: &State, p, n| {
        if p == t.phase && n == t.at {
            best = best.min(t.distance(game, st));
        }
    });
    r.ok().map(|()| best)
}

/// Scratch space of the look-ahead, kept for a whole explored game so that
/// a look copies into warm states instead of allocating new ones.
#[derive(Default)]
pub struct Scratch {
    next: Option<State>,
    deeper: Option<State>,
    more: Vec<Action>,
    /// The options after a next option (a proxy's second step).
    last: Vec<Action>,
    /// The proxy's distance after each option looked at (`toward`), and
    /// the nearest it came once the seat's move was made.
    proxied: Vec<(Option<u32>, Option<u32>)>,
}

impl Scratch {
    /// Two scratch states, each a copy of `state`'s kind (warm after the
    /// first call), and the buffers.
    #[allow(clippy::type_complexity)]
    fn parts(
        &mut self,
        state: &State,
    ) -> (&mut State, &mut State, &mut Vec<Action>, &mut Vec<Action>) {
        let next = self.next.get_or_insert_with(|| state.clone());
        let deeper = self.deeper.get_or_insert_with(|| state.clone());
        (next, deeper, &mut self.more, &mut self.last)
    }

    /// One scratch state (for [`super::explore_measure::look_ahead`]).
    pub fn state(&mut self, state: &State) -> &mut State {
        self.next.get_or_insert_with(|| state.clone())
    }
}

/// The option among `buf` whose play brings target `t` nearest, looking
/// one move ahead and, where that shows nothing and the same seat chooses
/// again, a few of the next options; where no look reached the guard, the
/// option that brings its `proxy` (the target's distance taken outside the
/// guard's frame, as a probe) nearest; `None` when neither says anything.
///
/// The proxy is measured on the same looks as the guard (one play of each
/// option, not two), and a next option drawn twice is played once: the
/// same picks and the same random draws as playing every look anew.
pub fn toward(
    game: &Game,
    state: &State,
    buf: &[Action],
    t: &Target,
    proxy: Option<&Probe>,
    rng: &mut ChaCha8Rng,
    scratch: &mut Scratch,
) -> Option<usize> {
    let mut proxied = std::mem::take(&mut scratch.proxied);
    proxied.clear();
    let found = guard_ahead(game, state, buf, t, proxy, rng, scratch, &mut proxied);
    let r = found.or_else(|| {
        proxy?;
        // where every option leaves the proxy as near as the others (a
        // choice that only starts a move), it is read once the move is made
        let first = proxied.iter().find_map(|p| p.0);
        let tie = proxied.iter().all(|p| p.0.is_none() || p.0 == first);
        let ds = proxied
            .iter()
            .map(|&(now, made)| if tie { made.or(now) } else { now });
        pick_nearest(ds, &RefCell::new(rng))
    });
    scratch.proxied = proxied;
    r
}

/// The index of the smallest distance (`None`: not measured), ties broken
/// at random. The distances are measured as they are drawn, and a
/// measure may draw from `rng` too (between the tie-breaking draws).
fn pick_nearest(
    ds: impl Iterator<Item = Option<u32>>,
    rng: &RefCell<&mut ChaCha8Rng>,
) -> Option<usize> {
    let mut best: Option<(u32, usize)> = None;
    let mut ties = 0u32;
    for (i, d) in ds.enumerate() {
        let Some(d) = d else { continue };
        match best {
            Some((b, _)) if d > b => {}
            Some((b, _)) if d == b => {
                ties += 1;
                if rng.borrow_mut().random_range(0..=ties) == 0 {
                    best = Some((d, i));
                }
            }
            _ => {
                best = Some((d, i));
                ties = 0;
            }
        }
    }
    best.map(|(_, i)| i)
}

/// [`toward`] by the guard's own distance, where a look reaches it; the
/// proxy's distance after each option is pushed on `proxied` (`None` where
/// the option could not be played or there is no proxy).
#[allow(clippy::too_many_arguments)]
fn guard_ahead(
    game: &Game,
    state: &State,
    buf: &[Action],
    t: &Target,
    proxy: Option<&Probe>,
    rng: &mut ChaCha8Rng,
    scratch: &mut Scratch,
    proxied: &mut Vec<(Option<u32>, Option<u32>)>,
) -> Option<usize> {
    let rng = RefCell::new(rng);
    let (next, deeper, more, last) = scratch.parts(state);
    let who = state.chooser();
    // the next options already played from this option, how near the
    // guard came and the proxy after them
    let mut done: [(usize, Option<u32>, Option<u32>); DEEPER] = [(usize::MAX, None, None); DEEPER];
    let ds = buf.iter().take(LOOK).map(|a| {
        next.clone_from(state);
        let Some(mut d) = nearest(game, next, *a, t) else {
            proxied.push((None, None));
            return None;
        };
        let now = proxy.and_then(|p| next.eval_probe(game, p).ok().map(|v| v.max(0) as u32));
        proxied.push((now, None));
        if d == u32::MAX && !next.is_over() && next.chooser() == who {
            // the next options: the decision listed now (its node seen
            // again, as near as before, so nothing to look at)
            if next.list_pending(game, &mut |_, _, _| {}).is_err() {
                // a listing that faults made the move fail
                if let Some(last) = proxied.last_mut() {
                    *last = (None, None);
                }
                return None;
            }
            next.legal_actions_into(game, more);
            let mut n = 0;
            // with a proxy, the nearest it comes once the seat's move is
            // made (a card, then a piece, then a square): a choice that
            // only starts a move changes nothing it measures yet
            let mut after: Option<u32> = None;
            for _ in 0..DEEPER.min(more.len()) {
                let j = rng.borrow_mut().random_range(0..more.len());
                let (e, v) = match done[..n].iter().find(|(k, ..)| *k == j) {
                    Some(&(_, e, v)) => (e, v),
                    None => {
                        deeper.clone_from(next);
                        let mut e = nearest(game, deeper, more[j], t);
                        let mut v = None;
                        if let Some(p) = proxy {
                            e = second_step(game, deeper, t, who, last, &rng, e);
                            v = e.and(deeper.eval_probe(game, p).ok().map(|v| v.max(0) as u32));
                        }
                        done[n] = (j, e, v);
                        n += 1;
                        (e, v)
                    }
                };
                if let Some(e) = e {
                    d = d.min(e);
                }
                if let Some(v) = v {
                    after = Some(after.map_or(v, |a| a.min(v)));
                }
            }
            if let Some(last) = proxied.last_mut() {
                last.1 = after;
            }
        }
        (d != u32::MAX).then_some(d)
    });
    pick_nearest(ds, &rng)
}

/// After a next option played on `deeper` (`e`: how near the guard came,
/// `None`: it could not be played), one more option drawn at random when
/// the guard did not run and the same seat `who` still chooses: the
/// nearest the guard came over both.
fn second_step(
    game: &Game,
    deeper: &mut State,
    t: &Target,
    who: Option<usize>,
    last: &mut Vec<Action>,
    rng: &RefCell<&mut ChaCha8Rng>,
    e: Option<u32>,
) -> Option<u32> {
    let d = e?;
    if d != u32::MAX || deeper.is_over() || deeper.chooser() != who {
        return Some(d);
    }
    deeper.list_pending(game, &mut |_, _, _| {}).ok()?;
    deeper.legal_actions_into(game, last);
    if last.is_empty() || deeper.chooser() != who {
        return Some(d);
    }
    let k = rng.borrow_mut().random_range(0..last.len());
    nearest(game, deeper, last[k], t).map(|e| e.min(d))
}
