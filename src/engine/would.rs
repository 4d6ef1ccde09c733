//! `would(card, zone, cond)`: a condition on the table as it would be after
//! a hypothetical move (the card alone in the zone, whatever lay there
//! taken off the table).
//!
//! The move is made on a scratch table and taken back through the table's
//! journal (`undo.rs`), never on the table itself (it is borrowed, shared,
//! for the whole evaluation). Inside a listing of the legal actions the
//! table cannot change, so the scratch is copied from it once per listing
//! (tagged with the listing's scope number, `memo::listing_epoch`) and
//! every `would` of that listing makes its move on the copy, evaluates the
//! condition and unmakes the move: a few journal entries instead of a copy
//! of the table per candidate. Outside a listing, or nested inside another
//! `would` (whose table is a scratch), the table is copied per call into a
//! spare scratch. Neither allocates once warm.

use super::compile::{Arg, Cx, Val};
use super::journal::Entry;
use super::memo;
use super::table::Core;
use std::cell::RefCell;

/// The listing's scratch table and the scope it was copied in.
struct Listed {
    epoch: u64,
    table: Core,
}

thread_local! {
    /// The scratch of the open listing (taken while in use).
    static LISTED: RefCell<Option<Listed>> = const { RefCell::new(None) };
    /// Spare tables for `would` outside a listing: refilled with `copy_from`.
    static SPARE: RefCell<Vec<Core>> = const { RefCell::new(Vec::new()) };
}

/// Compile `would(card, zone, cond)`.
pub(crate) fn would(card: Arg, z: Arg, cond: Arg) -> Val {
    Box::new(move |cx| {
        let k = card.get(cx);
        let Some(k) = cx.card(k) else { return 0 };
        let z = z.get(cx);
        let Some(z) = cx.zone(z) else { return 0 };
        let c = cx.c;
        if let Some(epoch) = memo::listing_epoch(c) {
            // the scratch stays in place, borrowed while the condition runs
            // (a `would` inside it is against the scratch, not the listing's
            // table, so it never asks for this one)
            let done = LISTED.with(|l| {
                let mut l = l.try_borrow_mut().ok()?;
                let s = l.get_or_insert_with(|| Listed {
                    epoch: 0,
                    table: c.clone(),
                });
                if s.epoch != epoch {
                    s.table.copy_from(c);
                    s.epoch = epoch;
                }
                s.table.log.on = true;
                suppose(&mut s.table, k, z);
                let v = under(cx, &s.table, &cond);
                s.table.rewind(0);
                s.table.log.reset();
                debug_assert!(s.table.same(c), "a hypothetical move taken back");
                Some(v)
            });
            if let Some(v) = done {
                return v;
            }
        }
        let mut tmp = SPARE
            .with(|s| s.borrow_mut().pop())
            .unwrap_or_else(|| c.clone());
        tmp.copy_from(c);
        suppose(&mut tmp, k, z);
        let v = under(cx, &tmp, &cond);
        SPARE.with(|s| s.borrow_mut().push(tmp));
        v
    })
}

/// Move `k` alone into `z`: the cards that were there leave the table, the
/// card leaves its own place. The usual cases (`z` empty, or holding one
/// other card) shift the arena once or twice; every write is journaled
/// while the table's journal is on.
fn suppose(t: &mut Core, k: usize, z: usize) {
    let from = t.card_zone(k) as usize;
    let here = t.zone(z);
    match here.len() {
        0 => {
            // one shift of the cards between its place and `z`
            if !t.shift_into(k as u16, z, true) {
                t.lift(k as u16);
                t.insert_at(z, 0, k as u16);
            }
        }
        1 if from != z => {
            // `k` takes the other card's slot, the other card leaves
            let o = here[0];
            let at = t.cards_at() + t.arena[z] as usize;
            t.log.record(Entry::Slot {
                at: at as u32,
                old: o,
            });
            t.arena[at] = k as u16;
            t.set_card_zone(o as usize, u16::MAX);
            if from < t.insts()
                && let Some(i) = t.zone(from).iter().rposition(|c| *c as usize == k)
            {
                t.remove_at(from, i);
            }
        }
        _ => {
            for i in 0..here.len() {
                let other = t.zone(z)[i];
                t.set_card_zone(other as usize, u16::MAX);
            }
            t.clear_zone(z);
            t.lift(k as u16);
            t.insert_at(z, 0, k as u16);
        }
    }
    t.set_card_zone(k, z as u16);
}

/// `cond` against the hypothetical table `t`, its fault passed on.
fn under(cx: &mut Cx<'_>, t: &Core, cond: &Arg) -> i32 {
    let mut inner = Cx {
        g: cx.g,
        c: t,
        locals: &mut *cx.locals,
        rng: None,
        fault: None,
        // a scope of its own, taken on first use (another table than any
        // open listing's, so `epoch_for` gives a fresh one)
        epoch: 0,
        temps: [0; super::cse::TEMPS],
        valid: 0,
    };
    let v = cond.get(&mut inner);
    match inner.fault {
        Some(f) => cx.fail(f),
        None => v,
    }
}
