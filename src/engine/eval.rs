//! Evaluating resolved expressions against a state. Everything is an `i32`:
//! numbers, booleans (0/1), players and cards (-1 is none), enum values,
//! zone instances. Collections are walked through [`Coll`] descriptors, so
//! evaluation allocates nothing.

use super::state::Core;
use crate::check::hir::{BoardInfo, Builtin, Expr};
use crate::graph::Graph;
use crate::syntax::ast::{AggKind, BinOp};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A runtime fault in the rules (not in the engine). The engine reports it
/// as [`super::EngineError::Fault`] with the phase and line of the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    NoPlayer,
    NoCard,
    NoZone,
    MovesNotFromCell,
    RayNotFromCell,
    CollectionAsValue,
    RangeAsValue,
    DivisionByZero,
    /// Arithmetic whose result does not fit in a 32-bit integer.
    Overflow,
    SeatOutOfRange,
    RandomBounds,
    OrderAsValue,
    CellNeedsBoard,
    RayAsValue,
    TableKeyNone,
    LeaveNotRunning,
    TooManyArguments,
    NoDecisionPending,
    CannotPass,
    /// A `for` over more values than [`super::exec::MAX_FOR_VALUES`].
    ForTooLong,
    /// Calls nested deeper than [`super::exec::MAX_CALL_DEPTH`].
    CallsTooDeep,
    /// More checkpoints open than [`super::exec::MAX_CHECKPOINTS`].
    TooManyCheckpoints,
    /// No decision within [`super::STEP_BUDGET`] steps.
    Runaway,
}

