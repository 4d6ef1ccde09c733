//! Remembered user functions: within one evaluation scope, a user `fn`
//! whose body loops (an aggregate or `would`) is computed once per
//! argument values and its value reused.
//!
//! The checker expands a `fn` at each use into `Expr::Bind`; the body of an
//! expansion reads only its parameters' slots (and slots it binds itself),
//! the table and the options, so while the table cannot change, the same
//! expansion with the same argument values has the same value. A scope is
//! one listing of the legal actions at a decision ([`Scope`], the table is
//! borrowed for the whole listing, so it cannot change) or else one
//! evaluation of one expression; `would(...)` evaluates its condition in a
//! scope of its own (another table). A body that draws (`random`) or faults
//! is never remembered.
//!
//! The memory is a direct-mapped table per thread, made with the thread (no
//! allocation, no lazy set-up); each scope has a number never used before
//! (an epoch), and an entry counts only for its own epoch, so nothing needs
//! clearing.
//!
//! A lookup costs about as much as a small loop, so each expansion watches
//! itself ([`Watch`]): over its first [`TRIAL`] lookups (summed over all
//! threads) it counts its hits, and if fewer than one in [`MIN_HIT`] hit it
//! stops remembering for good and evaluates its body directly. What is
//! remembered never changes a value, only the time it takes, so the choice
//! may differ from run to run without changing a game.

use super::table::Core;
use crate::hir::Expr;
use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Most parameters a remembered function may have.
pub(crate) const MAX_ARGS: usize = 4;
const SIZE: usize = 1 << 12;

#[derive(Clone, Copy)]
struct Entry {
    epoch: u64,
    site: u32,
    args: [i32; MAX_ARGS],
    value: i32,
}

const EMPTY: Entry = Entry {
    epoch: 0,
    site: 0,
    args: [0; MAX_ARGS],
    value: 0,
};

thread_local! {
    static TABLE: [Cell<Entry>; SIZE] = const { [const { Cell::new(EMPTY) }; SIZE] };
    static NEXT: Cell<u64> = const { Cell::new(1) };
    /// The open listing scope: the table it lists against and its epoch.
    static OPEN: Cell<(usize, u64)> = const { Cell::new((0, 0)) };
}

/// A number no scope has had.
#[inline]
pub(crate) fn fresh() -> u64 {
    NEXT.with(|n| {
        let e = n.get();
        n.set(e + 1);
        e
    })
}

/// The epoch for an evaluation against `c`: the open listing's if it lists
/// against this very table, else a fresh one.
#[inline]
pub(crate) fn epoch_for(c: &Core) -> u64 {
    let (at, epoch) = OPEN.with(Cell::get);
    if at == c as *const Core as usize && epoch != 0 {
        epoch
    } else {
        fresh()
    }
}

/// The epoch of the open listing if it lists against this very table
/// (the table cannot change until the listing ends).
#[inline]
pub(crate) fn listing_epoch(c: &Core) -> Option<u64> {
    let (at, epoch) = OPEN.with(Cell::get);
    (at == c as *const Core as usize && epoch != 0).then_some(epoch)
}

/// A listing scope: every evaluation against `c` while it is open shares
/// remembered values. The caller holds `c` borrowed for the whole scope.
pub(crate) struct Scope {
    saved: (usize, u64),
}

impl Scope {
    pub(crate) fn open(c: &Core) -> Scope {
        let saved = OPEN.with(|o| o.replace((c as *const Core as usize, fresh())));
        Scope { saved }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        OPEN.with(|o| o.set(self.saved));
    }
}

