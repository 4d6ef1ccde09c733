//! The table the rules see: [`Core`] (zones in one flat card arena, each
//! card's zone and knowers, variables, actor and current player) over its
//! fixed [`Layout`]. Every write goes through a method here or in
//! `undo.rs`, which journals it while a make/unmake mark is open.

use super::journal::{Entry, Log};
use crate::graph::Graph;
use crate::syntax::ast::Visibility;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The journal of this table's writes (`journal.rs`).
pub type Journal = Log<Core>;

/// Bitset of players who know a card.
pub type Knowers = u32;

/// What a game's table looks like, fixed once the players are seated: the
/// zone instances, the variables' places and the option values. Shared by
/// every copy of the state (a clone bumps a count, copies nothing).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Layout {
    pub n: u8,
    pub counterclockwise: bool,
    pub opts: Vec<i32>,
    /// First instance of each declared zone (per-player zones have `n`).
    pub zone_base: Vec<u16>,
    /// Instances of each declared zone (1, the players, or a board's cells).
    pub zone_count: Vec<u16>,
    /// For each instance: its declared zone and owner (-1 if shared).
    pub inst_zone: Vec<u16>,
    pub inst_owner: Vec<i8>,
    /// Each variable's first slot, in `Core::vars` or, for the variables
    /// `width.rs` narrows, in `Core::bytes`.
    pub var_base: Vec<u32>,
    /// The boards' precomputed lanes (`lanes.rs`), made once per game;
    /// not saved (a table read back walks its boards instead).
    #[serde(skip)]
    pub(super) lanes: std::sync::Arc<super::lanes::Lanes>,
    /// Each instance's row in the lanes' per-cell arrays; not saved either.
    #[serde(skip)]
    pub(super) cell_rows: super::lanes::CellRows,
}

impl Layout {
    /// The layout of a game's tables for `n` players: every zone instance
    /// (one, one per player, or one per cell of a board) and every
    /// variable's slots; with each card's home instance and the number of
    /// `i32` and byte variable slots (`width.rs`).
    pub(super) fn of(
        g: &Graph,
        n: u8,
        opts: &[i32],
        lanes: &std::sync::Arc<super::lanes::Lanes>,
    ) -> (Layout, Vec<u16>, [usize; 2]) {
        let t = &g.tables;
        let mut zone_base = Vec::new();
        let mut inst_zone = Vec::new();
        let mut inst_owner = Vec::new();
        let mut zone_count = Vec::new();
        for (zi, z) in t.zones.iter().enumerate() {
            zone_base.push(inst_zone.len() as u16);
            let (count, owned) = match z.board {
                Some(b) => (t.boards[b as usize].cells.len(), false),
                None if z.per_player => (usize::from(n), true),
                None => (1, false),
            };
            zone_count.push(count as u16);
            for p in 0..count {
                inst_zone.push(zi as u16);
                inst_owner.push(if owned { p as i8 } else { -1 });
            }
        }
        let home: Vec<u16> = t.card_home.iter().map(|h| zone_base[*h as usize]).collect();
        let (var_base, wide, narrow) = Layout::var_slots(g, n);
        let cell_rows = super::lanes::CellRows::of(
            lanes,
            &inst_zone,
            &zone_base,
            |z| t.zones[z].board.map(usize::from),
            t.boards.len(),
        );
        let lay = Layout {
            n,
            counterclockwise: t.counterclockwise,
            opts: opts.to_vec(),
            zone_base,
            zone_count,
            inst_zone,
            inst_owner,
            var_base,
            lanes: lanes.clone(),
            cell_rows,
        };
        (lay, home, [wide, narrow])
    }

    /// Each variable's first slot for `n` players, in the byte slots for
    /// the variables `width.rs` narrows, else in the `i32` slots; and how
    /// many slots of each: `(bases, i32 slots, byte slots)`.
    pub(super) fn var_slots(g: &Graph, n: u8) -> (Vec<u32>, usize, usize) {
        let (mut bases, mut at) = (Vec::new(), [0u32; 2]);
        for (i, v) in g.tables.vars.iter().enumerate() {
            let k = usize::from(g.in_bytes(i));
            bases.push(at[k]);
            at[k] += v.slots(usize::from(n), g.tables.cards.len()) as u32;
        }
        (bases, at[0] as usize, at[1] as usize)
    }
}

