//! How wide a variable's slots are, fixed at load from its declared type.
//! A `per card` variable whose every value fits a signed byte (a `bool`;
//! a `player`, at most 32 players or `none`; an enumeration of at most
//! 127 values) lives in the table's byte slots ([`Core::bytes`], one
//! `i8` a card); every other variable in its `i32` slots ([`Core::vars`]).
//! A `per card` variable has a slot for each of the game's cards, so it is
//! most of a table's variables and of the bytes a copy moves; the few
//! slots of the other variables stay `i32`, and so do ints (no range is
//! proved for them), cards and zones.
//!
//! Names die at compile time: a compiled read or write picks its array
//! when the rules are compiled ([`in_bytes`]), never by testing a width
//! while it runs. The few readers of whole tables (determinizing,
//! symmetric cards) go through [`Core::card_var`] and
//! [`Core::var_slots_mut`].
//!
//! [`Core::bytes`]: super::table::Core
//! [`Core::vars`]: super::table::Core

use super::table::Core;
use crate::hir::{Tables, Ty, VarInfo};

/// Whether variable `v` of a game lives in the byte slots.
pub(crate) fn in_bytes(t: &Tables, v: &VarInfo) -> bool {
    v.per_card
        && match v.ty {
            Ty::Bool | Ty::Player => true,
            Ty::Enum(e) => t
                .enums
                .get(usize::from(e))
                .is_some_and(|e| e.values.len() <= 127),
            _ => false,
        }
}

/// Each variable's first slot (in the byte slots when [`in_bytes`], else
/// in the `i32` slots) for `n` players, and how many slots of each kind:
/// `(bases, i32 slots, byte slots)`.
pub(super) fn bases(t: &Tables, n: u8) -> (Vec<u32>, usize, usize) {
    let mut bases = Vec::with_capacity(t.vars.len());
    let (mut wide, mut narrow) = (0u32, 0u32);
    for v in &t.vars {
        let count = if v.per_player {
            u32::from(n)
        } else if v.per_card {
            t.cards.len() as u32
        } else {
            1
        };
        let at = if in_bytes(t, v) {
            &mut narrow
        } else {
            &mut wide
        };
        bases.push(*at);
        *at += count;
    }
    (bases, wide as usize, narrow as usize)
}

/// The slots of a variable's values: its `i32` slots, or its byte slots.
pub(super) enum Slots<'a> {
    Wide(&'a mut [i32]),
    Narrow(&'a mut [i8]),
}

impl Core {
    /// The value of `per card` variable `v` on card `k` (whichever its
    /// slots), or `None` outside the table. For readers of whole tables,
    /// not for compiled code (which knows the slots when compiled).
    pub(super) fn card_var(&self, t: &Tables, v: usize, k: usize) -> Option<i32> {
        let at = self.var_base[v] as usize + k;
        if in_bytes(t, &t.vars[v]) {
            self.bytes.get(at).map(|x| i32::from(*x))
        } else {
            self.vars.get(at).copied()
        }
    }

    /// The `count` slots of variable `v`, to rewrite in place (not
    /// journaled: for hand edits such as renaming cards).
    pub(super) fn var_slots_mut(
        &mut self,
        t: &Tables,
        v: usize,
        count: usize,
    ) -> Option<Slots<'_>> {
        let at = self.var_base[v] as usize;
        if in_bytes(t, &t.vars[v]) {
            self.bytes.get_mut(at..at + count).map(Slots::Narrow)
        } else {
            self.vars.get_mut(at..at + count).map(Slots::Wide)
        }
    }
}
