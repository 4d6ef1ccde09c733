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
    Players,
    Order(i32),
    Range(i32, i32),
    Enum(u16),
}

impl Coll {
    pub fn len(self, g: &Graph, c: &Core) -> usize {
        match self {
            Coll::Zone(i) => c.zones[i as usize].len(),
            Coll::ZoneAll(z) => (0..c.n as usize)
                .map(|p| c.zones[c.zone_base[z as usize] as usize + p].len())
                .sum(),
            Coll::Players | Coll::Order(_) => c.n as usize,
            Coll::Range(lo, hi) => (hi - lo + 1).max(0) as usize,
            Coll::Enum(e) => g.tables.enums[e as usize].values.len(),
        }
    }

    pub fn get(self, c: &Core, i: usize) -> i32 {
        match self {
            Coll::Zone(z) => c.zones[z as usize][i] as i32,
            Coll::ZoneAll(z) => {
                let mut i = i;
                let base = c.zone_base[z as usize] as usize;
                for p in 0..c.n as usize {
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

    pub fn contains(self, c: &Core, v: i32) -> bool {
        match self {
            Coll::Zone(z) => v >= 0 && (v as usize) < c.card_zone.len() && c.card_zone[v as usize] == z,
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
            Expr::ZoneAll(_) | Expr::Players | Expr::EnumAll(_) => {
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
            Expr::Cond(cond, a, b) => {
                if self.eval(cond)? != 0 {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Expr::Bin(op, l, r) => return self.binary(*op, l, r),
            Expr::Call(b, args) => return self.call(*b, args),
            Expr::Agg { kind, slot, coll, filter, body } => {
                let coll = self.coll(coll)?;
                let n = coll.len(self.g, c);
                let mut acc: Option<i32> = None;
                let mut count = 0;
                for i in 0..n {
                    let v = coll.get(c, i);
                    self.locals[*slot as usize] = v;
                    if let Some(f) = filter
                        && self.eval(f)? == 0
                    {
                        if *kind == AggKind::All {
                            // filtered-out elements do not count against `all`
                        }
                        continue;
                    }
                    match kind {
                        AggKind::Count => count += 1,
                        AggKind::Any => return Ok(1),
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
                    AggKind::All => {
                        // `all(x in c where cond)`: every element satisfies cond
                        for i in 0..n {
                            let v = coll.get(c, i);
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
                return Ok(coll.contains(self.c, v) as i32);
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
                let card = if b == Builtin::Top { zone.last() } else { zone.first() };
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
        })
    }
}