/// What the rules can see. The cards of every zone instance live in one
/// flat arena (`arena`): `starts` (one per instance, plus the end), then the
/// cards of instance 0, 1, ... bottom first, then each card's instance. A
/// clone is three vector copies whatever the number of zones, and
/// [`Core::copy_from`] reuses the buffers (no allocation).
#[derive(Debug, Serialize, Deserialize)]
pub struct Core {
    lay: std::sync::Arc<Layout>,
    pub(super) arena: Vec<u16>,
    pub known: Vec<Knowers>,
    pub vars: Vec<i32>,
    /// The byte slots of the `per card` variables whose values fit a
    /// byte (`width.rs`).
    #[serde(default)]
    pub bytes: Vec<i8>,
    pub actor: i32,
    pub current: i32,
    /// The writes since the oldest open mark (`undo.rs`); never copied.
    #[serde(skip)]
    pub(super) log: Journal,
}

impl Clone for Core {
    fn clone(&self) -> Core {
        Core {
            lay: self.lay.clone(),
            arena: self.arena.clone(),
            known: self.known.clone(),
            vars: self.vars.clone(),
            bytes: self.bytes.clone(),
            actor: self.actor,
            current: self.current,
            log: Journal::default(),
        }
    }

    /// Reuses this table's buffers: no allocation once they are big enough.
    fn clone_from(&mut self, other: &Core) {
        self.copy_from(other);
    }
}

/// The fixed layout is read through the core (`core.n`, `core.zone_base`).
impl std::ops::Deref for Core {
    type Target = Layout;
    fn deref(&self) -> &Layout {
        &self.lay
    }
}

impl Core {
    /// A table with every card placed in the instance `home[card]`, with
    /// `vars[0]` `i32` and `vars[1]` byte variable slots.
    pub fn new(lay: Layout, home: &[u16], vars: [usize; 2]) -> Core {
        let insts = lay.inst_zone.len();
        let cards = home.len();
        let mut per: Vec<Vec<u16>> = vec![Vec::new(); insts];
        for (c, h) in home.iter().enumerate() {
            per[*h as usize].push(c as u16);
        }
        let mut core = Core {
            lay: std::sync::Arc::new(lay),
            arena: vec![0; insts + 1 + 2 * cards],
            known: vec![0; cards],
            vars: vec![0; vars[0]],
            bytes: vec![0; vars[1]],
            actor: -1,
            current: -1,
            log: Journal::default(),
        };
        core.set_zones(&per);
        core
    }

    /// This table back at the start of a game, in its own buffers (no
    /// allocation): every card in its home instance in card order, as
    /// [`Core::new`] lays them, knowing what its home shows; the variables
    /// 0 (their initial values are the caller's), no actor or current
    /// player. The journal is the caller's to forget.
    pub(super) fn reset_home(&mut self, g: &Graph) {
        let (s, insts, nc) = (self.cards_at(), self.insts(), self.card_count());
        let home = &g.tables.card_home;
        // count the cards of each instance, then turn counts into ends
        self.arena[..=insts].fill(0);
        for h in home {
            self.arena[self.lay.zone_base[*h as usize] as usize + 1] += 1;
        }
        for i in 0..insts {
            self.arena[i + 1] += self.arena[i];
        }
        // arena[i] is now where instance i starts: place the cards, each
        // start moving on to its end, then shift the ends back to starts
        for (c, h) in home.iter().enumerate() {
            let i = self.lay.zone_base[*h as usize] as usize;
            let at = self.arena[i] as usize;
            self.arena[s + at] = c as u16;
            self.arena[i] += 1;
            self.arena[s + nc + c] = i as u16;
        }
        for i in (1..insts).rev() {
            self.arena[i] = self.arena[i - 1];
        }
        self.arena[0] = 0;
        for c in 0..nc {
            self.known[c] = self.viewers(g, self.arena[s + nc + c]);
        }
        self.vars.fill(0);
        self.bytes.fill(0);
        self.actor = -1;
        self.current = -1;
    }

    /// Offset of the cards in the arena.
    #[inline]
    pub(super) fn cards_at(&self) -> usize {
        self.lay.inst_zone.len() + 1
    }

    /// Number of zone instances.
    #[inline]
    pub fn insts(&self) -> usize {
        self.lay.inst_zone.len()
    }

