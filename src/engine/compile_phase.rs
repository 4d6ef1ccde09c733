//! The interpreter's run loop over the flat ops of a phase (`ops.rs`).
//!
//! The run loop keeps the current frame (phase, program counter, locals
//! base) in locals while it runs ops, and writes the counter back to the
//! frame only when it hands over a node (an [`Op::Node`], to `exec.rs`),
//! stops, or faults: the state a visitor or a caller sees is the one the
//! node-by-node loop gave.

use super::chance::Draws;
use super::eval::{Ev, Fault, add, sub};
use super::exec::{At, MAX_CALL_DEPTH, STEP_BUDGET, Visit};
use super::ops::{Indexed, MAX_CALL_ARGS, Op, Operand};
use super::program::Program;
use super::state::State;
use crate::syntax::ast::AssignOp;

#[inline(always)]
fn combine(op: AssignOp, old: i32, v: i32) -> Result<i32, Fault> {
    match op {
        AssignOp::Set => Ok(v),
        AssignOp::Add => add(old, v),
        AssignOp::Sub => sub(old, v),
    }
}

impl State {
    /// The value of an operand, with the locals starting at `base`.
    #[inline(always)]
    fn operand(&mut self, g: &Program, base: usize, a: Operand) -> Result<i32, Fault> {
        match a {
            Operand::K(k) => Ok(k),
            Operand::L(s) => Ok(self.locals[base + s as usize]),
            Operand::G(v) => Ok(self.core.vars[self.core.var_base[v as usize] as usize]),
            Operand::Current => Ok(self.core.current),
            Operand::Actor => Ok(self.core.actor),
            Operand::Code(i) => Ev {
                g,
                c: &self.core,
                locals: &mut self.locals[base..],
                rng: Some(Draws::new(&mut self.rng, &mut self.chance)),
            }
            .run(g.code(i)),
        }
    }

    /// `c` if it is a card, else a fault.
    #[inline(always)]
    fn checked_card(&self, c: i32) -> Result<i32, Fault> {
        if c < 0 || c as usize >= self.core.card_count() {
            return Err(Fault::NoCard);
        }
        Ok(c)
    }

    /// A card and a zone instance (in that order, each checked).
    #[inline(always)]
    fn card_and_zone(
        &mut self,
        g: &Program,
        base: usize,
        what: Operand,
        to: Operand,
    ) -> Result<(i32, u16), Fault> {
        let c = self.operand(g, base, what)?;
        let c = self.checked_card(c)?;
        let z = self.operand(g, base, to)?;
        if z < 0 || z as usize >= self.core.insts() {
            return Err(Fault::NoZone);
        }
        Ok((c, z as u16))
    }

    /// `z` if it is a zone instance, else a fault.
    #[inline(always)]
    fn checked_zone(&self, z: i32) -> Result<u16, Fault> {
        if z < 0 || z as usize >= self.core.insts() {
            return Err(Fault::NoZone);
        }
        Ok(z as u16)
    }

    /// Whether a card entering instance `z` opens reactions.
    #[inline(always)]
    fn opens(&self, g: &Program, z: u16) -> bool {
        !g.triggers[self.core.inst_zone[z as usize] as usize].is_empty()
    }

    /// `deal`'s three operands, evaluated and checked in order.
    fn deal_args(&mut self, g: &Program, base: usize, at: u32) -> Result<(i32, u16, u16), Fault> {
        let a = g.call_args(at, 3);
        let n = self.operand(g, base, a[0])?;
        let f = self.operand(g, base, a[1])?;
        let f = self.checked_zone(f)?;
        let z = self.operand(g, base, a[2])?;
        Ok((n, f, self.checked_zone(z)?))
    }

    /// A player's number, checked.
    #[inline(always)]
    fn checked_player(&self, p: i32) -> Result<i32, Fault> {
        if p < 0 || p >= self.core.n as i32 {
            return Err(Fault::NoPlayer);
        }
        Ok(p)
    }

