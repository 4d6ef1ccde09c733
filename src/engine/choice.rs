//! Decisions run: the listing of the legal actions at a `choose` compiled
//! at load ([`Choice`](super::ops::Choice), in `ops.rs`: its chooser, guards, filters and
//! collections resolved to operands and code indices once;
//! [`super::program::Program`] keeps them), and a decision's start.
//!
//! The listing evaluates exactly what the node-by-node listing evaluated,
//! in the same order (each arm's collection, then per value its filter and
//! its guard), so the actions listed and the first fault are the same; it
//! only no longer finds each expression's code by its address.

use super::chance::Draws;
use super::eval::{Coll, Ev, Fault};
use super::ops::Operand;
use super::pools::{LOCALS, Locals};
use super::program::Program;
use super::state::Action;
use super::state::State;
use crate::graph::pack_pair;

impl Ev<'_> {
    /// The value of an operand resolved at load.
    #[inline(always)]
    fn operand(&mut self, a: Operand) -> Result<i32, Fault> {
        match a {
            Operand::K(k) => Ok(k),
            Operand::L(s) => Ok(self.locals[s as usize]),
            Operand::G(v) => Ok(self.c.vars[self.c.var_base[v as usize] as usize]),
            Operand::Current => Ok(self.c.current),
            Operand::Actor => Ok(self.c.actor),
            Operand::Code(i) => self.run(self.g.code(i)),
        }
    }
}

impl State {
    /// A decision (the `Op::Choose` at the current pc): list the legal
    /// actions once and wait, or take `otherwise`.
    pub(super) fn step_choose(&mut self, g: &Program, choice: u32) -> Result<(), Fault> {
        let ch = g.choice(choice);
        let base = self.frames.last().expect("a running game has a frame").base as usize;
        let p = Ev {
            g,
            c: &self.core,
            locals: &mut self.locals[base..],
            rng: Some(Draws::new(&mut self.rng, &mut self.chance)),
        }
        .operand(ch.who)?;
        if p < 0 || p >= self.core.n as i32 {
            return Err(Fault::NoPlayer);
        }
        if self.defer {
            // perft's last ply: the decision is not listed (see `resume`)
            self.waiting = Some(p as u8);
            return Ok(());
        }
        // The legal actions are listed once, here, and kept until the
        // decision is taken; a guard that faults is a fault now.
        let mut legal = std::mem::take(&mut self.legal);
        legal.clear();
        let listed = self.for_each_action(g, false, |a| {
            legal.push(a);
            true
        });
        self.legal = legal;
        listed?;
        if !self.legal.is_empty() {
            self.waiting = Some(p as u8);
        } else if let Some(o) = ch.otherwise {
            self.set_pc(o);
        } else {
            // Nothing can be chosen and the rules say nothing more:
            // the game is stuck here (rulecheck calls it a softlock).
            self.waiting = Some(p as u8);
        }
        Ok(())
    }

    /// Walk the legal actions of the choice node at the current pc; `f`
    /// returns false to stop early.
    ///
    /// Long on purpose: the hot listing loop, with plain, bound and paired
    /// arms written out in one function so `f` and the guards inline.
    pub(crate) fn for_each_action(
        &self,
        g: &Program,
        with_pass: bool,
        mut f: impl FnMut(Action) -> bool,
    ) -> Result<(), Fault> {
        let Some(fr) = self.frames.last() else {
            return Ok(());
        };
        let Some(ch) = g.choice_at(fr.phase, fr.pc) else {
            return Ok(());
        };
        // remembered function values are shared by the whole listing
        let _scope = super::memo::Scope::open(&self.core);
        // a copy of the frame's locals to bind into: a per-thread buffer
        // (a frame may have hundreds of slots), no allocation once warm
        let mut copy = Locals(LOCALS.with(|l| std::mem::take(&mut *l.borrow_mut())));
        copy.0.clear();
        copy.0.extend_from_slice(&self.locals[fr.base as usize..]);
        let locals = &mut copy.0[..];
        let mut ev = Ev {
            g,
            c: &self.core,
            locals,
            rng: None,
        };
        for (i, arm) in ch.arms.iter().enumerate() {
            match &arm.bind {
                None => {
                    if let Some(gd) = arm.guard
                        && ev.operand(gd)? == 0
                    {
                        continue;
                    }
                    if !f(Action {
                        arm: i as u16,
                        value: 0,
                    }) {
                        return Ok(());
                    }
                }
                Some(b) => {
                    let coll: Coll = ev.run_coll(g.coll_code(b.coll))?;
                    let go_on = coll.try_for_each(g, &self.core, |v| {
                        ev.locals[b.slot as usize] = v;
                        if let Some((slot, also)) = b.also {
                            // A second source: one action per pair of values.
                            let inner: Coll = ev.run_coll(g.coll_code(also))?;
                            return inner.try_for_each(g, &self.core, |w| {
                                ev.locals[slot as usize] = w;
                                for cond in [b.filter, arm.guard].into_iter().flatten() {
                                    if ev.operand(cond)? == 0 {
                                        return Ok(true);
                                    }
                                }
                                let value = pack_pair(v, w).ok_or(Fault::PairOutOfRange)?;
                                Ok(f(Action {
                                    arm: i as u16,
                                    value,
                                }))
                            });
                        }
                        if let Some(flt) = b.filter
                            && ev.operand(flt)? == 0
                        {
                            return Ok(true);
                        }
                        if let Some(gd) = arm.guard
                            && ev.operand(gd)? == 0
                        {
                            return Ok(true);
                        }
                        Ok(f(Action {
                            arm: i as u16,
                            value: v,
                        }))
                    })?;
                    if !go_on {
                        return Ok(());
                    }
                }
            }
        }
        if with_pass && ch.pass {
            f(Action {
                arm: Action::PASS,
                value: 0,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Game;
    use super::super::test_files::shipped_rules_files;
    use crate::graph::Node;

    /// Every decision of every shipped rules file is compiled: the node
    /// interpreter has no listing of its own.
    #[test]
    fn every_choice_is_compiled() {
        let mut choices = 0;
        for path in shipped_rules_files() {
            let game = Game::load(&path).unwrap_or_else(|d| panic!("{}", d.render_plain()));
            let g = game.graph();
            for (p, ph) in g.phases.iter().enumerate() {
                for (i, n) in ph.nodes.iter().enumerate() {
                    if let Node::Choose { arms, .. } = n {
                        let ch = g.choice_at(p as u16, i as u32);
                        let ch = ch.unwrap_or_else(|| panic!("{path}: {}:{i}", ph.name));
                        assert_eq!(ch.arms.len(), arms.len());
                        choices += 1;
                    }
                }
            }
        }
        assert!(choices > 50, "{choices} choices");
    }
}