    /// Number of cards in the game.
    #[inline]
    pub fn card_count(&self) -> usize {
        self.known.len()
    }

    /// The cards of an instance, bottom first.
    #[inline]
    pub fn zone(&self, inst: usize) -> &[u16] {
        let s = self.cards_at();
        let (a, b) = (self.arena[inst] as usize, self.arena[inst + 1] as usize);
        &self.arena[s + a..s + b]
    }

    /// The number of cards of an instance (`zone(inst).len()`).
    #[inline]
    pub fn zone_len(&self, inst: usize) -> usize {
        (self.arena[inst + 1] - self.arena[inst]) as usize
    }

    /// The cards of an instance, to reorder or exchange in place.
    #[inline]
    pub fn zone_mut(&mut self, inst: usize) -> &mut [u16] {
        let s = self.cards_at();
        let (a, b) = (self.arena[inst] as usize, self.arena[inst + 1] as usize);
        &mut self.arena[s + a..s + b]
    }

    /// Where every card lies, as one slice: each instance's start (and the
    /// end), then the cards of every instance in order. Two tables of one
    /// game with equal slices hold the same cards in the same places (a
    /// cheap key for hashing a position).
    pub fn placement(&self) -> &[u16] {
        let s = self.cards_at();
        &self.arena[..s + self.arena[s - 1] as usize]
    }