    /// `var[at] op= value` on a player's or a card's variable: the value
    /// first, then the player or card (the order of the node's faults).
    #[inline(always)]
    fn set_indexed_var(
        &mut self,
        g: &Program,
        base: usize,
        (var, op, slots): (u32, AssignOp, Indexed),
        at: Operand,
        value: Operand,
    ) -> Result<(), Fault> {
        let v = self.operand(g, base, value)?;
        let a = self.operand(g, base, at)?;
        let a = match slots {
            Indexed::Player => self.checked_player(a)?,
            Indexed::Card | Indexed::CardByte => self.checked_card(a)?,
        };
        let i = self.core.var_base[var as usize] as usize + a as usize;
        if slots == Indexed::CardByte {
            // a byte variable is written with `=` only: no sum overflows
            let v = combine(op, i32::from(self.core.bytes[i]), v)?;
            self.core.set_byte(i, v);
        } else {
            let v = combine(op, self.core.vars[i], v)?;
            self.core.set_var(i, v);
        }
        Ok(())
    }

    /// Snapshot a collection for a loop (see `Node::ForStart`).
    fn for_start(&mut self, g: &Program, base: usize, coll: u32, iter: u16) -> Result<(), Fault> {
        let coll = Ev {
            g,
            c: &self.core,
            locals: &mut self.locals[base..],
            rng: Some(Draws::new(&mut self.rng, &mut self.chance)),
        }
        .run_coll(g.coll_code(coll))?;
        self.locals[base + iter as usize] = self.snapshot(g, coll)?;
        Ok(())
    }

    /// Bind the next element of a loop's snapshot that passes the filter:
    /// true if one was bound, false (the snapshot dropped) at the end.
    #[inline(always)]
    fn for_next(
        &mut self,
        g: &Program,
        base: usize,
        slot: u16,
        iter: u16,
        filter: Option<Operand>,
    ) -> Result<bool, Fault> {
        let at = self.locals[base + iter as usize] as usize;
        loop {
            let (len, pos) = (self.scratch[at], self.scratch[at + 1]);
            if pos >= len {
                self.scratch.truncate(at);
                return Ok(false);
            }
            self.scratch[at + 1] = pos + 1;
            let v = self.scratch[at + 2 + pos as usize];
            self.locals[base + slot as usize] = v;
            let keep = match filter {
                Some(f) => self.operand(g, base, f)? != 0,
                None => true,
            };
            if keep {
                return Ok(true);
            }
        }
    }

