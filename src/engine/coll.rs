//! Collections an expression walks: a zone, every instance of a per-player
//! zone, a board region, a ray, a movement pattern's targets, the players,
//! seating order, an integer range, an enumeration. A [`Coll`] is a small
//! descriptor (no allocation); it is walked in one pass with a cursor
//! ([`Coll::for_each`]), never by rescanning from the start for each
//! position.

use super::fault::Fault;
use super::geometry::{each_move, each_ray_cell};
use super::table::Core;
use crate::graph::Graph;

/// A collection to walk, by position.
#[derive(Clone, Copy, Debug)]
pub enum Coll {
    Zone(u16),
    ZoneAll(u16),
    /// Cells of a board region: (board, region).
    Region(u16, u16),
    /// Cells along a line: start instance, step, at most n steps.
    Ray {
        start: u16,
        dx: i8,
        dy: i8,
        n: u8,
    },
    /// Cells a movement pattern reaches.
    Moves {
        start: u16,
        pattern: u16,
        facing: u8,
        n: u8,
    },
    Players,
    Order(i32),
    Range(i32, i32),
    Enum(u16),
}

/// The cards of every instance of a declared zone, instance after
/// instance, bottom first: one slice, as the arena keeps the instances of
/// a zone (a board's cells, the players' hands) next to each other. For a
/// board this is its occupied cells' cards, without visiting empty cells.
#[inline]
fn all_cards(c: &Core, z: u16) -> &[u16] {
    let base = c.zone_base[z as usize] as usize;
    let end = base + c.zone_count[z as usize] as usize;
    let s = c.cards_at();
    &c.arena[s + c.arena[base] as usize..s + c.arena[end] as usize]
}

impl Coll {
    pub fn len(self, g: &Graph, c: &Core) -> usize {
        match self {
            Coll::Zone(i) => c.zone(i as usize).len(),
            Coll::ZoneAll(z) => all_cards(c, z).len(),
            Coll::Region(b, r) => g.tables.boards[b as usize].regions[r as usize]
                .1
                .iter()
                .filter(|m| **m)
                .count(),
            Coll::Ray { .. } | Coll::Moves { .. } => {
                let mut k = 0;
                self.walk(g, c, &mut |_| {
                    k += 1;
                    true
                });
                k
            }
            Coll::Players | Coll::Order(_) => c.n as usize,
            Coll::Range(lo, hi) => (i64::from(hi) - i64::from(lo) + 1).max(0) as usize,
            Coll::Enum(e) => g.tables.enums[e as usize].values.len(),
        }
    }

    pub fn get(self, g: &Graph, c: &Core, i: usize) -> i32 {
        match self {
            Coll::Zone(z) => c.zone(z as usize)[i] as i32,
            Coll::Region(b, r) => {
                let board = &g.tables.boards[b as usize];
                let cell = board.regions[r as usize]
                    .1
                    .iter()
                    .enumerate()
                    .filter(|m| *m.1)
                    .nth(i)
                    .map(|m| m.0);
                cell.map(|k| (c.zone_base[board.zone as usize] as usize + k) as i32)
                    .unwrap_or(-1)
            }
            Coll::Ray { .. } | Coll::Moves { .. } => {
                let (mut out, mut k) = (-1, 0);
                self.walk(g, c, &mut |cell| {
                    if k == i {
                        out = cell;
                        return false;
                    }
                    k += 1;
                    true
                });
                out
            }
            Coll::ZoneAll(z) => all_cards(c, z).get(i).map_or(-1, |k| *k as i32),
            Coll::Players => i as i32,
            Coll::Order(p) => c.step(p, i as i32),
            Coll::Range(lo, _) => lo + i as i32,
            Coll::Enum(_) => i as i32,
        }
    }

    /// Walks the cells of a `Ray` or `Moves` (nothing for other collections);
    /// `f` returns false to stop, and so does this function then.
    fn walk(self, g: &Graph, c: &Core, f: &mut impl FnMut(i32) -> bool) -> bool {
        self.walk_cells::<false>(g, c, f)
    }

    /// [`Coll::walk`]; with `OCC`, `f` gets only the occupied cells.
    #[inline]
    fn walk_cells<const OCC: bool>(
        self,
        g: &Graph,
        c: &Core,
        f: &mut impl FnMut(i32) -> bool,
    ) -> bool {
        match self {
            Coll::Ray { start, dx, dy, n } => {
                each_ray_cell::<OCC>(g, c, start as i32, dx as i32, dy as i32, n as usize, f)
            }
            Coll::Moves {
                start,
                pattern,
                facing,
                n,
            } => each_move::<OCC>(g, c, start, pattern, facing, n, f),
            _ => true,
        }
    }

