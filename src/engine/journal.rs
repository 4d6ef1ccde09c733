//! The journal of a table's writes while a make/unmake mark is open
//! (`undo.rs`): each write as the value it replaced, in order. Plain data:
//! the table (`table.rs`) records into it and `undo.rs` replays it
//! backwards.

/// One write to the table, with what it replaced.
#[derive(Clone, Copy, Debug)]
pub(super) enum Entry {
    /// A card was inserted at position `i` of `inst`; `stale` was the arena
    /// slot just past the last card, which the shift overwrote.
    Insert {
        inst: u16,
        i: u16,
        stale: u16,
    },
    /// `card` was taken from position `i` of `inst`.
    Remove {
        inst: u16,
        i: u16,
        card: u16,
    },
    /// A card at card slot `at` (of instance `z`) was moved to before card
    /// slot `d` (counted before the move) in instance `to`, the cards
    /// between shifting by one ([`Core::shift_into`]).
    Shift {
        at: u16,
        d: u16,
        z: u16,
        to: u16,
    },
    /// `inst` was emptied: its `n` cards are the last `n` of `Journal::cards`.
    Clear {
        inst: u16,
        n: u16,
    },
    /// Arena slot `at` held `old` (a card exchanged in place, a card's instance).
    Slot {
        at: u32,
        old: u16,
    },
    /// The cards of `inst` were rewritten in place (a shuffle): the old
    /// ones are the last `n` of `Journal::cards`.
    Rewrite {
        inst: u16,
        n: u16,
    },
    Known {
        card: u16,
        old: u32,
    },
    Var {
        idx: u32,
        old: i32,
    },
    /// A byte slot of a variable (`width.rs`).
    Byte {
        idx: u32,
        old: i8,
    },
    Actor(i32),
    Current(i32),
    /// The whole table was replaced (`rollback`): the old one is the last
    /// of `Journal::cores`.
    Table,
}

/// The writes to a table since the oldest open mark; `T` is the table
/// (`table.rs` names `Log<Core>` [`Journal`](super::table::Journal)).
pub struct Log<T> {
    pub(super) on: bool,
    pub(super) log: Vec<Entry>,
    pub(super) cards: Vec<u16>,
    pub(super) cores: Vec<T>,
}

impl<T> Default for Log<T> {
    fn default() -> Self {
        Log {
            on: false,
            log: Vec::new(),
            cards: Vec::new(),
            cores: Vec::new(),
        }
    }
}

impl<T> Log<T> {
    #[inline]
    pub(super) fn record(&mut self, e: Entry) {
        if self.on {
            self.log.push(e);
        }
    }

    /// Stop recording and forget what was recorded (buffers kept).
    pub(super) fn reset(&mut self) {
        self.on = false;
        self.log.clear();
        self.cards.clear();
        self.cores.clear();
    }
}

/// Only how many writes are journaled: the buffers kept from earlier
/// marks are no part of the position (two states that reached the same
/// position by different undos print the same).
impl<T> std::fmt::Debug for Log<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Journal")
            .field("on", &self.on)
            .field("writes", &self.log.len())
            .finish()
    }
}
