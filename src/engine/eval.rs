//! Evaluating resolved expressions against a state. Everything is an `i32`:
//! numbers, booleans (0/1), players and cards (-1 is none), enum values,
//! zone instances. Collections are walked through [`Coll`] descriptors, so
//! evaluation allocates nothing.

use super::state::Core;
use crate::check::hir::{Builtin, Expr};
use crate::graph::Graph;
use crate::syntax::ast::{AggKind, BinOp};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A runtime fault in the rules (not in the engine): reported with the node's span.
pub type Fault = &'static str;

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
            Coll::Zone(i) => c.zones[i as usize].len(),
            Coll::ZoneAll(z) => (0..c.zone_count[z as usize] as usize)
                .map(|p| c.zones[c.zone_base[z as usize] as usize + p].len())
                .sum(),
            Coll::Region(b, r) => g.tables.boards[b as usize].regions[r as usize]
                .1
                .iter()
                .filter(|m| **m)
                .count(),
            Coll::Ray { start, dx, dy, n } => ray_len(g, c, start, dx, dy, n),
            Coll::Moves {
                start,
                pattern,
                facing,
                n,
            } => g.tables.patterns[pattern as usize]
                .moves
                .iter()
                .map(|m| move_len(g, c, start, *m, facing, n))
                .sum(),
            Coll::Players | Coll::Order(_) => c.n as usize,
            Coll::Range(lo, hi) => (hi as i64 - lo as i64 + 1).max(0) as usize,
            Coll::Enum(e) => g.tables.enums[e as usize].values.len(),
        }
    }

    pub fn get(self, g: &Graph, c: &Core, i: usize) -> i32 {
        match self {
            Coll::Zone(z) => c.zones[z as usize][i] as i32,
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
            Coll::Ray { start, dx, dy, .. } => ray_nth(g, c, start as i32, dx as i32, dy as i32, i),
            Coll::Moves {
                start,
                pattern,
                facing,
                n,
            } => {
                let mut i = i;
                for m in &g.tables.patterns[pattern as usize].moves {
                    let len = move_len(g, c, start, *m, facing, n);
                    if i < len {
                        let (dx, dy) = turn(m.1, m.2, facing);
                        return ray_nth(g, c, start as i32, dx, dy, i);
                    }
                    i -= len;
                }
                -1
            }
            Coll::ZoneAll(z) => {
                let mut i = i;
                let base = c.zone_base[z as usize] as usize;
                for p in 0..c.zone_count[z as usize] as usize {
                    let zone = &c.zones[base + p];
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

    pub fn contains(self, g: &Graph, c: &Core, v: i32) -> bool {
        match self {
            Coll::Region(b, r) => {
                let board = &g.tables.boards[b as usize];
                let base = c.zone_base[board.zone as usize] as i32;
                v >= base
                    && ((v - base) as usize) < board.cells.len()
                    && board.regions[r as usize].1[(v - base) as usize]
            }
            Coll::Ray { .. } | Coll::Moves { .. } => {
                (0..self.len(g, c)).any(|i| self.get(g, c, i) == v)
            }
            Coll::Zone(z) => {
                v >= 0 && (v as usize) < c.card_zone.len() && c.card_zone[v as usize] == z
            }
            Coll::ZoneAll(z) => {
                v >= 0
                    && (v as usize) < c.card_zone.len()
                    && c.inst_zone[c.card_zone[v as usize] as usize] == z
            }
            Coll::Players | Coll::Order(_) => v >= 0 && v < c.n as i32,
            Coll::Range(lo, hi) => v >= lo && v <= hi,
            Coll::Enum(_) => v >= 0,
        }
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
            return Err("no such player (the value is none)");
        }
        Ok(p)
    }

    pub fn card(&mut self, e: &Expr) -> Result<i32, Fault> {
        let c = self.eval(e)?;
        if c < 0 || c as usize >= self.c.card_zone.len() {
            return Err("no such card (the value is none: is the zone empty?)");
        }
        Ok(c)
    }

    pub fn zone(&mut self, e: &Expr) -> Result<u16, Fault> {
        let z = self.eval(e)?;
        if z < 0 || z as usize >= self.c.zones.len() {
            return Err("no such zone");
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
                    return Err("moves(...) starts from something that is not a board cell");
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
                    return Err("ray(...) starts from something that is not a board cell");
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
                *values.get(k as usize).ok_or("a table key is none")?
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
                return Err("a collection cannot be used as a single value");
            }
            Expr::PlayerCount => c.n as i32,
            Expr::Actor => c.actor,
            Expr::Current => c.current,
            Expr::Index(z, i) => {
                let z = self.zone(z)?;
                let i = self.eval(i)?;
                let zone = &c.zones[z as usize];
                if i < 0 || i as usize >= zone.len() {
                    -1
                } else {
                    zone[i as usize] as i32
                }
            }
            Expr::Not(x) => (self.eval(x)? == 0) as i32,
            Expr::Neg(x) => self.eval(x)?.wrapping_neg(),
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
            } => {
                let coll = self.coll(coll)?;
                let n = coll.len(self.g, c);
                let mut acc: Option<i32> = None;
                let mut count = 0;
                for i in 0..n {
                    let v = coll.get(self.g, c, i);
                    self.locals[*slot as usize] = v;
                    if *kind == AggKind::All {
                        continue;
                    }
                    if let Some(f) = filter
                        && self.eval(f)? == 0
                    {
                        continue;
                    }
                    match kind {
                        AggKind::Count => count += 1,
                        AggKind::Any => return Ok(1),
                        AggKind::First => return Ok(v),
                        AggKind::All => {}
                        AggKind::Sum | AggKind::Min | AggKind::Max => {
                            let x = match body {
                                Some(b) => self.eval(b)?,
                                None => v,
                            };
                            acc = Some(match (kind, acc) {
                                (_, None) => x,
                                (AggKind::Sum, Some(a)) => a.wrapping_add(x),
                                (AggKind::Min, Some(a)) => a.min(x),
                                (_, Some(a)) => a.max(x),
                            });
                        }
                    }
                }
                match kind {
                    AggKind::Count => count,
                    AggKind::Any => 0,
                    AggKind::First => -1,
                    AggKind::All => {
                        // `all(x in c where cond)`: every element satisfies cond
                        for i in 0..n {
                            let v = coll.get(self.g, c, i);
                            self.locals[*slot as usize] = v;
                            if let Some(f) = filter
                                && self.eval(f)? == 0
                            {
                                return Ok(0);
                            }
                        }
                        1
                    }
                    _ => acc.unwrap_or(0),
                }
            }
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
            BinOp::Range => return Err("a range cannot be used as a single value"),
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
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div => {
                if b == 0 {
                    return Err("division by zero");
                }
                a.wrapping_div(b)
            }
            BinOp::Mod => {
                if b == 0 {
                    return Err("division by zero");
                }
                a.rem_euclid(b)
            }
            _ => unreachable!("handled above"),
        })
    }

    fn call(&mut self, b: Builtin, args: &[Expr]) -> Result<i32, Fault> {
        let c = self.c;
        Ok(match b {
            Builtin::Top | Builtin::Bottom => {
                let z = self.zone(&args[0])?;
                let zone = &c.zones[z as usize];
                let card = if b == Builtin::Top {
                    zone.last()
                } else {
                    zone.first()
                };
                card.map(|x| *x as i32).unwrap_or(-1)
            }
            Builtin::Size => c.zones[self.zone(&args[0])? as usize].len() as i32,
            Builtin::Next => c.step(self.player(&args[0])?, 1),
            Builtin::Prev => c.step(self.player(&args[0])?, -1),
            Builtin::Owner => {
                let card = self.card(&args[0])?;
                c.inst_owner[c.card_zone[card as usize] as usize] as i32
            }
            Builtin::Pos => {
                let card = self.card(&args[0])?;
                c.position(card as u16) as i32
            }
            Builtin::Seat => {
                let i = self.eval(&args[0])?;
                if i < 0 || i >= c.n as i32 {
                    return Err("seat number out of range");
                }
                i
            }
            Builtin::Random => {
                let lo = self.eval(&args[0])?;
                let hi = self.eval(&args[1])?;
                if hi < lo {
                    return Err("random(lo, hi) with hi below lo");
                }
                match self.rng.as_deref_mut() {
                    Some(rng) => rng.random_range(lo..=hi),
                    None => lo,
                }
            }
            Builtin::Order => return Err("order(p) is a collection, not a value"),
            Builtin::Knows => {
                let p = self.player(&args[0])?;
                let card = self.card(&args[1])?;
                ((c.known[card as usize] >> p) & 1) as i32
            }
            Builtin::InZone => {
                let card = self.card(&args[0])?;
                let z = self.zone(&args[1])?;
                (c.card_zone[card as usize] == z) as i32
            }
            Builtin::ZoneOf => c.card_zone[self.card(&args[0])? as usize] as i32,
            Builtin::Cell => {
                let (x, y) = (self.eval(&args[0])?, self.eval(&args[1])?);
                let Some(b) = self.g.tables.boards.first() else {
                    return Err("cell(x, y) needs a board");
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
                return Err("ray(...) and moves(...) are collections, not values");
            }
            Builtin::Would => {
                let card = self.card(&args[0])?;
                let z = self.zone(&args[1])?;
                let mut tmp = SCRATCH
                    .with(|s| s.borrow_mut().pop())
                    .unwrap_or_else(|| c.clone());
                tmp.copy_from(c);
                for other in std::mem::take(&mut tmp.zones[z as usize]) {
                    tmp.card_zone[other as usize] = u16::MAX;
                }
                let from = tmp.card_zone[card as usize];
                if from != u16::MAX {
                    tmp.zones[from as usize].retain(|x| *x as i32 != card);
                }
                tmp.zones[z as usize].push(card as u16);
                tmp.card_zone[card as usize] = z;
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

/// The `i`-th cell (from 0) stepping from a cell along (dx, dy), or -1 past
/// the edge. A merged group counts as one cell and is crossed along the line.
pub fn ray_nth(g: &Graph, c: &Core, inst: i32, dx: i32, dy: i32, i: usize) -> i32 {
    let Some((b, k)) = cell_of(g, c, inst) else {
        return -1;
    };
    if dx == 0 && dy == 0 {
        return inst;
    }
    let board = &g.tables.boards[b];
    let (mut x, mut y) = (board.cells[k].0 as i32, board.cells[k].1 as i32);
    let (mut last, mut steps) = (inst, 0);
    loop {
        x += dx;
        y += dy;
        let next = at_xy(board, c, x, y);
        if next < 0 {
            return -1;
        }
        if next != last {
            if steps == i {
                return next;
            }
            steps += 1;
            last = next;
        }
    }
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

/// How many cells one vector of a pattern gives: a step or leap one (if on
/// the board), a slide up to n, stopping at the first occupied cell.
fn move_len(g: &Graph, c: &Core, start: u16, m: (u8, i8, i8), facing: u8, n: u8) -> usize {
    let (dx, dy) = turn(m.1, m.2, facing);
    match m.0 {
        1 => ray_len(
            g,
            c,
            start,
            dx.clamp(-64, 64) as i8,
            dy.clamp(-64, 64) as i8,
            n,
        ),
        _ => usize::from(ray_nth(g, c, start as i32, dx, dy, 0) >= 0),
    }
}

fn ray_len(g: &Graph, c: &Core, start: u16, dx: i8, dy: i8, n: u8) -> usize {
    for i in 0..n as usize {
        let at = ray_nth(g, c, start as i32, dx as i32, dy as i32, i);
        if at < 0 {
            return i;
        }
        if !c.zones[at as usize].is_empty() {
            return i + 1;
        }
    }
    n as usize
}
