//! The interpreter: runs the nodes the run loop (`compile_phase.rs`)
//! hands over, and applies a decision (the legal actions are listed by
//! `choice.rs`). Reactions are calls pushed when a card enters a zone that
//! opens them.

use super::chance::Draws;
use super::coll::Coll;
use super::eval::{Ev, Fault, add, sub};
use super::ops::MAX_CALL_ARGS;
use super::pools;
use super::program::Program;
use super::state::{Action, Frame, State};
use crate::check::hir::{Place, ProcKind};
use crate::graph::{Node, unpack_pair};
use crate::syntax::ast::AssignOp;

/// Limits of a running game (docs/language.md, "Limits"); passing one is a
/// rules fault with the line, not a crash or unbounded memory.
pub const MAX_CALL_DEPTH: usize = 1000;
pub const MAX_CHECKPOINTS: usize = 64;
pub const MAX_FOR_VALUES: usize = 1_000_000;

/// Steps the interpreter may take between two decisions before it calls the
/// rules runaway.
pub const STEP_BUDGET: u64 = 5_000_000;

/// Where a fault happened: (phase, node).
pub type At = (u16, u32);

/// What the interpreter tells about each node it executes: the (phase,
/// node), and the state just before the node runs (the REPL's trace reads
/// the values bound and assigned from it). Any `FnMut(u16, u32)` is one.
pub trait Visit {
    /// Whether the visitor reads the state (then the run loop keeps the
    /// frame's program counter written before each visit).
    const READS_STATE: bool = true;
    fn visit(&mut self, state: &State, phase: u16, node: u32);
}

impl<F: FnMut(u16, u32)> Visit for F {
    const READS_STATE: bool = false;
    #[inline(always)]
    fn visit(&mut self, _: &State, phase: u16, node: u32) {
        self(phase, node)
    }
}

impl State {
    fn frame(&self) -> Frame {
        *self.frames.last().expect("a running game has a frame")
    }

    /// Evaluate with the current frame's locals.
    fn ev<T>(
        &mut self,
        g: &Program,
        f: impl FnOnce(&mut Ev) -> Result<T, Fault>,
    ) -> Result<T, Fault> {
        let base = self.frame().base as usize;
        let mut ev = Ev {
            g,
            c: &self.core,
            locals: &mut self.locals[base..],
            rng: Some(Draws::new(&mut self.rng, &mut self.chance)),
        };
        f(&mut ev)
    }

    pub(super) fn set_pc(&mut self, pc: u32) {
        self.frames.last_mut().expect("frame").pc = pc;
    }

    pub(super) fn call(&mut self, g: &Program, phase: u16, args: &[i32]) {
        let p = &g.phases[phase as usize];
        let base = self.locals.len() as u32;
        self.locals.resize(self.locals.len() + p.locals as usize, 0);
        for (i, a) in args.iter().enumerate() {
            self.locals[base as usize + i] = *a;
        }
        if p.kind == ProcKind::Turn {
            self.core.set_current(args[0]);
            self.turns += 1;
        }
        self.frames.push(Frame {
            phase,
            pc: 0,
            base,
            scratch: self.scratch.len() as u32,
            saved: self.checkpoints.len() as u32,
        });
    }

    pub(super) fn pop(&mut self) -> Frame {
        let f = self.frames.pop().expect("frame");
        self.locals.truncate(f.base as usize);
        self.scratch.truncate(f.scratch as usize);
        if self.checkpoints.len() > f.saved as usize {
            for c in self.checkpoints.drain(f.saved as usize..) {
                pools::give_spare(c);
            }
        }
        f
    }

    /// Open the reactions of the zone that `inst` belongs to.
    pub(super) fn trigger(&mut self, g: &Program, inst: u16, card: i32) {
        let z = self.core.inst_zone[inst as usize];
        for r in g.triggers[z as usize].iter().rev() {
            let args = if g.phases[*r as usize].params > 0 {
                &[card][..]
            } else {
                &[][..]
            };
            self.call(g, *r, args);
        }
    }

