//! Early detection of a game going round in circles: after every decision
//! a hash of the position (every zone's cards in order, every variable, the
//! seat to act and the current one, the phases and steps under way, and the
//! pending choice) is counted in a small fixed table. When one position
//! with its pending choice has come back [`REPEATS`] times, the game is
//! taken as hung, long before the decision limit. The variables (and so the
//! scores) are in the hash, so a position that comes back with a changed
//! score is a new one. What the engine keeps out of sight (a phase's
//! locals, its random generator) is not in the hash, so a game that waits
//! for a lucky draw from an unchanged position could be flagged: that is
//! why the number of returns is high.

use crate::engine::State;
use std::hash::{Hash, Hasher};

/// Returns of one position (with its pending choice) that make a game hung.
pub const REPEATS: u16 = 64;

/// Slots of the table; positions past 3/4 of them are not counted.
const SLOTS: usize = 4096;

/// The positions of one game and how often each came back.
pub struct Cycles {
    slots: Vec<(u64, u16)>,
    used: usize,
}

impl Cycles {
    pub fn new() -> Cycles {
        Cycles {
            slots: vec![(0, 0); SLOTS],
            used: 0,
        }
    }

    /// Count the position now; true when it has come back [`REPEATS`] times.
    pub fn seen(&mut self, state: &State) -> bool {
        let h = hash(state) | 1;
        let mut i = (h as usize) % SLOTS;
        loop {
            let (k, n) = &mut self.slots[i];
            if *k == h {
                *n = n.saturating_add(1);
                return *n >= REPEATS;
            }
            if *k == 0 {
                if self.used >= SLOTS / 4 * 3 {
                    return false;
                }
                self.used += 1;
                *k = h;
                *n = 1;
                return false;
            }
            i = (i + 1) % SLOTS;
        }
    }
}

fn hash(state: &State) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    let t = state.table();
    for z in t.zones() {
        z.hash(&mut h);
    }
    t.vars.hash(&mut h);
    (t.actor, t.current).hash(&mut h);
    for f in state.frames() {
        (f.phase, f.pc).hash(&mut h);
    }
    state.at().hash(&mut h);
    state.chooser().hash(&mut h);
    h.finish()
}