impl Fault {
    /// The message shown to the rules' author.
    pub fn message(self) -> &'static str {
        match self {
            Fault::NoPlayer => "no such player (the value is none)",
            Fault::NoCard => "no such card (the value is none: is the zone empty?)",
            Fault::NoZone => "no such zone",
            Fault::MovesNotFromCell => "moves(...) starts from something that is not a board cell",
            Fault::RayNotFromCell => "ray(...) starts from something that is not a board cell",
            Fault::CollectionAsValue => "a collection cannot be used as a single value",
            Fault::RangeAsValue => "a range cannot be used as a single value",
            Fault::DivisionByZero => "division by zero",
            Fault::Overflow => "arithmetic overflow (the result does not fit in a 32-bit integer)",
            Fault::SeatOutOfRange => "seat number out of range",
            Fault::RandomBounds => "random(lo, hi) with hi below lo",
            Fault::OrderAsValue => "order(p) is a collection, not a value",
            Fault::CellNeedsBoard => "cell(x, y) needs a board",
            Fault::RayAsValue => "ray(...) and moves(...) are collections, not values",
            Fault::TableKeyNone => "a table key is none",
            Fault::LeaveNotRunning => "`leave` names a phase that is not running",
            Fault::TooManyArguments => "too many arguments (at most 16)",
            Fault::NoDecisionPending => "no decision is pending",
            Fault::CannotPass => "this choice cannot be passed",
            Fault::ForTooLong => "a `for` over more than 1,000,000 values",
            Fault::CallsTooDeep => {
                "phases call each other more than 1000 deep: is there an endless recursion?"
            }
            Fault::TooManyCheckpoints => {
                "more than 64 checkpoints are kept at once (each `checkpoint` needs a `rollback` or the end of its phase)"
            }
            Fault::Runaway => "runaway",
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

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
    pub rng: Option<&'a mut ChaCha8Rng>,
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
                match self.rng.as_deref_mut() {
                    Some(rng) => rng.random_range(lo..=hi),
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

/// The board and cell index of a zone instance, if it is a board cell.
pub fn cell_of(g: &Graph, c: &Core, inst: i32) -> Option<(usize, usize)> {
    if inst < 0 || inst as usize >= c.inst_zone.len() {
        return None;
    }
    let z = c.inst_zone[inst as usize] as usize;
    let b = g.tables.zones[z].board? as usize;
    Some((b, inst as usize - c.zone_base[z] as usize))
}

fn at_xy(b: &crate::check::hir::BoardInfo, c: &Core, x: i32, y: i32) -> i32 {
    if x < 0 || y < 0 || x >= b.width as i32 || y >= b.height as i32 {
        return -1;
    }
    match b.grid[(y * b.width as i32 + x) as usize] {
        k if k >= 0 => c.zone_base[b.zone as usize] as i32 + k as i32,
        _ => -1,
    }
}

/// The coordinates of a cell (the first of a merged group).
pub fn cell_xy(g: &Graph, c: &Core, inst: i32) -> Option<(i32, i32)> {
    let (b, k) = cell_of(g, c, inst)?;
    let (x, y) = g.tables.boards[b].cells[k];
    Some((x as i32, y as i32))
}

/// Most cells a board can have (26 columns by 99 rows): the size of the
/// bit set that keeps a pattern's targets distinct without allocating.
const MAX_CELLS: usize = 26 * 99;

/// Walks one lane: up to `n` cells along `d` from square `sq` of the cell
/// `from`, a merged cell crossed along the line counting once (a line keeps
/// its path through it). The lane ends at the edge or a removed square, on
/// coming back into `from`, and (`slide`) after the first occupied cell. A
/// null step stays on `from`. `f` gets each cell and returns false to stop
/// the whole walk; so does this function then.
fn walk_lane(
    board: &BoardInfo,
    c: &Core,
    from: i32,
    sq: (i8, i8),
    d: (i32, i32),
    (n, slide): (usize, bool),
    f: &mut impl FnMut(i32) -> bool,
) -> bool {
    let (mut x, mut y) = (sq.0 as i32, sq.1 as i32);
    let (mut last, mut i) = (from, 0);
    while i < n {
        let next = if d == (0, 0) {
            from
        } else {
            x += d.0;
            y += d.1;
            let next = at_xy(board, c, x, y);
            if next < 0 || next == from {
                return true;
            }
            if next == last {
                continue;
            }
            next
        };
        last = next;
        i += 1;
        if !f(next) {
            return false;
        }
        if slide && !c.zone(next as usize).is_empty() {
            return true;
        }
    }
    true
}

/// The lanes leaving cell `k` (instance `inst`) along `d`: its square for a
/// plain cell; for a merged cell, every square of it whose step along `d`
/// leaves the cell, one per line through it (so a merged cell's neighbours
/// are its squares' neighbours, less itself). Returns false if a walk stopped.
fn each_lane(
    board: &BoardInfo,
    c: &Core,
    inst: i32,
    k: usize,
    d: (i32, i32),
    reach: (usize, bool),
    f: &mut impl FnMut(i32) -> bool,
) -> bool {
    let squares = &board.squares[k];
    if d == (0, 0) {
        return walk_lane(board, c, inst, squares[0], d, reach, f);
    }
    for &sq in squares {
        if at_xy(board, c, sq.0 as i32 + d.0, sq.1 as i32 + d.1) != inst
            && !walk_lane(board, c, inst, sq, d, reach, f)
        {
            return false;
        }
    }
    true
}

/// Every cell of `ray(inst, dx, dy, n)`: along each lane, up to `n` cells,
/// stopping after the first occupied one. Returns false if `f` stopped.
pub fn each_ray_cell(
    g: &Graph,
    c: &Core,
    inst: i32,
    dx: i32,
    dy: i32,
    n: usize,
    f: &mut impl FnMut(i32) -> bool,
) -> bool {
    let Some((b, k)) = cell_of(g, c, inst) else {
        return true;
    };
    each_lane(&g.tables.boards[b], c, inst, k, (dx, dy), (n, true), f)
}

/// Every distinct cell a movement pattern reaches from `start` (turned by
/// `facing`; a slide goes at most `n` cells), in the pattern's order, each
/// once: a cell two vectors or two lanes reach (a merged cell next to the
/// start, a neighbour of a merged start) is given the first time only.
/// Returns false if `f` stopped.
pub fn each_move(
    g: &Graph,
    c: &Core,
    start: u16,
    pattern: u16,
    facing: u8,
    n: u8,
    f: &mut impl FnMut(i32) -> bool,
) -> bool {
    let Some((b, k)) = cell_of(g, c, start as i32) else {
        return true;
    };
    let Some(p) = g.tables.patterns.get(pattern as usize) else {
        return true;
    };
    let board = &g.tables.boards[b];
    let base = c.zone_base[board.zone as usize] as i32;
    let mut seen = [0u64; MAX_CELLS.div_ceil(64)];
    let mut fresh = |cell: i32| {
        let i = (cell - base) as usize;
        let (w, bit) = (i / 64, 1u64 << (i % 64));
        if seen[w] & bit != 0 {
            return true;
        }
        seen[w] |= bit;
        f(cell)
    };
    for m in &p.moves {
        let (dx, dy) = turn(m.1, m.2, facing);
        let reach = if m.0 == 1 {
            (n as usize, true)
        } else {
            (1, false)
        };
        let d = (dx.clamp(-64, 64), dy.clamp(-64, 64));
        if !each_lane(board, c, start as i32, k, d, reach, &mut fresh) {
            return false;
        }
    }
    true
}

/// The `i`-th cell (from 0) stepping from a cell along (dx, dy), or -1 past
/// the edge: along its first lane (for a merged cell, the line leaving its
/// first square that leaves it; `ray` gives every lane). A merged group
/// counts as one cell and is crossed along the line.
pub fn ray_nth(g: &Graph, c: &Core, inst: i32, dx: i32, dy: i32, i: usize) -> i32 {
    let Some((b, k)) = cell_of(g, c, inst) else {
        return -1;
    };
    if dx == 0 && dy == 0 {
        return inst;
    }
    let board = &g.tables.boards[b];
    let d = (dx.clamp(-128, 128), dy.clamp(-128, 128));
    let first = board.squares[k]
        .iter()
        .find(|sq| at_xy(board, c, sq.0 as i32 + d.0, sq.1 as i32 + d.1) != inst);
    let Some(&sq) = first else {
        return -1;
    };
    let (mut out, mut j) = (-1, 0);
    walk_lane(board, c, inst, sq, d, (i + 1, false), &mut |cell| {
        if j == i {
            out = cell;
            return false;
        }
        j += 1;
        true
    });
    out
}

/// One step from a cell.
pub fn shift(g: &Graph, c: &Core, inst: i32, dx: i32, dy: i32) -> i32 {
    ray_nth(g, c, inst, dx, dy, 0)
}

/// A vector turned a quarter clockwise `facing` times ((0, 1) forward becomes (1, 0)).
fn turn(dx: i8, dy: i8, facing: u8) -> (i32, i32) {
    let (mut x, mut y) = (dx as i32, dy as i32);
    for _ in 0..facing {
        (x, y) = (y, -x);
    }
    (x, y)
}
