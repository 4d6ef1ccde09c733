//! A procedure's local scope while it is checked: the names in scope
//! (innermost last), the slot handed to each, and the bound on slots.

use crate::hir::{Expr, Ty};

/// Local slots in one phase, `start`, `winners` or `evaluate` rule: its
/// locals, loop and aggregate variables, and one per parameter of every
/// function use expanded into it (docs/language.md, "Limits").
pub const MAX_LOCALS: u16 = u16::MAX;

/// Local variables in scope, innermost last; slots are never reused within a procedure.
#[derive(Default)]
pub(crate) struct Scope {
    pub names: Vec<(String, u16, Ty)>,
    pub marks: Vec<usize>,
    pub next_slot: u16,
    /// The name of every slot ever handed out, by slot number.
    pub slot_names: Vec<String>,
    /// The type of every slot, by slot number (for the REPL's trace).
    pub slot_types: Vec<Ty>,
    /// Parameters of a function being expanded: name -> argument.
    pub aliases: Vec<(String, Expr, Ty)>,
    /// Slots asked for past [`MAX_LOCALS`] (0 when none): the checker
    /// reports it once (`past_limit_reported`), and the game is refused.
    pub asked_past_limit: usize,
    pub past_limit_reported: bool,
}

impl Scope {
    pub fn push(&mut self, name: &str, ty: Ty) -> u16 {
        let slot = self.take_slot(name, ty);
        self.names.push((name.to_string(), slot, ty));
        slot
    }

    /// A new slot. Past [`MAX_LOCALS`] the last slot is given again and
    /// `asked_past_limit` counts it: the game is refused, so the shared
    /// slot is never run.
    pub fn take_slot(&mut self, name: &str, ty: Ty) -> u16 {
        if self.next_slot == MAX_LOCALS {
            self.asked_past_limit = self.asked_past_limit.saturating_add(1);
            return MAX_LOCALS - 1;
        }
        let slot = self.next_slot;
        self.next_slot += 1;
        self.slot_names.push(name.to_string());
        self.slot_types.push(ty);
        slot
    }
    pub fn open(&mut self) {
        self.marks.push(self.names.len());
    }
    pub fn close(&mut self) {
        let m = self.marks.pop().unwrap_or(0);
        self.names.truncate(m);
    }
    pub fn get(&self, name: &str) -> Option<(u16, Ty)> {
        self.names
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, s, t)| (*s, *t))
    }
}
