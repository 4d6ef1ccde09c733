//! Per-thread spare buffers the interpreter reuses so that a decision
//! allocates nothing once warm: checkpoint tables whose phase ended, and
//! the copy of a frame's locals a listing binds into.

use super::state::Core;

/// Most spare checkpoint tables kept per thread.
pub(super) const MAX_SPARE: usize = 8;

thread_local! {
    /// Checkpoint tables whose phase ended, reused by the next `checkpoint`
    /// (refilled with `copy_from`), so a checkpoint allocates nothing once warm.
    pub(super) static SPARE: std::cell::RefCell<Vec<Core>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

thread_local! {
    pub(super) static LOCALS: std::cell::RefCell<Vec<i32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The listing's copy of the locals, given back to [`LOCALS`] when done.
pub(super) struct Locals(pub(super) Vec<i32>);

impl Drop for Locals {
    fn drop(&mut self) {
        let v = std::mem::take(&mut self.0);
        LOCALS.with(|l| *l.borrow_mut() = v);
    }
}
