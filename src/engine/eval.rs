//! Evaluating resolved expressions against a state. Everything is an `i32`:
//! numbers, booleans (0/1), players and cards (-1 is none), enum values,
//! zone instances. Collections are walked through [`Coll`] descriptors, so
//! evaluation allocates nothing.

use super::chance::Draws;
pub use super::fault::Fault;
use super::geometry::at_xy;
pub use super::geometry::{cell_of, cell_xy, each_move, each_ray_cell, shift};
use super::state::Core;
use crate::check::hir::{Builtin, Expr};
use crate::graph::Graph;
use crate::syntax::ast::{AggKind, BinOp};

/// Checked 32-bit arithmetic: a result out of range is a fault, never a wrap.
pub fn add(a: i32, b: i32) -> Result<i32, Fault> {
    a.checked_add(b).ok_or(Fault::Overflow)
}
pub fn sub(a: i32, b: i32) -> Result<i32, Fault> {
    a.checked_sub(b).ok_or(Fault::Overflow)
}

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

impl Coll {
    pub fn len(self, g: &Graph, c: &Core) -> usize {
        match self {
            Coll::Zone(i) => c.zone(i as usize).len(),
            Coll::ZoneAll(z) => (0..c.zone_count[z as usize] as usize)
                .map(|p| c.zone(c.zone_base[z as usize] as usize + p).len())
                .sum(),
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
            Coll::ZoneAll(z) => {
                let mut i = i;
                let base = c.zone_base[z as usize] as usize;
                for p in 0..c.zone_count[z as usize] as usize {
                    let zone = c.zone(base + p);
                    if i < zone.len() {
                        return zone[i] as i32;
                    }
                    i -= zone.len();
                }
                -1
            }
            Coll::Players => i as i32,
            Coll::Order(p) => c.step(p, i as i32),
            Coll::Range(lo, _) => lo + i as i32,
            Coll::Enum(_) => i as i32,
        }
    }

