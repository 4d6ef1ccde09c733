//! Per-thread spare buffers the interpreter reuses so that a decision
//! allocates nothing once warm: checkpoint tables whose phase ended, and
//! the copy of a frame's locals a listing binds into.

use super::table::Core;

/// Most spare checkpoint tables kept per thread.
const MAX_SPARE: usize = 8;

thread_local! {
    /// Checkpoint tables whose phase ended, reused by the next `checkpoint`
    /// (refilled with `copy_from`), so a checkpoint allocates nothing once warm.
    static SPARE: std::cell::RefCell<Vec<Core>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Keep a table whose checkpoint ended (or that a rollback left behind) as
/// a spare, while there is room.
pub(super) fn give_spare(c: Core) {
    let _ = SPARE.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut()
            && s.len() < MAX_SPARE
        {
            s.push(c);
        }
    });
}

/// A spare table, if the thread keeps one.
pub(super) fn take_spare() -> Option<Core> {
    SPARE
        .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()))
        .ok()
        .flatten()
}

/// A copy of `c` in a spare table's buffers (allocating only when the
/// thread has no spare).
pub(super) fn copy_of(c: &Core) -> Core {
    match take_spare() {
        Some(mut s) => {
            s.copy_from(c);
            s
        }
        None => c.clone(),
    }
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
