//! A plain hand-written Rust Tamoul: the same rules as `rules/tamoul.rules`
//! (4 players, match to 100, interception windows, card actions, refills)
//! and the same uniform random policy at every decision, so that a game
//! takes as many decisions as the rules file's. It is the reference that
//! `benches/ratios.rs` compares the engine against. Knowledge is kept as a
//! bitset per card, as the engine keeps it.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const THRESHOLD: i32 = 8;
const PENALTY: i32 = 25;
const TARGET: i32 = 100;

/// Card `c`: colour `c / 26` (0 red, 1 black), value 0..12 (red) or 1..13 (black).
fn value(c: u8) -> i32 {
    let k = (c % 26) as i32 / 2;
    if c < 26 { k } else { k + 1 }
}
fn color(c: u8) -> u8 {
    c / 26
}

struct Table {
    n: usize,
    draw: Vec<u8>,
    discard: Vec<u8>,
    slots: Vec<Vec<u8>>,
    known: [u8; 52],
    score: [i32; 6],
    called: [bool; 6],
    rng: ChaCha8Rng,
    policy: ChaCha8Rng,
    decisions: u32,
    /// Set by a refill that found nothing to draw: the round ends at once.
    leave: bool,
}

impl Table {
    /// One decision among `n` options (a decision with one option counts).
    fn decide(&mut self, n: usize) -> usize {
        self.decisions += 1;
        if n <= 1 {
            0
        } else {
            self.policy.random_range(0..n)
        }
    }

    /// Counterclockwise seating: the next seat is the one before.
    fn next(&self, p: usize) -> usize {
        (p + self.n - 1) % self.n
    }

    fn shuffle_draw(&mut self) {
        use rand::seq::SliceRandom;
        self.draw.shuffle(&mut self.rng);
        for c in &self.draw {
            self.known[*c as usize] = 0;
        }
    }

    fn refill(&mut self) {
        if self.draw.is_empty() {
            while self.discard.len() > 1 {
                let c = self.discard.remove(0);
                self.draw.push(c);
            }
            self.shuffle_draw();
            if self.draw.is_empty() {
                self.leave = true;
            }
        }
    }

    /// A card lands on the discard pile: every player who has not called,
    /// from `actor` in playing order, may intercept it with a slot or pass.
    /// A hit closes the window; a miss leaves it open for the next player.
    fn discard(&mut self, card: u8, actor: usize) {
        self.discard.push(card);
        self.known[card as usize] = 0xff;
        let mut q = actor;
        for _ in 0..self.n {
            if !self.called[q] && !self.slots[q].is_empty() {
                let k = self.slots[q].len();
                let i = self.decide(k + 1);
                if i < k {
                    let s = self.slots[q][i];
                    self.known[s as usize] = 0xff;
                    if value(s) == value(card) && color(s) == color(card) {
                        // A hit ends this window; the slot opens its own.
                        self.slots[q].remove(i);
                        self.discard(s, q);
                        return;
                    }
                    // A miss: a penalty card, and the next player may try.
                    self.refill();
                    if self.leave {
                        return;
                    }
                    let d = self.draw.pop().expect("refilled");
                    self.slots[q].push(d);
                }
            }
            q = self.next(q);
        }
    }

    fn peek_own(&mut self, p: usize) {
        let k = self.slots[p].len();
        if k > 0 {
            let i = self.decide(k);
            self.known[self.slots[p][i] as usize] |= 1 << p;
        }
    }

    fn others(&self, p: Option<usize>) -> usize {
        (0..self.n)
            .filter(|q| Some(*q) != p && !self.called[*q])
            .map(|q| self.slots[q].len())
            .sum()
    }

    /// The `i`-th slot of the players who qualify (seat order).
    fn nth(&self, p: Option<usize>, mut i: usize) -> (usize, usize) {
        for q in 0..self.n {
            if Some(q) != p && !self.called[q] {
                if i < self.slots[q].len() {
                    return (q, i);
                }
                i -= self.slots[q].len();
            }
        }
        unreachable!("counted")
    }

    fn look_other(&mut self, p: usize) {
        let k = self.others(Some(p));
        if k > 0 {
            let j = self.decide(k);
            let (q, i) = self.nth(Some(p), j);
            self.known[self.slots[q][i] as usize] |= 1 << p;
        }
    }