    /// Run until a decision, the end, or a fault, telling `visit` each
    /// (phase, node) executed (for coverage and tracing; a no-op closure
    /// costs nothing).
    pub(crate) fn run_with<V: Visit>(
        &mut self,
        g: &Program,
        visit: &mut V,
    ) -> Result<(), (Fault, At)> {
        let budget = self.steps + STEP_BUDGET;
        while !self.over && self.waiting.is_none() {
            let Some(fr) = self.frames.last().copied() else {
                self.over = true;
                break;
            };
            let ops = g.ops(fr.phase);
            let base = fr.base as usize;
            let mut pc = fr.pc;
            // ops in registers until a node needs the interpreter
            loop {
                self.steps += 1;
                if self.steps > budget {
                    self.set_pc(pc);
                    return Err((Fault::Runaway, (fr.phase, pc)));
                }
                if V::READS_STATE {
                    self.set_pc(pc);
                }
                visit.visit(self, fr.phase, pc);
                let r = match ops[pc as usize] {
                    Op::Jump(t) => {
                        pc = t;
                        continue;
                    }
                    Op::JumpIfNot(c, t) => self.operand(g, base, c).map(|v| {
                        pc = if v != 0 { pc + 1 } else { t };
                    }),
                    Op::SetLocal(s, o, e) => self.operand(g, base, e).and_then(|v| {
                        let i = base + s as usize;
                        self.locals[i] = combine(o, self.locals[i], v)?;
                        pc += 1;
                        Ok(())
                    }),
                    Op::SetGlobal(var, o, e) => self.operand(g, base, e).and_then(|v| {
                        let i = self.core.var_base[var as usize] as usize;
                        let v = combine(o, self.core.vars[i], v)?;
                        self.core.set_var(i, v);
                        pc += 1;
                        Ok(())
                    }),
                    Op::ForNext {
                        slot,
                        iter,
                        filter,
                        exit,
                    } => self.for_next(g, base, slot, iter, filter).map(|keep| {
                        pc = if keep { pc + 1 } else { exit };
                    }),
                    Op::Exit(iter, t) => {
                        if let Some(i) = iter {
                            let at = self.locals[base + i as usize] as usize;
                            self.scratch.truncate(at);
                        }
                        pc = t;
                        continue;
                    }
                    Op::Move(what, to, bottom) => match self.card_and_zone(g, base, what, to) {
                        Ok((c, z)) => {
                            self.core.put(g, c as u16, z, bottom);
                            pc += 1;
                            let zone = self.core.inst_zone[z as usize] as usize;
                            if !g.triggers[zone].is_empty() {
                                self.set_pc(pc);
                                self.trigger(g, z, c);
                                break;
                            }
                            Ok(())
                        }
                        Err(f) => Err(f),
                    },
                    Op::Reveal(c) => self.operand(g, base, c).and_then(|c| {
                        let c = self.checked_card(c)?;
                        let all = self.core.all_players();
                        self.core.set_known(c as usize, all);
                        pc += 1;
                        Ok(())
                    }),
                    Op::Call(p, n, at) => {
                        let mut vals = [0i32; MAX_CALL_ARGS];
                        let mut r = Ok(());
                        let args = g.call_args(at, n);
                        for (v, a) in vals.iter_mut().zip(args) {
                            match self.operand(g, base, *a) {
                                Ok(x) => *v = x,
                                Err(f) => {
                                    r = Err(f);
                                    break;
                                }
                            }
                        }
                        if r.is_ok() && self.frames.len() >= MAX_CALL_DEPTH {
                            r = Err(Fault::CallsTooDeep);
                        }
                        if r.is_ok() {
                            self.set_pc(pc + 1);
                            self.call(g, p, &vals[..n as usize]);
                            break;
                        }
                        r
                    }
                    Op::Return => {
                        self.pop();
                        if self.frames.is_empty() {
                            self.over = true;
                        }
                        break;
                    }
                    Op::MoveAll(from, to, bottom) => {
                        let zones = self.operand(g, base, from).and_then(|f| {
                            let f = self.checked_zone(f)?;
                            let z = self.operand(g, base, to)?;
                            Ok((f, self.checked_zone(z)?))
                        });
                        match zones {
                            Ok((f, z)) => {
                                let last = self.move_all(g, f, z, bottom);
                                pc += 1;
                                if let Some(c) = last
                                    && self.opens(g, z)
                                {
                                    self.set_pc(pc);
                                    self.trigger(g, z, c);
                                    break;
                                }
                                Ok(())
                            }
                            Err(f) => Err(f),
                        }
                    }
                    Op::Deal(at) => match self.deal_args(g, base, at) {
                        Ok((n, f, z)) => {
                            let last = self.deal(g, n, f, z);
                            pc += 1;
                            if let Some(c) = last
                                && self.opens(g, z)
                            {
                                self.set_pc(pc);
                                self.trigger(g, z, c);
                                break;
                            }
                            Ok(())
                        }
                        Err(f) => Err(f),
                    },
                    Op::Shuffle(z) => self.operand(g, base, z).and_then(|z| {
                        let z = self.checked_zone(z)?;
                        Draws::new(&mut self.rng, &mut self.chance).shuffle(
                            g,
                            &mut self.core,
                            z,
                        )?;
                        pc += 1;
                        Ok(())
                    }),
                    Op::Choose(i) => {
                        self.set_pc(pc);
                        self.step_choose(g, i).map_err(|f| (f, (fr.phase, pc)))?;
                        break;
                    }
                    Op::ForStart(coll, iter) => self.for_start(g, base, coll, iter).map(|()| {
                        pc += 1;
                    }),
                    Op::Swap(a, b) => self.operand(g, base, a).and_then(|a| {
                        let a = self.checked_card(a)?;
                        let b = self.operand(g, base, b)?;
                        let b = self.checked_card(b)?;
                        self.core.swap(g, a as u16, b as u16);
                        pc += 1;
                        Ok(())
                    }),
                    Op::Peek(p, c) => self.operand(g, base, p).and_then(|p| {
                        let p = self.checked_player(p)?;
                        let c = self.operand(g, base, c)?;
                        let c = self.checked_card(c)? as usize;
                        let k = self.core.known[c] | 1 << p;
                        self.core.set_known(c, k);
                        pc += 1;
                        Ok(())
                    }),
                    Op::SetVar {
                        var,
                        op,
                        slots,
                        at,
                        value,
                    } => self
                        .set_indexed_var(g, base, (var, op, slots), at, value)
                        .map(|()| pc += 1),
                    Op::Node => {
                        self.set_pc(pc);
                        let mut at = fr;
                        at.pc = pc;
                        self.step(g, at).map_err(|f| (f, (fr.phase, pc)))?;
                        break;
                    }
                };
                if let Err(f) = r {
                    self.set_pc(pc);
                    return Err((f, (fr.phase, pc)));
                }
            }
        }
        Ok(())
    }
}