    /// Walks the cells of a `Ray` or `Moves` (nothing for other collections);
    /// `f` returns false to stop, and so does this function then.
    fn walk(self, g: &Graph, c: &Core, f: &mut impl FnMut(i32) -> bool) -> bool {
        match self {
            Coll::Ray { start, dx, dy, n } => {
                each_ray_cell(g, c, start as i32, dx as i32, dy as i32, n as usize, f)
            }
            Coll::Moves {
                start,
                pattern,
                facing,
                n,
            } => each_move(g, c, start, pattern, facing, n, f),
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
                let base = c.zone_base[z as usize] as usize;
                for p in 0..c.zone_count[z as usize] as usize {
                    for &card in c.zone(base + p) {
                        if !f(card as i32)? {
                            return Ok(false);
                        }
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

pub struct Ev<'a> {
    pub g: &'a Graph,
    pub c: &'a Core,
    pub locals: &'a mut [i32],
    pub rng: Option<Draws<'a>>,
}

impl Ev<'_> {
    pub fn player(&mut self, e: &Expr) -> Result<i32, Fault> {
        let p = self.eval(e)?;
        if p < 0 || p >= self.c.n as i32 {
            return Err(Fault::NoPlayer);
        }
        Ok(p)
    }

    pub fn card(&mut self, e: &Expr) -> Result<i32, Fault> {
        let c = self.eval(e)?;
        if c < 0 || c as usize >= self.c.card_count() {
            return Err(Fault::NoCard);
        }
        Ok(c)
    }

    pub fn zone(&mut self, e: &Expr) -> Result<u16, Fault> {
        let z = self.eval(e)?;
        if z < 0 || z as usize >= self.c.insts() {
            return Err(Fault::NoZone);
        }
        Ok(z as u16)
    }

    pub fn coll(&mut self, e: &Expr) -> Result<Coll, Fault> {
        Ok(match e {
            Expr::ZoneAll(z) => Coll::ZoneAll(*z),
            Expr::Region(b, r) => Coll::Region(*b, *r),
            Expr::Call(Builtin::Moves, args) => {
                let start = self.eval(&args[0])?;
                if start < 0 || cell_of(self.g, self.c, start).is_none() {
                    return Err(Fault::MovesNotFromCell);
                }
                Coll::Moves {
                    start: start as u16,
                    pattern: self.eval(&args[1])?.max(0) as u16,
                    facing: self.eval(&args[2])?.rem_euclid(4) as u8,
                    n: self.eval(&args[3])?.clamp(0, 255) as u8,
                }
            }
            Expr::Call(Builtin::Ray, args) => {
                let start = self.eval(&args[0])?;
                if start < 0 || cell_of(self.g, self.c, start).is_none() {
                    return Err(Fault::RayNotFromCell);
                }
                let clamp = |v: i32| v.clamp(-64, 64) as i8;
                Coll::Ray {
                    start: start as u16,
                    dx: clamp(self.eval(&args[1])?),
                    dy: clamp(self.eval(&args[2])?),
                    n: self.eval(&args[3])?.clamp(0, 255) as u8,
                }
            }
            Expr::Players => Coll::Players,
            Expr::EnumAll(en) => Coll::Enum(*en),
            Expr::Call(Builtin::Order, args) => Coll::Order(self.player(&args[0])?),
            Expr::Bin(BinOp::Range, lo, hi) => Coll::Range(self.eval(lo)?, self.eval(hi)?),
            other => Coll::Zone(self.zone(other)?),
        })
    }

    pub fn eval(&mut self, e: &Expr) -> Result<i32, Fault> {
        let c = self.c;
        Ok(match e {
            Expr::Int(i) => *i,
            Expr::Nothing => -1,
            Expr::Opt(o) => c.opts[*o as usize],
            Expr::Global(v) => c.vars[c.var_base[*v as usize] as usize],
            Expr::Local(l) => self.locals[*l as usize],
            Expr::PerPlayer(v, p) => {
                let p = self.player(p)?;
                c.vars[c.var_base[*v as usize] as usize + p as usize]
            }
            Expr::PerCard(v, card) => {
                let card = self.card(card)?;
                c.vars[c.var_base[*v as usize] as usize + card as usize]
            }
            Expr::Table(t, key) => {
                let k = self.eval(key)?;
                let values = &self.g.tables.tables[*t as usize].values;
                *values.get(k as usize).ok_or(Fault::TableKeyNone)?
            }
            Expr::Attr(a, card) => {
                let card = self.card(card)?;
                let na = self.g.tables.attrs.len();
                self.g.tables.card_attrs[card as usize * na + *a as usize]
            }
            Expr::Zone(z, None) => c.zone_base[*z as usize] as i32,
            Expr::Zone(z, Some(p)) => {
                let p = self.player(p)?;
                (c.zone_base[*z as usize] as i32) + p
            }
            Expr::ZoneAll(_) | Expr::Players | Expr::EnumAll(_) | Expr::Region(..) => {
                return Err(Fault::CollectionAsValue);
            }
            Expr::PlayerCount => c.n as i32,
            Expr::Actor => c.actor,
            Expr::Current => c.current,
            Expr::Index(z, i) => {
                let z = self.zone(z)?;
                let i = self.eval(i)?;
                let zone = c.zone(z as usize);
                if i < 0 || i as usize >= zone.len() {
                    -1
                } else {
                    zone[i as usize] as i32
                }
            }
            Expr::Not(x) => (self.eval(x)? == 0) as i32,
            Expr::Neg(x) => self.eval(x)?.checked_neg().ok_or(Fault::Overflow)?,
            Expr::Bind(binds, body) => {
                for (slot, value) in binds {
                    let v = self.eval(value)?;
                    self.locals[*slot as usize] = v;
                }
                self.eval(body)?
            }
            Expr::Cond(cond, a, b) => {
                if self.eval(cond)? != 0 {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Expr::Bin(op, l, r) => return self.binary(*op, l, r),
            Expr::Call(b, args) => return self.call(*b, args),
            Expr::Agg {
                kind,
                slot,
                coll,
                filter,
                body,
            } => return self.aggregate(*kind, *slot, coll, filter.as_deref(), body.as_deref()),
        })
    }

    /// `count`, `any`, `all`, `first`, `sum`, `min`, `max` over a collection,
    /// walked once with a cursor.
    fn aggregate(
        &mut self,
        kind: AggKind,
        slot: u16,
        coll: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
    ) -> Result<i32, Fault> {
        let coll = self.coll(coll)?;
        let (g, c) = (self.g, self.c);
        let mut acc: Option<i32> = None;
        let mut count = 0i32;
        let mut found = -1;
        let done = coll.try_for_each(g, c, |v| {
            self.locals[slot as usize] = v;
            let pass = match filter {
                Some(f) => self.eval(f)? != 0,
                None => true,
            };
            Ok(match kind {
                // `all(x in c where cond)`: every element satisfies cond
                AggKind::All => pass,
                _ if !pass => true,
                AggKind::Count => {
                    count += 1;
                    true
                }
                AggKind::Any | AggKind::First => {
                    found = v;
                    false
                }
                AggKind::Sum | AggKind::Min | AggKind::Max => {
                    let x = match body {
                        Some(b) => self.eval(b)?,
                        None => v,
                    };
                    acc = Some(match (kind, acc) {
                        (_, None) => x,
                        (AggKind::Sum, Some(a)) => add(a, x)?,
                        (AggKind::Min, Some(a)) => a.min(x),
                        (_, Some(a)) => a.max(x),
                    });
                    true
                }
            })
        })?;
        Ok(match kind {
            AggKind::Count => count,
            AggKind::Any => i32::from(!done),
            AggKind::First => found,
            AggKind::All => i32::from(done),
            _ => acc.unwrap_or(0),
        })
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr) -> Result<i32, Fault> {
        match op {
            BinOp::And => return Ok((self.eval(l)? != 0 && self.eval(r)? != 0) as i32),
            BinOp::Or => return Ok((self.eval(l)? != 0 || self.eval(r)? != 0) as i32),
            BinOp::In => {
                let v = self.eval(l)?;
                let coll = self.coll(r)?;
                return Ok(coll.contains(self.g, self.c, v) as i32);
            }
            BinOp::Range => return Err(Fault::RangeAsValue),
            _ => {}
        }
        let a = self.eval(l)?;
        let b = self.eval(r)?;
        Ok(match op {
            BinOp::Eq => (a == b) as i32,
            BinOp::Ne => (a != b) as i32,
            BinOp::Lt => (a < b) as i32,
            BinOp::Le => (a <= b) as i32,
            BinOp::Gt => (a > b) as i32,
            BinOp::Ge => (a >= b) as i32,
            BinOp::Add => add(a, b)?,
            BinOp::Sub => sub(a, b)?,
            BinOp::Mul => a.checked_mul(b).ok_or(Fault::Overflow)?,
            BinOp::Div => {
                if b == 0 {
                    return Err(Fault::DivisionByZero);
                }
                a.checked_div(b).ok_or(Fault::Overflow)?
            }
            BinOp::Mod => {
                if b == 0 {
                    return Err(Fault::DivisionByZero);
                }
                // i32::MIN mod -1 is 0 mathematically; checked_rem_euclid
                // refuses it, so it is answered here instead of panicking
                if b == -1 { 0 } else { a.rem_euclid(b) }
            }
            _ => unreachable!("handled above"),
        })
    }

    fn call(&mut self, b: Builtin, args: &[Expr]) -> Result<i32, Fault> {
        let c = self.c;
        Ok(match b {
            Builtin::Top | Builtin::Bottom => {
                let z = self.zone(&args[0])?;
                let zone = c.zone(z as usize);
                let card = if b == Builtin::Top {
                    zone.last()
                } else {
                    zone.first()
                };
                card.map(|x| *x as i32).unwrap_or(-1)
            }
            Builtin::Size => c.zone(self.zone(&args[0])? as usize).len() as i32,
            Builtin::Next => c.step(self.player(&args[0])?, 1),
            Builtin::Prev => c.step(self.player(&args[0])?, -1),
            Builtin::Owner => {
                let card = self.card(&args[0])?;
                c.inst_owner[c.card_zone(card as usize) as usize] as i32
            }
            Builtin::Pos => {
                let card = self.card(&args[0])?;
                c.position(card as u16) as i32
            }
            Builtin::Seat => {
                let i = self.eval(&args[0])?;
                if i < 0 || i >= c.n as i32 {
                    return Err(Fault::SeatOutOfRange);
                }
                i
            }
            Builtin::Random => {
                let lo = self.eval(&args[0])?;
                let hi = self.eval(&args[1])?;
                if hi < lo {
                    return Err(Fault::RandomBounds);
                }
                match self.rng.as_mut() {
                    Some(draws) => draws.range(lo, hi)?,
                    None => lo,
                }
            }
            Builtin::Order => return Err(Fault::OrderAsValue),
            Builtin::Knows => {
                let p = self.player(&args[0])?;
                let card = self.card(&args[1])?;
                ((c.known[card as usize] >> p) & 1) as i32
            }
            Builtin::InZone => {
                let card = self.card(&args[0])?;
                let z = self.zone(&args[1])?;
                (c.card_zone(card as usize) == z) as i32
            }
            Builtin::ZoneOf => c.card_zone(self.card(&args[0])? as usize) as i32,
            Builtin::Cell => {
                let (x, y) = (self.eval(&args[0])?, self.eval(&args[1])?);
                let Some(b) = self.g.tables.boards.first() else {
                    return Err(Fault::CellNeedsBoard);
                };
                at_xy(b, c, x, y)
            }
            Builtin::XOf => {
                let z = self.eval(&args[0])?;
                cell_xy(self.g, c, z).map(|xy| xy.0).unwrap_or(-1)
            }
            Builtin::YOf => {
                let z = self.eval(&args[0])?;
                cell_xy(self.g, c, z).map(|xy| xy.1).unwrap_or(-1)
            }
            Builtin::Shift => {
                let z = self.eval(&args[0])?;
                let (dx, dy) = (self.eval(&args[1])?, self.eval(&args[2])?);
                shift(self.g, c, z, dx, dy)
            }
            Builtin::Ray | Builtin::Moves => {
                return Err(Fault::RayAsValue);
            }
            Builtin::Would => {
                let card = self.card(&args[0])?;
                let z = self.zone(&args[1])?;
                let mut tmp = SCRATCH
                    .with(|s| s.borrow_mut().pop())
                    .unwrap_or_else(|| c.clone());
                tmp.copy_from(c);
                // the cards that were there leave the table; the card
                // leaves its own place and lies alone in `z`
                for k in 0..tmp.zone(z as usize).len() {
                    let other = tmp.zone(z as usize)[k];
                    tmp.set_card_zone(other as usize, u16::MAX);
                }
                tmp.clear_zone(z as usize);
                tmp.lift(card as u16);
                tmp.insert_at(z as usize, 0, card as u16);
                tmp.set_card_zone(card as usize, z);
                let mut ev = Ev {
                    g: self.g,
                    c: &tmp,
                    locals: self.locals,
                    rng: None,
                };
                let r = ev.eval(&args[2]);
                SCRATCH.with(|s| s.borrow_mut().push(tmp));
                r?
            }
        })
    }
}

thread_local! {
    /// Spare tables for `would(...)`: refilled with `clone_from`, so a
    /// hypothetical move allocates nothing once warm.
    static SCRATCH: std::cell::RefCell<Vec<Core>> = const { std::cell::RefCell::new(Vec::new()) };
}
