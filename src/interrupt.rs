//! Ctrl-C during a long run (a `grail sim` batch, rulecheck's games and
//! exploration, a search agent's thinking, the REPL's play to the end):
//! the first interrupt sets a flag that the running work reads between
//! steps, so it stops early and reports what it has; a second Ctrl-C ends
//! the process at once (the default action, restored by the first). Unix
//! only; elsewhere Ctrl-C ends the run. A module of its own so that every
//! stage may read the flag without depending on `sim`.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// The flag the batch watches.
pub fn flag() -> &'static AtomicBool {
    &STOP
}

#[cfg(unix)]
mod unix {
    use super::{Ordering, STOP};

    const SIGINT: i32 = 2;
    const SIG_DFL: usize = 0;

    unsafe extern "C" {
        fn signal(sig: i32, handler: usize) -> usize;
    }

    extern "C" fn on_interrupt(_: i32) {
        STOP.store(true, Ordering::SeqCst);
        // SAFETY: `signal` is async-signal-safe; a second Ctrl-C now ends
        // the process the usual way.
        unsafe {
            signal(SIGINT, SIG_DFL);
        }
    }

    pub fn install() {
        // SAFETY: the handler only stores to an atomic and calls `signal`,
        // both async-signal-safe.
        unsafe {
            signal(SIGINT, on_interrupt as extern "C" fn(i32) as usize);
        }
    }
}

/// Catch the first Ctrl-C from now on.
pub fn install() {
    STOP.store(false, Ordering::SeqCst);
    #[cfg(unix)]
    unix::install();
}

/// Whether Ctrl-C was pressed since [`install`].
pub fn interrupted() -> bool {
    STOP.load(Ordering::Relaxed)
}
