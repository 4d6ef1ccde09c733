//! Early detection of a game going round in circles: after every decision
//! a hash of the position (where every card lies, every variable, the
//! seat to act and the current one, the phases and steps under way, and the
//! pending choice) is counted in a small fixed table. When one position
//! with its pending choice has come back [`REPEATS`] times, the game is
//! taken as hung, long before the decision limit. The variables (and so the
//! scores) are in the hash, so a position that comes back with a changed
//! score is a new one. What the engine keeps out of sight (a phase's
//! locals, its random generator) is not in the hash, so a game that waits
//! for a lucky draw from an unchanged position could be flagged: that is
//! why the number of returns is high.
//!
//! The hash runs after every decision of every game, so it is a cheap
//! multiply-and-rotate over 8-byte words with a final mix (the standard
//! library's SipHash was a tenth of a rulecheck run); it only has to tell
//! positions of one game apart, not resist an adversary. A table is
//! emptied between games by [`Cycles::clear`], which forgets only the
//! slots used.

use crate::engine::State;
use std::hash::{Hash, Hasher};

/// Returns of one position (with its pending choice) that make a game hung.
pub const REPEATS: u16 = 64;

/// Slots of the table; positions past 3/4 of them are not counted.
const SLOTS: usize = 4096;

/// The positions of one game and how often each came back.
pub struct Cycles {
    slots: Vec<(u64, u16)>,
    /// The slots in use, in the order they were taken.
    used: Vec<u16>,
}

impl Cycles {
    pub fn new() -> Cycles {
        Cycles {
            slots: vec![(0, 0); SLOTS],
            used: Vec::with_capacity(SLOTS / 4 * 3),
        }
    }

    /// Forget every position, for a new game (no allocation).
    pub fn clear(&mut self) {
        for &i in &self.used {
            self.slots[usize::from(i)] = (0, 0);
        }
        self.used.clear();
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
                if self.used.len() >= SLOTS / 4 * 3 {
                    return false;
                }
                self.used.push(i as u16);
                *k = h;
                *n = 1;
                return false;
            }
            i = (i + 1) % SLOTS;
        }
    }
}

fn hash(state: &State) -> u64 {
    let mut h = Mix(0);
    let t = state.table();
    t.placement().hash(&mut h);
    t.vars.hash(&mut h);
    (t.actor, t.current).hash(&mut h);
    for f in state.frames() {
        (f.phase, f.pc).hash(&mut h);
    }
    state.at().hash(&mut h);
    state.chooser().hash(&mut h);
    h.finish()
}

/// A fast hasher: each 8-byte word (the tail zero-padded) is folded in by a
/// rotate, xor and multiply; `finish` mixes the bits so that the low ones,
/// which pick a slot, depend on every input bit.
struct Mix(u64);

impl Mix {
    const K: u64 = 0x517c_c1b7_2722_0a95;

    fn word(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(Self::K);
    }
}

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        // Long runs (a position is kilobytes) go through four independent
        // lanes of 8 bytes, so the multiplies overlap instead of waiting on
        // each other; the lanes are then folded into the hash.
        let mut blocks = bytes.chunks_exact(32);
        if bytes.len() >= 64 {
            let mut lanes = [self.0, !self.0, self.0 ^ Self::K, self.0.rotate_left(32)];
            for b in &mut blocks {
                for (l, w) in lanes.iter_mut().zip(b.chunks_exact(8)) {
                    let mut x = [0u8; 8];
                    x.copy_from_slice(w);
                    *l = (l.rotate_left(5) ^ u64::from_le_bytes(x)).wrapping_mul(Self::K);
                }
            }
            for l in lanes {
                self.word(l);
            }
        }
        let bytes = if bytes.len() >= 64 {
            blocks.remainder()
        } else {
            bytes
        };
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(u64::from_le_bytes(w));
        }
        let tail = chunks.remainder();
        if !tail.is_empty() {
            let mut w = [0u8; 8];
            w[..tail.len()].copy_from_slice(tail);
            self.word(u64::from_le_bytes(w));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i));
    }

    fn write_u16(&mut self, i: u16) {
        self.word(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }

    fn finish(&self) -> u64 {
        // The finaliser of MurmurHash3.
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::{Mix, SLOTS};
    use std::hash::{Hash, Hasher};

    fn of(v: &[u16]) -> u64 {
        let mut h = Mix(0);
        v.hash(&mut h);
        h.finish()
    }

    #[test]
    fn positions_that_differ_in_one_card_hash_apart() {
        // Every single change to a 40-card row, and every swap of two
        // neighbours, gives a hash of its own, and the slots they pick
        // spread over the table.
        let base: Vec<u16> = (0..40).collect();
        let mut seen = std::collections::HashSet::new();
        let mut slots = std::collections::HashSet::new();
        assert!(seen.insert(of(&base)));
        for i in 0..base.len() {
            for v in 40..60 {
                let mut x = base.clone();
                x[i] = v;
                let h = of(&x);
                assert!(seen.insert(h), "card {i} as {v} collides");
                slots.insert(h as usize % SLOTS);
            }
            if i + 1 < base.len() {
                let mut x = base.clone();
                x.swap(i, i + 1);
                assert!(seen.insert(of(&x)), "swap at {i} collides");
            }
        }
        // A long row goes through the lanes: one card changed there is
        // another position too.
        let long: Vec<u16> = (0..1000).collect();
        let mut changed = long.clone();
        changed[517] = 2000;
        assert_ne!(of(&long), of(&changed));
        // 800 keys into 4,096 slots: a good spread fills well over 600.
        assert!(slots.len() > 600, "only {} slots used", slots.len());
        // The row split differently between zones is another position.
        assert_ne!(of(&base), {
            let mut h = Mix(0);
            base[..20].hash(&mut h);
            base[20..].hash(&mut h);
            h.finish()
        });
    }
}