    fn swap_any(&mut self) {
        let k = self.others(None);
        if k > 0 {
            let j = self.decide(k);
            let a = self.nth(None, j);
            if k > 1 {
                let mut j = self.decide(k - 1);
                let (qa, ia) = a;
                let flat = (0..qa)
                    .filter(|q| !self.called[*q])
                    .map(|q| self.slots[q].len())
                    .sum::<usize>()
                    + ia;
                if j >= flat {
                    j += 1;
                }
                let b = self.nth(None, j);
                let (ca, cb) = (self.slots[a.0][a.1], self.slots[b.0][b.1]);
                self.slots[a.0][a.1] = cb;
                self.slots[b.0][b.1] = ca;
            }
        }
    }

    fn act(&mut self, p: usize, v: i32) {
        match v {
            7..=8 => self.peek_own(p),
            9..=10 => self.look_other(p),
            11..=12 => self.swap_any(),
            13 => {
                self.look_other(p);
                self.swap_any();
            }
            _ => {}
        }
    }

    /// The drawn card `c` replaces slot `i`, which goes to the discard pile.
    fn keep(&mut self, p: usize, c: u8, i: usize) {
        let s = self.slots[p][i];
        self.slots[p][i] = c;
        self.discard(s, p);
    }

    fn turn(&mut self, p: usize) {
        let options = 1 + usize::from(!self.discard.is_empty());
        if self.decide(options) == 0 {
            self.refill();
            if self.leave {
                return;
            }
            let c = self.draw.pop().expect("refilled");
            self.known[c as usize] |= 1 << p;
            let k = self.slots[p].len();
            let i = self.decide(k + 1);
            if i < k {
                self.keep(p, c, i);
            } else {
                self.discard(c, p);
                if self.leave {
                    return;
                }
                self.act(p, value(c));
            }
        } else {
            let c = self.discard.pop().expect("not empty");
            let k = self.slots[p].len();
            if k > 0 {
                let i = self.decide(k);
                self.keep(p, c, i);
            } else {
                self.slots[p].push(c);
            }
        }
        if self.leave {
            return;
        }
        if self.decide(2) == 0 {
            self.called[p] = true;
        }
    }

    fn round(&mut self, starter: usize) {
        for p in 0..self.n {
            let cards = std::mem::take(&mut self.slots[p]);
            self.draw.extend(cards);
            self.called[p] = false;
        }
        self.draw.append(&mut self.discard);
        self.shuffle_draw();
        for p in 0..self.n {
            for _ in 0..4 {
                let c = self.draw.pop().expect("52 cards");
                self.slots[p].push(c);
            }
            self.known[self.slots[p][2] as usize] |= 1 << p;
            self.known[self.slots[p][3] as usize] |= 1 << p;
        }
        let mut closer = None;
        let mut p = starter;
        self.leave = false;
        loop {
            self.turn(p);
            if self.leave {
                return;
            }
            if self.called[p] && closer.is_none() {
                closer = Some(p);
            }
            p = self.next(p);
            if Some(p) == closer {
                return;
            }
        }
    }

    fn score_round(&mut self) {
        for p in 0..self.n {
            let total: i32 = self.slots[p].iter().map(|c| value(*c)).sum();
            if self.called[p] {
                if total > THRESHOLD {
                    self.score[p] += total + PENALTY;
                }
            } else {
                self.score[p] += total;
            }
        }
    }
}

/// One match of `n` players to the target; returns the decisions taken.
pub fn play(n: usize, seed: u64) -> u32 {
    let mut t = Table {
        n,
        draw: (0..52).collect(),
        discard: Vec::with_capacity(52),
        slots: vec![Vec::with_capacity(52); n],
        known: [0; 52],
        score: [0; 6],
        called: [false; 6],
        rng: ChaCha8Rng::seed_from_u64(seed),
        policy: ChaCha8Rng::seed_from_u64(seed ^ 0x5eed),
        decisions: 0,
        leave: false,
    };
    let mut starter = t.rng.random_range(0..n);
    loop {
        t.round(starter);
        t.score_round();
        if t.score[..n].iter().max().copied().unwrap_or(0) >= TARGET {
            return t.decisions;
        }
        starter = t.next(starter);
    }
}