    /// Every instance's cards, in instance order.
    pub fn zones(&self) -> impl Iterator<Item = &[u16]> + '_ {
        (0..self.insts()).map(|i| self.zone(i))
    }

    /// The instance a card lies in (`u16::MAX` while lifted out).
    #[inline]
    pub fn card_zone(&self, card: usize) -> u16 {
        self.arena[self.cards_at() + self.card_count() + card]
    }

    #[inline]
    pub fn set_card_zone(&mut self, card: usize, inst: u16) {
        let at = self.cards_at() + self.card_count() + card;
        let old = self.arena[at];
        if old != inst {
            self.log.record(Entry::Slot { at: at as u32, old });
            self.arena[at] = inst;
        }
    }

    /// Insert a card at position `i` of an instance (the card must be in
    /// no zone: the arena holds each card at most once).
    pub fn insert_at(&mut self, inst: usize, i: usize, card: u16) {
        let s = self.cards_at();
        let insts = self.insts();
        let end = s + self.arena[insts] as usize;
        debug_assert!(
            (self.arena[insts] as usize) < self.card_count(),
            "a card is in at most one zone"
        );
        let at = s + self.arena[inst] as usize + i;
        if self.log.on {
            let stale = self.arena[end];
            let (inst, i) = (inst as u16, i as u16);
            self.log.log.push(Entry::Insert { inst, i, stale });
        }
        self.arena.copy_within(at..end, at + 1);
        self.arena[at] = card;
        for k in &mut self.arena[inst + 1..=insts] {
            *k += 1;
        }
    }

    /// Take the card at position `i` out of an instance.
    pub fn remove_at(&mut self, inst: usize, i: usize) -> u16 {
        let s = self.cards_at();
        let insts = self.insts();
        let end = s + self.arena[insts] as usize;
        let at = s + self.arena[inst] as usize + i;
        let card = self.arena[at];
        let (z, k) = (inst as u16, i as u16);
        self.log.record(Entry::Remove {
            inst: z,
            i: k,
            card,
        });
        self.arena.copy_within(at + 1..end, at);
        for k in &mut self.arena[inst + 1..=insts] {
            *k -= 1;
        }
        card
    }

    /// Empty an instance (the cards' own instance is left for the caller).
    pub fn clear_zone(&mut self, inst: usize) {
        let s = self.cards_at();
        let insts = self.insts();
        let end = s + self.arena[insts] as usize;
        let (a, b) = (self.arena[inst] as usize, self.arena[inst + 1] as usize);
        let n = (b - a) as u16;
        if self.log.on {
            self.log.cards.extend_from_slice(&self.arena[s + a..s + b]);
            let inst = inst as u16;
            self.log.log.push(Entry::Clear { inst, n });
        }
        self.arena.copy_within(s + b..end, s + a);
        for k in &mut self.arena[inst + 1..=insts] {
            *k -= n;
        }
    }

    /// Every instance's cards as separate lists (for edits by hand, which
    /// are rare: `arrange`, sampling hidden cards).
    pub fn nested(&self) -> Vec<Vec<u16>> {
        self.zones().map(<[u16]>::to_vec).collect()
    }

    /// Lay out every instance anew from separate lists, one per instance,
    /// and index each card's instance (a card in no list gets `u16::MAX`).
    pub fn set_zones(&mut self, per: &[Vec<u16>]) {
        let s = self.cards_at();
        let nc = self.card_count();
        let mut k = 0usize;
        for (inst, cards) in per.iter().enumerate() {
            self.arena[inst] = k as u16;
            self.arena[s + k..s + k + cards.len()].copy_from_slice(cards);
            k += cards.len();
        }
        self.arena[per.len()] = k as u16;
        self.arena[s + nc..s + 2 * nc].fill(u16::MAX);
        for (inst, cards) in per.iter().enumerate() {
            for c in cards {
                self.arena[s + nc + *c as usize] = inst as u16;
            }
        }
    }

    /// The same table without lanes and cell rows (its boards walked, as
    /// a table read back from a file): for tests.
    #[cfg(test)]
    pub(super) fn drop_lanes(&mut self) {
        let mut lay = (*self.lay).clone();
        lay.lanes = Default::default();
        lay.cell_rows = Default::default();
        self.lay = std::sync::Arc::new(lay);
    }

    /// Become a copy of `other`, reusing this table's buffers.
    pub fn copy_from(&mut self, other: &Core) {
        if !std::sync::Arc::ptr_eq(&self.lay, &other.lay) {
            self.lay = other.lay.clone();
        }
        self.arena.clone_from(&other.arena);
        self.known.clone_from(&other.known);
        self.vars.clone_from(&other.vars);
        self.bytes.clone_from(&other.bytes);
        self.actor = other.actor;
        self.current = other.current;
        self.log.reset();
    }

    /// The bytes [`Core::copy_from`] copies: the arena, the knowledge and
    /// the variables (the layout is shared, not copied).
    pub fn copy_bytes(&self) -> usize {
        std::mem::size_of_val(&self.arena[..])
            + std::mem::size_of_val(&self.known[..])
            + std::mem::size_of_val(&self.vars[..])
            + self.bytes.len()
    }

    /// Whether two tables hold the same position (zones, knowledge,
    /// variables, actor and current player).
    pub fn same(&self, other: &Core) -> bool {
        self.lay == other.lay
            && self.arena == other.arena
            && self.known == other.known
            && self.vars == other.vars
            && self.bytes == other.bytes
            && (self.actor, self.current) == (other.actor, other.current)
    }

    /// The player `k` seats after `p` in playing order.
    pub fn step(&self, p: i32, k: i32) -> i32 {
        let n = self.n as i32;
        let k = if self.counterclockwise { -k } else { k };
        (p + k).rem_euclid(n)
    }

    pub fn position(&self, card: u16) -> usize {
        let z = self.card_zone(card as usize) as usize;
        if z >= self.insts() {
            return 0;
        }
        self.zone(z).iter().position(|c| *c == card).unwrap_or(0)
    }

    pub fn all_players(&self) -> Knowers {
        if self.n >= 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        }
    }

    /// Who can see a card that lies in an instance.
    pub fn viewers(&self, g: &Graph, inst: u16) -> Knowers {
        let z = self.lay.inst_zone[inst as usize];
        match g.tables.zones[z as usize].visibility {
            Visibility::Public | Visibility::Top => self.all_players(),
            Visibility::Owner => match self.lay.inst_owner[inst as usize] {
                o if o >= 0 => 1 << o,
                _ => 0,
            },
            Visibility::Hidden => 0,
        }
    }

    /// Take a card out of wherever it is.
    pub fn lift(&mut self, card: u16) {
        let z = self.card_zone(card as usize) as usize;
        if z >= self.insts() {
            return;
        }
        // most moves take the top card: search from the top
        if let Some(i) = self.zone(z).iter().rposition(|c| *c == card) {
            self.remove_at(z, i);
        }
        self.set_card_zone(card as usize, u16::MAX);
    }

    /// Put a card on top (or at the bottom) of an instance; whoever can see
    /// that instance now knows it, and what others knew follows the card.
    pub fn put(&mut self, g: &Graph, card: u16, inst: u16, bottom: bool) {
        if self.shift_into(card, inst as usize, bottom) {
            self.set_card_zone(card as usize, inst);
            self.learn_at(g, card, inst, bottom);
            return;
        }
        self.lift(card);
        self.place(g, card, inst, bottom);
    }

    /// [`Core::put`]'s arena move: only the cards between the card's
    /// place and its new place shift, by one, and only the starts of the
    /// instances between the two change (a lift then a place shift
    /// everything after each place). Journaled as one entry (undone by
    /// the reverse shift). The card's own instance is left for the caller.
    /// False, with nothing changed, if the card lies in no instance.
    pub(super) fn shift_into(&mut self, card: u16, to: usize, bottom: bool) -> bool {
        let z = self.card_zone(card as usize) as usize;
        if z >= self.insts() {
            return false;
        }
        let Some(i) = self.zone(z).iter().rposition(|c| *c == card) else {
            return false;
        };
        let s = self.cards_at();
        let from = s + self.arena[z] as usize + i;
        let d = s + self.arena[if bottom { to } else { to + 1 }] as usize;
        if self.log.on {
            let (at, to, z) = ((from - s) as u16, to as u16, z as u16);
            let d = (d - s) as u16;
            self.log.log.push(Entry::Shift { at, d, z, to });
        }
        if d > from {
            // later in the arena: the cards between move down one
            self.arena.copy_within(from + 1..d, from);
            self.arena[d - 1] = card;
            for k in &mut self.arena[z + 1..=to] {
                *k -= 1;
            }
        } else {
            // earlier: the cards between move up one
            self.arena.copy_within(d..from, d + 1);
            self.arena[d] = card;
            for k in &mut self.arena[to + 1..=z] {
                *k += 1;
            }
        }
        true
    }

    /// Like [`Core::put`] for a card already lifted out of its zone.
    pub fn place(&mut self, g: &Graph, card: u16, inst: u16, bottom: bool) {
        let i = if bottom {
            0
        } else {
            self.zone(inst as usize).len()
        };
        self.insert_at(inst as usize, i, card);
        self.set_card_zone(card as usize, inst);
        self.learn_at(g, card, inst, bottom);
    }

    /// Whoever can see the instance a card was put in now knows it (not
    /// at the bottom of a zone that shows only its top).
    #[inline]
    fn learn_at(&mut self, g: &Graph, card: u16, inst: u16, bottom: bool) {
        let is_top_only = g.tables.zones[self.lay.inst_zone[inst as usize] as usize].visibility
            == Visibility::Top;
        if !(is_top_only && bottom) {
            let k = self.known[card as usize] | self.viewers(g, inst);
            self.set_known(card as usize, k);
        }
    }

    /// Exchange the places of two cards.
    pub fn swap(&mut self, g: &Graph, a: u16, b: u16) {
        if a == b {
            return;
        }
        let (za, zb) = (self.card_zone(a as usize), self.card_zone(b as usize));
        let ia = self.cards_at() + self.arena[za as usize] as usize + self.position(a);
        let ib = self.cards_at() + self.arena[zb as usize] as usize + self.position(b);
        for (at, card) in [(ia, b), (ib, a)] {
            let old = self.arena[at];
            self.log.record(Entry::Slot { at: at as u32, old });
            self.arena[at] = card;
        }
        self.set_card_zone(a as usize, zb);
        self.set_card_zone(b as usize, za);
        let ka = self.known[a as usize] | self.viewers(g, zb);
        self.set_known(a as usize, ka);
        let kb = self.known[b as usize] | self.viewers(g, za);
        self.set_known(b as usize, kb);
    }

    pub fn shuffle(&mut self, g: &Graph, inst: u16, rng: &mut ChaCha8Rng) {
        use rand::seq::SliceRandom;
        let viewers = self.viewers(g, inst);
        if self.log.on {
            let (s, z) = (self.cards_at(), inst as usize);
            let (a, b) = (self.arena[z] as usize, self.arena[z + 1] as usize);
            self.log.cards.extend_from_slice(&self.arena[s + a..s + b]);
            let n = (b - a) as u16;
            self.log.log.push(Entry::Rewrite { inst, n });
        }
        self.zone_mut(inst as usize).shuffle(rng);
        let s = self.cards_at();
        let (a, b) = (self.arena[inst as usize], self.arena[inst as usize + 1]);
        for i in s + a as usize..s + b as usize {
            let c = self.arena[i] as usize;
            self.set_known(c, viewers);
        }
    }
}