    pub fn contains(self, g: &Graph, c: &Core, v: i32) -> bool {
        match self {
            Coll::Region(b, r) => {
                let board = &g.tables.boards[b as usize];
                let base = c.zone_base[board.zone as usize] as i32;
                v >= base
                    && ((v - base) as usize) < board.cells.len()
                    && board.regions[r as usize].1[(v - base) as usize]
            }
            Coll::Ray { .. } | Coll::Moves { .. } => !self.walk(g, c, &mut |cell| cell != v),
            Coll::Zone(z) => {
                v >= 0 && (v as usize) < c.card_count() && c.card_zone(v as usize) == z
            }
            Coll::ZoneAll(z) => {
                v >= 0
                    && (v as usize) < c.card_count()
                    && c.inst_zone[c.card_zone(v as usize) as usize] == z
            }
            Coll::Players | Coll::Order(_) => v >= 0 && v < c.n as i32,
            Coll::Range(lo, hi) => v >= lo && v <= hi,
            Coll::Enum(_) => v >= 0,
        }
    }
}

impl Coll {
    /// Walk the items in order with a cursor (the order of `get(0..len)`):
    /// `f` returns false to stop, and so does this function then.
    #[inline]
    pub fn for_each(self, g: &Graph, c: &Core, mut f: impl FnMut(i32) -> bool) -> bool {
        let r: Result<bool, Fault> = self.try_for_each(g, c, |v| Ok(f(v)));
        r.unwrap_or(false)
    }

    /// [`Coll::for_each`] past the empty zone instances: with `OCC`, an item
    /// that is a zone instance with no card is skipped without calling `f`
    /// (any other item, a card or a number, is given). A ray or a pattern
    /// skips its empty cells inside the board walk, without a call each.
    #[inline]
    pub fn for_each_in<const OCC: bool>(
        self,
        g: &Graph,
        c: &Core,
        mut f: impl FnMut(i32) -> bool,
    ) -> bool {
        match self {
            Coll::Ray { .. } | Coll::Moves { .. } => self.walk_cells::<OCC>(g, c, &mut f),
            _ if OCC => self.for_each(g, c, |v| {
                ((v as usize) < c.insts() && c.zone_len(v as usize) == 0) || f(v)
            }),
            _ => self.for_each(g, c, f),
        }
    }

    /// Walk the items in order with a cursor (the order of `get(0..len)`):
    /// `f` returns false to stop. Ok(true) when every item was visited.
    /// Zones, boards, regions and patterns are walked in one pass, not by
    /// rescanning from the start for each position.
    pub fn try_for_each(
        self,
        g: &Graph,
        c: &Core,
        mut f: impl FnMut(i32) -> Result<bool, Fault>,
    ) -> Result<bool, Fault> {
        match self {
            Coll::Zone(z) => {
                for &card in c.zone(z as usize) {
                    if !f(card as i32)? {
                        return Ok(false);
                    }
                }
            }
            Coll::ZoneAll(z) => {
                for &card in all_cards(c, z) {
                    if !f(card as i32)? {
                        return Ok(false);
                    }
                }
            }
            Coll::Region(b, r) => {
                let board = &g.tables.boards[b as usize];
                let base = c.zone_base[board.zone as usize] as usize;
                for (k, inside) in board.regions[r as usize].1.iter().enumerate() {
                    if *inside && !f((base + k) as i32)? {
                        return Ok(false);
                    }
                }
            }
            Coll::Ray { .. } | Coll::Moves { .. } => {
                // the board walk (merged cells included), stopping at a fault
                let mut fault = None;
                let done = self.walk(g, c, &mut |cell| match f(cell) {
                    Ok(go) => go,
                    Err(e) => {
                        fault = Some(e);
                        false
                    }
                });
                if let Some(e) = fault {
                    return Err(e);
                }
                if !done {
                    return Ok(false);
                }
            }
            Coll::Players => {
                for p in 0..c.n as i32 {
                    if !f(p)? {
                        return Ok(false);
                    }
                }
            }
            Coll::Range(lo, hi) => {
                for v in lo..=hi {
                    if !f(v)? {
                        return Ok(false);
                    }
                }
            }
            _ => {
                for i in 0..self.len(g, c) {
                    if !f(self.get(g, c, i))? {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }
}