    /// Execute one node: dispatch by the kind of node (each group has
    /// its own function, so none of them grows long).
    pub(super) fn step(&mut self, g: &Program, fr: Frame) -> Result<(), Fault> {
        let node = &g.phases[fr.phase as usize].nodes[fr.pc as usize];
        match node {
            Node::ForStart { .. } | Node::ForNext { .. } => self.step_loop(g, fr, node),
            // every decision is compiled (`Op::Choose`); one that is not
            // could not be listed
            Node::Choose { .. } => Err(Fault::NoDecisionPending),
            Node::Assign(..) => self.step_assign(g, fr, node),
            Node::Move { .. }
            | Node::MoveAll { .. }
            | Node::Deal(..)
            | Node::Shuffle(_)
            | Node::Swap(..)
            | Node::Peek(..)
            | Node::Reveal(_) => self.step_cards(g, fr, node),
            _ => self.step_control(g, fr, node),
        }
    }

    /// Assignments, jumps, calls, returns, `leave`, checkpoints and the end.
    fn step_control(&mut self, g: &Program, fr: Frame, node: &Node) -> Result<(), Fault> {
        let next = fr.pc + 1;
        match node {
            Node::Jump(t) => self.set_pc(*t),
            Node::JumpIfNot(c, t) => {
                let v = self.ev(g, |ev| ev.eval(c))?;
                self.set_pc(if v != 0 { next } else { *t });
            }
            Node::Exit { iter, target } => {
                if let Some(i) = iter {
                    let base = self.locals[fr.base as usize + *i as usize] as usize;
                    self.scratch.truncate(base);
                }
                self.set_pc(*target);
            }
            Node::EndGame => self.over = true,
            Node::Leave(p) => {
                if !self.frames.iter().any(|f| f.phase == *p) {
                    return Err(Fault::LeaveNotRunning);
                }
                while self.pop().phase != *p {}
                if self.frames.is_empty() {
                    self.over = true;
                }
            }
            Node::Return => {
                self.pop();
                if self.frames.is_empty() {
                    self.over = true;
                }
            }
            Node::Call(p, args) => {
                let mut vals = [0i32; MAX_CALL_ARGS];
                if args.len() > vals.len() {
                    return Err(Fault::TooManyArguments);
                }
                for (i, a) in args.iter().enumerate() {
                    vals[i] = self.ev(g, |ev| ev.eval(a))?;
                }
                if self.frames.len() >= MAX_CALL_DEPTH {
                    return Err(Fault::CallsTooDeep);
                }
                self.set_pc(next);
                self.call(g, *p, &vals[..args.len()]);
            }
            Node::Checkpoint => {
                if self.checkpoints.len() >= MAX_CHECKPOINTS {
                    return Err(Fault::TooManyCheckpoints);
                }
                // a spare table from an earlier checkpoint: no allocation
                self.checkpoints.push(pools::copy_of(&self.core));
                self.set_pc(next);
            }
            Node::Rollback => {
                if self.checkpoints.len() > fr.saved as usize
                    && let Some(saved) = self.checkpoints.pop()
                {
                    // the decision-maker and turn stay as they are now
                    let (actor, current) = (self.core.actor, self.core.current);
                    // the table left behind is a spare for the next checkpoint
                    if let Some(old) = self.core.replace(saved) {
                        pools::give_spare(old);
                    }
                    self.core.set_actor(actor);
                    self.core.set_current(current);
                }
                self.set_pc(next);
            }
            _ => unreachable!("a control node"),
        }
        Ok(())
    }

