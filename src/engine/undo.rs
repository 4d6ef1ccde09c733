//! Make and unmake: taking an action back without a copy of the state.
//!
//! While a [`Mark`] is open, every write to the table ([`Core`]: the zone
//! arena, each card's instance, knowledge, variables, actor and current
//! player) is recorded in the table's [`Journal`](super::table::Journal) as the value it replaced;
//! unmaking replays the journal backwards. The interpreter's own small
//! state (frames, locals, loop scratch, checkpoints, the kept legal list,
//! the generator and the counters) is copied aside when the mark is made,
//! into buffers kept from mark to mark. Neither allocates once warm.
//!
//! Marks nest (perft, a search path) and are unmade last first. A hand edit
//! of the position (`arrange`, `put`, [`State::edit_table`]) forgets every
//! open mark: its writes are not journaled.

use super::Game;
use super::error::{EngineError, Illegal};
use super::journal::Entry;
use super::state::{Action, Core, Mark, Saved, State};

impl Core {
    /// Undo the table's writes back to `len` journal entries.
    pub(super) fn rewind(&mut self, len: usize) {
        let mut j = std::mem::take(&mut self.log);
        while j.log.len() > len {
            match j.log.pop().expect("an entry") {
                Entry::Insert { inst, i, stale } => {
                    let inst = usize::from(inst);
                    self.remove_at(inst, usize::from(i));
                    let at = self.cards_at() + self.arena[self.insts()] as usize;
                    self.arena[at] = stale;
                }
                Entry::Remove { inst, i, card } => {
                    self.insert_at(usize::from(inst), usize::from(i), card);
                }
                Entry::Shift { at, d, z, to } => self.unshift(at, d, z, to),
                Entry::Clear { inst, n } => {
                    let from = j.cards.len() - usize::from(n);
                    self.refill(usize::from(inst), &j.cards[from..]);
                    j.cards.truncate(from);
                }
                Entry::Slot { at, old } => self.arena[at as usize] = old,
                Entry::Rewrite { inst, n } => {
                    let from = j.cards.len() - usize::from(n);
                    self.zone_mut(usize::from(inst))
                        .copy_from_slice(&j.cards[from..]);
                    j.cards.truncate(from);
                }
                Entry::Known { card, old } => self.known[usize::from(card)] = old,
                Entry::Var { idx, old } => self.vars[idx as usize] = old,
                Entry::Byte { idx, old } => self.bytes[idx as usize] = old,
                Entry::Actor(a) => self.actor = a,
                Entry::Current(c) => self.current = c,
                Entry::Table => {
                    let mut old = j.cores.pop().expect("a replaced table");
                    std::mem::swap(self, &mut old);
                }
            }
        }
        self.log = j;
    }

    /// Undo a [`Entry::Shift`]: the card goes back to slot `at`, the cards
    /// between shift back by one, and the starts of the instances between
    /// `z` and `to` are restored.
    fn unshift(&mut self, at: u16, d: u16, z: u16, to: u16) {
        let s = self.cards_at();
        let (from, d) = (s + usize::from(at), s + usize::from(d));
        let (z, to) = (usize::from(z), usize::from(to));
        if d > from {
            // it went later: it lies at d - 1, the cards between moved down
            let card = self.arena[d - 1];
            self.arena.copy_within(from..d - 1, from + 1);
            self.arena[from] = card;
            for k in &mut self.arena[z + 1..=to] {
                *k += 1;
            }
        } else {
            // it went earlier: it lies at d, the cards between moved up
            let card = self.arena[d];
            self.arena.copy_within(d + 1..from + 1, d);
            self.arena[from] = card;
            for k in &mut self.arena[to + 1..=z] {
                *k -= 1;
            }
        }
    }

    /// Put `cards` back into the empty instance `inst` (undoing a clear).
    fn refill(&mut self, inst: usize, cards: &[u16]) {
        let s = self.cards_at();
        let insts = self.insts();
        let end = s + self.arena[insts] as usize;
        let at = s + self.arena[inst] as usize;
        let n = cards.len();
        self.arena.copy_within(at..end, at + n);
        self.arena[at..at + n].copy_from_slice(cards);
        for k in &mut self.arena[inst + 1..=insts] {
            *k += n as u16;
        }
    }

