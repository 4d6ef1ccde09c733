//! What a command-line tool does when its output pipe is closed
//! (`grail graph ... | head -1`): stop quietly, as `cat` and `grep` do.
//!
//! Rust programs ignore SIGPIPE, so a write to a closed pipe returns an
//! error and `println!` panics on it. The batch commands restore the
//! system's default action instead. The long-running servers (`serve`,
//! `lsp`) keep ignoring it: a client that goes away must not kill them.

/// Restore the default SIGPIPE action: a write to a closed pipe ends the
/// process at once, with no message. A no-op where there are no signals.
pub fn stop_quietly_when_closed() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any thread is started;
    // setting a signal's disposition to its default has no other effect.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