    /// `x = e`, `x += e`, `x -= e` on a local, a variable, a player's or
    /// a card's variable.
    fn step_assign(&mut self, g: &Program, fr: Frame, node: &Node) -> Result<(), Fault> {
        let next = fr.pc + 1;
        match node {
            Node::Assign(place, op, e) => {
                let v = self.ev(g, |ev| ev.eval(e))?;
                let idx = match place {
                    Place::Local(s) => {
                        let i = fr.base as usize + *s as usize;
                        self.locals[i] = combine(*op, self.locals[i], v)?;
                        self.set_pc(next);
                        return Ok(());
                    }
                    Place::Global(var) => self.core.var_base[*var as usize] as usize,
                    Place::PerPlayer(var, p) => {
                        let p = self.ev(g, |ev| ev.player(p))?;
                        self.core.var_base[*var as usize] as usize + p as usize
                    }
                    Place::PerCard(var, c) => {
                        let c = self.ev(g, |ev| ev.card(c))?;
                        let i = self.core.var_base[*var as usize] as usize + c as usize;
                        // (nodes the ops compile leave here only when an
                        // operand has no compiled code: rare)
                        if g.in_bytes(usize::from(*var)) {
                            let v = combine(*op, i32::from(self.core.bytes[i]), v)?;
                            self.core.set_byte(i, v);
                            self.set_pc(next);
                            return Ok(());
                        }
                        i
                    }
                };
                let v = combine(*op, self.core.vars[idx], v)?;
                self.core.set_var(idx, v);
                self.set_pc(next);
            }
            _ => unreachable!("an assignment"),
        }
        Ok(())
    }

    /// A loop's snapshot of `coll` pushed on the scratch stack (its length,
    /// a cursor, then the values); where it starts, for the loop's local.
    /// Shared by the node interpreter and the flat `ForStart` op.
    pub(super) fn snapshot(&mut self, g: &Program, coll: Coll) -> Result<i32, Fault> {
        if coll.len(g, &self.core) > MAX_FOR_VALUES {
            return Err(Fault::ForTooLong);
        }
        let at = self.scratch.len();
        self.scratch.push(0);
        self.scratch.push(0);
        let scratch = &mut self.scratch;
        coll.try_for_each(g, &self.core, |v| {
            scratch.push(v);
            Ok(true)
        })?;
        self.scratch[at] = (self.scratch.len() - at - 2) as i32;
        Ok(at as i32)
    }

    /// `for`: snapshot the collection, then bind each value that passes the filter.
    fn step_loop(&mut self, g: &Program, fr: Frame, node: &Node) -> Result<(), Fault> {
        let next = fr.pc + 1;
        match node {
            Node::ForStart { coll, iter } => {
                let coll = self.ev(g, |ev| ev.coll(coll))?;
                let at = self.snapshot(g, coll)?;
                self.locals[fr.base as usize + *iter as usize] = at;
                self.set_pc(next);
            }
            Node::ForNext {
                slot,
                iter,
                filter,
                exit,
            } => {
                let base = self.locals[fr.base as usize + *iter as usize] as usize;
                loop {
                    let (len, pos) = (self.scratch[base], self.scratch[base + 1]);
                    if pos >= len {
                        self.scratch.truncate(base);
                        self.set_pc(*exit);
                        break;
                    }
                    self.scratch[base + 1] = pos + 1;
                    let v = self.scratch[base + 2 + pos as usize];
                    self.locals[fr.base as usize + *slot as usize] = v;
                    let keep = match filter {
                        Some(f) => self.ev(g, |ev| ev.eval(f))? != 0,
                        None => true,
                    };
                    if keep {
                        self.set_pc(next);
                        break;
                    }
                }
            }
            _ => unreachable!("a loop node"),
        }
        Ok(())
    }

