//! Evaluating resolved expressions against a state: the interpreter's entry
//! to the compiled code (`compile.rs`, found through `program.rs`), with
//! the faults as a `Result`. Everything is an `i32`: numbers, booleans
//! (0/1), players and cards (-1 is none), enum values, zone instances.
//! Collections are walked through [`Coll`] descriptors, so evaluation
//! allocates nothing.

use super::chance::Draws;
pub use super::coll::Coll;
use super::compile::{self, Cx, Val};
use super::compile_call;
pub use super::fault::Fault;
use super::program::Program;
use super::table::Core;
use crate::hir::Expr;

/// Checked 32-bit arithmetic: a result out of range is a fault, never a wrap.
pub fn add(a: i32, b: i32) -> Result<i32, Fault> {
    a.checked_add(b).ok_or(Fault::Overflow)
}
pub fn sub(a: i32, b: i32) -> Result<i32, Fault> {
    a.checked_sub(b).ok_or(Fault::Overflow)
}

pub struct Ev<'a> {
    pub g: &'a Program,
    pub c: &'a Core,
    pub locals: &'a mut [i32],
    pub rng: Option<Draws<'a>>,
}

impl Ev<'_> {
    /// The context compiled code runs in, borrowing this evaluator's parts.
    fn cx(&mut self) -> Cx<'_> {
        Cx {
            g: self.g,
            c: self.c,
            locals: &mut *self.locals,
            rng: self.rng.as_mut().map(Draws::reborrow),
            fault: None,
            // taken on first use by a remembered function (memo.rs), so an
            // evaluation that remembers nothing pays nothing
            epoch: 0,
            temps: [0; super::cse::TEMPS],
            valid: 0,
        }
    }

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

    /// An expression as a collection (its compiled code, or compiled now
    /// if it is not the graph's own).
    pub fn coll(&mut self, e: &Expr) -> Result<Coll, Fault> {
        let prog = self.g;
        match prog.coll(e) {
            Some(f) => self.run_coll(f),
            None => self.run_coll(&compile_call::coll(prog, e)),
        }
    }

    /// Run a compiled collection.
    #[inline]
    pub(crate) fn run_coll(&mut self, f: &super::compile::Col) -> Result<Coll, Fault> {
        let mut cx = self.cx();
        let v = f(&mut cx);
        match cx.fault {
            Some(f) => Err(f),
            None => Ok(v),
        }
    }

    /// The value of an expression (its compiled code, or compiled now if
    /// it is not the graph's own: a REPL probe).
    pub fn eval(&mut self, e: &Expr) -> Result<i32, Fault> {
        // the leaves a node often holds: no lookup
        match e {
            Expr::Int(i) => return Ok(*i),
            Expr::Local(l) => return Ok(self.locals[*l as usize]),
            Expr::Current => return Ok(self.c.current),
            Expr::Actor => return Ok(self.c.actor),
            _ => {}
        }
        let prog = self.g;
        match prog.value(e) {
            Some(f) => self.run(f),
            None => self.run(&compile::value(prog, e)),
        }
    }

    /// Run compiled code.
    #[inline]
    pub(crate) fn run(&mut self, f: &Val) -> Result<i32, Fault> {
        let mut cx = self.cx();
        let v = f(&mut cx);
        match cx.fault {
            Some(f) => Err(f),
            None => Ok(v),
        }
    }
}