    /// Set what players know of a card (recorded while a mark is open).
    #[inline]
    pub fn set_known(&mut self, card: usize, who: u32) {
        let old = self.known[card];
        if old != who {
            self.log.record(Entry::Known {
                card: card as u16,
                old,
            });
            self.known[card] = who;
        }
    }

    /// Set a variable's slot (recorded while a mark is open).
    #[inline]
    pub fn set_var(&mut self, idx: usize, value: i32) {
        let old = self.vars[idx];
        if old != value {
            self.log.record(Entry::Var {
                idx: idx as u32,
                old,
            });
            self.vars[idx] = value;
        }
    }

    /// Set a variable's byte slot (`width.rs`; recorded while a mark is
    /// open). The value is one of the variable's type, which fits a byte.
    #[inline]
    pub fn set_byte(&mut self, idx: usize, value: i32) {
        debug_assert!(i8::try_from(value).is_ok(), "a byte variable's value");
        let (old, value) = (self.bytes[idx], value as i8);
        if old != value {
            self.log.record(Entry::Byte {
                idx: idx as u32,
                old,
            });
            self.bytes[idx] = value;
        }
    }

    /// Set the player who took the last decision.
    #[inline]
    pub fn set_actor(&mut self, p: i32) {
        if self.actor != p {
            self.log.record(Entry::Actor(self.actor));
            self.actor = p;
        }
    }

    /// Set the player whose turn it is.
    #[inline]
    pub fn set_current(&mut self, p: i32) {
        if self.current != p {
            self.log.record(Entry::Current(self.current));
            self.current = p;
        }
    }

    /// Replace the whole table by `saved` (a `rollback`), keeping the
    /// journal; the old table is kept in it while a mark is open, and
    /// otherwise given back (for the spares of `pools.rs`).
    pub(super) fn replace(&mut self, mut saved: Core) -> Option<Core> {
        std::mem::swap(&mut self.log, &mut saved.log);
        std::mem::swap(self, &mut saved);
        // `saved` is now the old table, with a fresh journal.
        if self.log.on {
            self.log.log.push(Entry::Table);
            self.log.cores.push(saved);
            None
        } else {
            Some(saved)
        }
    }
}

impl State {
    /// Apply a legal action, recording how to take it back. On an error the
    /// state is as it was before (the action is taken back at once).
    ///
    /// ```
    /// let text = "game \"Coin\" { players 2..4 }\n\
    ///     start { choose seat(0) { \"stop\" { } } end game }\n\
    ///     winners highest 0\n";
    /// let game = grail::Game::from_source("coin.rules", text).expect("compiles");
    /// let mut state = grail::State::new(&game, 2, 7, &game.default_options()).unwrap();
    /// let before = state.clone();
    /// let action = state.legal_actions(&game)[0];
    /// let mark = state.make(&game, action).expect("a legal action");
    /// assert!(state.is_over());
    /// state.unmake(mark);
    /// assert!(!state.is_over() && state.same_as(&before));
    /// ```
    pub fn make(&mut self, game: &Game, action: Action) -> Result<Mark, EngineError> {
        if !self.is_legal(game, action) {
            return Err(EngineError::Illegal(Illegal::NotLegal));
        }
        self.make_unchecked(game, action)
    }

    /// Like [`State::make`] for an action known to be legal.
    pub fn make_unchecked(&mut self, game: &Game, action: Action) -> Result<Mark, EngineError> {
        if self.explicit_chance() {
            return Err(EngineError::Illegal(Illegal::ChanceNoUndo));
        }
        let mark = self.open_mark();
        match self.apply_inner(game, action) {
            Ok(()) => Ok(mark),
            Err(e) => {
                self.unmake(mark);
                Err(e)
            }
        }
    }

    /// Take back the action of the newest open mark.
    ///
    /// # Panics
    /// If `mark` is not the newest open mark (marks are unmade last first,
    /// and a hand edit forgets them).
    pub fn unmake(&mut self, mark: Mark) {
        assert_eq!(
            mark.depth as usize + 1,
            self.marks.depth,
            "marks are unmade last first"
        );
        self.close_mark();
    }