    /// Nodes that move, shuffle, exchange, show or reveal cards.
    fn step_cards(&mut self, g: &Program, fr: Frame, node: &Node) -> Result<(), Fault> {
        let next = fr.pc + 1;
        match node {
            Node::Move { what, to, bottom } => {
                let (c, z) = self.ev(g, |ev| Ok((ev.card(what)?, ev.zone(to)?)))?;
                self.core.put(g, c as u16, z, *bottom);
                self.set_pc(next);
                self.trigger(g, z, c);
            }
            Node::MoveAll { from, to, bottom } => {
                let (f, z) = self.ev(g, |ev| Ok((ev.zone(from)?, ev.zone(to)?)))?;
                let last = self.move_all(g, f, z, *bottom);
                self.set_pc(next);
                if let Some(c) = last {
                    self.trigger(g, z, c);
                }
            }
            Node::Deal(n, from, to) => {
                let (n, f, z) = self.ev(g, |ev| Ok((ev.eval(n)?, ev.zone(from)?, ev.zone(to)?)))?;
                let last = self.deal(g, n, f, z);
                self.set_pc(next);
                if let Some(c) = last {
                    self.trigger(g, z, c);
                }
            }
            Node::Shuffle(z) => {
                let z = self.ev(g, |ev| ev.zone(z))?;
                Draws::new(&mut self.rng, &mut self.chance).shuffle(g, &mut self.core, z)?;
                self.set_pc(next);
            }
            Node::Swap(a, b) => {
                let (a, b) = self.ev(g, |ev| Ok((ev.card(a)?, ev.card(b)?)))?;
                self.core.swap(g, a as u16, b as u16);
                self.set_pc(next);
            }
            Node::Peek(p, c) => {
                let (p, c) = self.ev(g, |ev| Ok((ev.player(p)?, ev.card(c)?)))?;
                let k = self.core.known[c as usize] | 1 << p;
                self.core.set_known(c as usize, k);
                self.set_pc(next);
            }
            Node::Reveal(c) => {
                let c = self.ev(g, |ev| ev.card(c))?;
                let all = self.core.all_players();
                self.core.set_known(c as usize, all);
                self.set_pc(next);
            }
            _ => unreachable!("a card node"),
        }
        Ok(())
    }

    /// Move every card of instance `f` to `z` (`move all`): the card that
    /// opens `z`'s reactions (the one on top of `f` before), if any moved.
    pub(super) fn move_all(&mut self, g: &Program, f: u16, z: u16, bottom: bool) -> Option<i32> {
        if f == z {
            return None;
        }
        let count = self.core.zone(f as usize).len();
        let last = self.core.zone(f as usize).last().map(|c| *c as i32);
        // the cards are lifted one by one (bottom-first for a move to the
        // bottom, which reverses them there)
        for _ in 0..count {
            let from = self.core.zone(f as usize);
            let c = if bottom {
                from[from.len() - 1]
            } else {
                from[0]
            };
            self.core.put(g, c, z, bottom);
        }
        last
    }

    /// Deal `n` cards from the top of `f` to `z` (fewer if `f` runs out):
    /// the last card dealt, which opens `z`'s reactions.
    pub(super) fn deal(&mut self, g: &Program, n: i32, f: u16, z: u16) -> Option<i32> {
        let mut last = None;
        for _ in 0..n.max(0) {
            let Some(&c) = self.core.zone(f as usize).last() else {
                break;
            };
            self.core.put(g, c, z, false);
            last = Some(c as i32);
        }
        last
    }

    /// Take a decision at the pending choice (the caller checked legality) and run on.
    pub(crate) fn take_with<V: Visit>(
        &mut self,
        g: &Program,
        a: Action,
        visit: &mut V,
    ) -> Result<(), (Fault, At)> {
        let fr = self.frame();
        let Node::Choose { arms, pass, .. } = &g.phases[fr.phase as usize].nodes[fr.pc as usize]
        else {
            return Err((Fault::NoDecisionPending, (fr.phase, fr.pc)));
        };
        let actor = self.waiting.take().map(i32::from).unwrap_or(-1);
        self.core.set_actor(actor);
        self.listing_fault = None;
        self.decisions += 1;
        self.history.push(a);
        if a.arm == Action::PASS {
            self.set_pc(pass.ok_or((Fault::CannotPass, (fr.phase, fr.pc)))?);
        } else {
            let arm = &arms[a.arm as usize];
            if let Some(b) = &arm.bind {
                let base = fr.base as usize;
                match &arm.also {
                    Some((slot, _)) => {
                        let (v, w) = unpack_pair(a.value);
                        self.locals[base + b.slot as usize] = v;
                        self.locals[base + *slot as usize] = w;
                    }
                    None => self.locals[base + b.slot as usize] = a.value,
                }
            }
            self.set_pc(arm.target);
        }
        self.run_with(g, visit)
    }
}

fn combine(op: AssignOp, old: i32, v: i32) -> Result<i32, Fault> {
    match op {
        AssignOp::Set => Ok(v),
        AssignOp::Add => add(old, v),
        AssignOp::Sub => sub(old, v),
    }
}