#[inline]
fn slot(epoch: u64, site: u32, args: &[i32; MAX_ARGS]) -> usize {
    let mut h = (epoch as u32 as u64) ^ (u64::from(site) << 32);
    for a in args {
        h = (h ^ (*a as u32 as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    (h >> 52) as usize & (SIZE - 1)
}

/// The remembered value of `site` at these arguments in this epoch.
#[inline]
pub(crate) fn get(epoch: u64, site: u32, args: &[i32; MAX_ARGS]) -> Option<i32> {
    TABLE.with(|t| {
        let e = t[slot(epoch, site, args)].get();
        (e.epoch == epoch && e.site == site && e.args == *args).then_some(e.value)
    })
}

/// Remember the value of `site` at these arguments in this epoch.
#[inline]
pub(crate) fn put(epoch: u64, site: u32, args: [i32; MAX_ARGS], value: i32) {
    TABLE.with(|t| {
        t[slot(epoch, site, &args)].set(Entry {
            epoch,
            site,
            args,
            value,
        })
    })
}

/// A new number for a remembered expansion.
pub(crate) fn site() -> u32 {
    static SITES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
    SITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Lookups an expansion is watched for before it decides.
pub(crate) const TRIAL: u32 = 1024;
/// An expansion keeps remembering if at least one lookup in this many hit.
pub(crate) const MIN_HIT: u32 = 4;

/// How well remembering pays for one expansion: trial counts, then a
/// verdict (shared by all threads; relaxed, as the verdict only moves time).
pub(crate) struct Watch {
    looks: AtomicU32,
    hits: AtomicU32,
    /// 0 while on trial, 1 remember, 2 do not.
    verdict: AtomicU32,
}

impl Watch {
    pub(crate) const fn new() -> Watch {
        Watch {
            looks: AtomicU32::new(0),
            hits: AtomicU32::new(0),
            verdict: AtomicU32::new(0),
        }
    }

    /// Has this expansion stopped remembering?
    #[inline]
    pub(crate) fn off(&self) -> bool {
        self.verdict.load(Relaxed) == 2
    }

    /// Count one lookup while on trial.
    #[inline]
    pub(crate) fn saw(&self, hit: bool) {
        if self.verdict.load(Relaxed) != 0 {
            return;
        }
        if hit {
            self.hits.fetch_add(1, Relaxed);
        }
        if self.looks.fetch_add(1, Relaxed) + 1 == TRIAL {
            let keep = self.hits.load(Relaxed) * MIN_HIT >= TRIAL;
            self.verdict.store(if keep { 1 } else { 2 }, Relaxed);
        }
    }
}

/// Is this expansion worth remembering, and safe to: at most
/// [`MAX_ARGS`] parameters, a body that reads no slot but its parameters
/// and its own bindings, draws nothing, and loops (an aggregate or
/// `would`, so a lookup is cheaper than the body).
pub(crate) fn worth(binds: &[(u16, Expr)], body: &Expr) -> bool {
    if binds.is_empty() || binds.len() > MAX_ARGS {
        return false;
    }
    let mut bound: Vec<u16> = binds.iter().map(|b| b.0).collect();
    let mut free = Vec::new();
    body.free_locals(&mut bound, &mut free);
    free.is_empty() && !body.draws() && super::inline::loops(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hir::Builtin;
    use crate::syntax::ast::AggKind;

    /// `any(u in players where u == p)` with p in `slot`, the element in `el`.
    fn any_eq(el: u16, slot: u16) -> Expr {
        Expr::Agg {
            kind: AggKind::Any,
            slot: el,
            coll: Box::new(Expr::Players),
            filter: Some(Box::new(Expr::Bin(
                crate::syntax::ast::BinOp::Eq,
                Box::new(Expr::Local(el)),
                Box::new(Expr::Local(slot)),
            ))),
            body: None,
        }
    }

    #[test]
    fn only_closed_looping_draw_free_bodies_are_remembered() {
        let binds = [(3, Expr::Local(0))];
        // loops over its own parameter and element: remembered
        assert!(worth(&binds, &any_eq(4, 3)));
        // reads slot 1, which it does not bind: not remembered
        assert!(!worth(&binds, &any_eq(4, 1)));
        // no loop: a lookup would cost more than the body
        assert!(!worth(&binds, &Expr::Not(Box::new(Expr::Local(3)))));
        // draws: never remembered
        let draw = Expr::Call(Builtin::Random, vec![Expr::Int(0), Expr::Local(3)]);
        let body = Expr::Bin(
            crate::syntax::ast::BinOp::Add,
            Box::new(any_eq(4, 3)),
            Box::new(draw),
        );
        assert!(!worth(&binds, &body));
        // too many parameters
        let many: Vec<(u16, Expr)> = (0..5).map(|i| (10 + i, Expr::Int(0))).collect();
        assert!(!worth(&many, &any_eq(4, 10)));
    }

    #[test]
    fn an_entry_counts_only_in_its_own_scope() {
        let (a, b) = (fresh(), fresh());
        let args = [1, 2, 0, 0];
        put(a, 7, args, 42);
        assert_eq!(get(a, 7, &args), Some(42));
        assert_eq!(get(b, 7, &args), None);
        assert_eq!(get(a, 8, &args), None);
        assert_eq!(get(a, 7, &[1, 3, 0, 0]), None);
    }

    #[test]
    fn an_expansion_that_rarely_hits_stops_remembering() {
        let (rare, often) = (Watch::new(), Watch::new());
        for i in 0..TRIAL {
            assert!(!rare.off() && !often.off());
            rare.saw(i % 10 == 0);
            often.saw(i % 2 == 0);
        }
        assert!(rare.off());
        assert!(!often.off());
        // the verdict holds whatever comes after
        for _ in 0..TRIAL {
            often.saw(false);
        }
        assert!(!often.off());
    }
}