    /// Open a mark: copy the interpreter's state aside, journal the table.
    pub(super) fn open_mark(&mut self) -> Mark {
        let m = &mut self.marks;
        let depth = m.depth;
        if m.saved.len() == depth {
            m.saved.push(Saved {
                frames: Vec::new(),
                locals: Vec::new(),
                scratch: Vec::new(),
                checkpoints: Vec::new(),
                legal: Vec::new(),
                rng: self.rng.clone(),
                waiting: None,
                over: false,
                defer: false,
                edited: false,
                turns: 0,
                decisions: 0,
                steps: 0,
                history: 0,
                listing_fault: None,
                log: 0,
            });
        }
        let s = &mut m.saved[depth];
        s.frames.clone_from(&self.frames);
        s.locals.clone_from(&self.locals);
        s.scratch.clone_from(&self.scratch);
        s.checkpoints.clone_from(&self.checkpoints);
        s.legal.clone_from(&self.legal);
        s.rng.clone_from(&self.rng);
        s.waiting = self.waiting;
        s.over = self.over;
        s.defer = self.defer;
        s.edited = self.edited;
        s.turns = self.turns;
        s.decisions = self.decisions;
        s.steps = self.steps;
        s.history = self.history.len();
        s.listing_fault = self.listing_fault.take();
        self.listing_fault.clone_from(&s.listing_fault);
        s.log = self.core.log.log.len();
        self.core.log.on = true;
        m.depth += 1;
        Mark {
            depth: depth as u32,
        }
    }

    /// Close the newest mark, restoring the state it saw.
    pub(super) fn close_mark(&mut self) {
        let m = &mut self.marks;
        m.depth -= 1;
        let s = &mut m.saved[m.depth];
        self.core.rewind(s.log);
        std::mem::swap(&mut self.frames, &mut s.frames);
        std::mem::swap(&mut self.locals, &mut s.locals);
        std::mem::swap(&mut self.scratch, &mut s.scratch);
        std::mem::swap(&mut self.checkpoints, &mut s.checkpoints);
        std::mem::swap(&mut self.legal, &mut s.legal);
        self.rng.clone_from(&s.rng);
        self.waiting = s.waiting;
        self.over = s.over;
        self.defer = s.defer;
        self.edited = s.edited;
        self.turns = s.turns;
        self.decisions = s.decisions;
        self.steps = s.steps;
        self.history.truncate(s.history);
        self.listing_fault = s.listing_fault.take();
        if m.depth == 0 {
            self.core.log.reset();
        }
    }

    /// Forget every open mark (after a hand edit, or a copy into this state).
    pub(super) fn forget_marks(&mut self) {
        self.marks.depth = 0;
        self.core.log.reset();
    }

    /// Whether two states are the same in everything a game can observe
    /// or replay: the table, the interpreter's stack, loop scratch,
    /// checkpoints, generator, counters, kept legal list and history.
    pub fn same_as(&self, o: &State) -> bool {
        self.core.same(&o.core)
            && self.frames == o.frames
            && self.locals == o.locals
            && self.scratch == o.scratch
            && self.checkpoints.len() == o.checkpoints.len()
            && self
                .checkpoints
                .iter()
                .zip(&o.checkpoints)
                .all(|(a, b)| a.same(b))
            && self.rng == o.rng
            && (self.waiting, self.over, self.edited, self.defer)
                == (o.waiting, o.over, o.edited, o.defer)
            && (self.turns, self.decisions, self.steps, self.seed)
                == (o.turns, o.decisions, o.steps, o.seed)
            && self.legal == o.legal
            && self.history == o.history
    }

    /// Open marks, newest last (a search's depth).
    pub fn open_marks(&self) -> usize {
        self.marks.depth()
    }

    /// Keep a mark for every action applied from now on (`on`), so that
    /// [`State::undo`] takes actions back from the journal instead of
    /// replaying the game; a long game keeps a journal entry per write. Off
    /// (the default) forgets them.
    pub fn keep_undo(&mut self, on: bool) {
        self.marks.keep = on;
        if !on {
            self.forget_marks();
        }
    }
}
