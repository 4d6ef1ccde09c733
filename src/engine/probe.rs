//! An expression of the rules language evaluated against a state, for the
//! REPL's `expect`: parsed and checked against the game's own rules text
//! (global names plus players `P0`, `P1`...), then run by the evaluator with
//! the players bound as locals; and the trace's look at the state before
//! each node a move runs. Nothing here runs in the hot loop.

use super::eval::Ev;
use super::exec::{Action, Visit};
use super::{EngineError, Game, State};
use crate::hir::{Expr, Ty};

/// A checked expression, ready to be evaluated on any state of its game.
pub struct Probe {
    pub expr: Expr,
    pub ty: Ty,
    players: usize,
}

impl Game {
    /// Parse and check `text` as an expression in this game's global scope,
    /// with `P0..P{players-1}` naming the players.
    pub fn probe(&self, text: &str, players: usize) -> Result<Probe, String> {
        let e = crate::syntax::parse_expr(text)?;
        let source = &self.data.source;
        let (mut file, _) = crate::syntax::parse_file(&source.text);
        if source.base_len > 0 {
            crate::syntax::merge_variant(&mut file, source.base_len);
        }
        let (expr, ty) = crate::check::check_expr(&file, &e, players)?;
        Ok(Probe { expr, ty, players })
    }
}

impl State {
    /// The value of a probe on this state (cards, players and enum values as
    /// their indexes, `none` as -1, booleans as 0/1).
    pub fn eval_probe(&self, game: &Game, probe: &Probe) -> Result<i32, String> {
        let mut locals: Vec<i32> = (0..probe.players as i32).collect();
        // room for the slots an aggregate (`sum(... for c in ...)`) binds
        locals.resize(probe.players + 256, -1);
        let mut ev = Ev {
            g: game.graph(),
            c: &self.core,
            locals: &mut locals,
            rng: None,
        };
        ev.eval(&probe.expr).map_err(|f| f.to_string())
    }
}

/// A `FnMut(&State, phase, node)` as a [`Visit`]or: sees the state before
/// each node runs.
struct Looking<F>(F);

impl<F: FnMut(&State, u16, u32)> Visit for Looking<F> {
    fn visit(&mut self, state: &State, phase: u16, node: u32) {
        (self.0)(state, phase, node)
    }
}

impl State {
    /// Like [`State::apply_observed`], showing `look` the state just before
    /// each (phase, node) executed (the REPL's trace reads values from it).
    pub fn apply_looking(
        &mut self,
        game: &Game,
        action: Action,
        look: &mut impl FnMut(&State, u16, u32),
    ) -> Result<(), EngineError> {
        let mark = self.marks.keep.then(|| self.open_mark());
        let r = self
            .take_with(game.graph(), action, &mut Looking(look))
            .map_err(|(m, at)| self.fault(game, m, at))
            .and_then(|()| self.finish(game));
        if let (Err(_), Some(mark)) = (&r, mark) {
            self.unmake(mark);
        }
        r
    }

    /// The value of a checked expression in the running (innermost) frame,
    /// with its locals; without the random generator (`random(..)` faults).
    pub fn eval_in_frame(&self, game: &Game, expr: &Expr) -> Result<i32, String> {
        let base = self.frames.last().map_or(0, |f| f.base as usize);
        let mut locals = self.locals.get(base..).unwrap_or(&[]).to_vec();
        let mut ev = Ev {
            g: game.graph(),
            c: &self.core,
            locals: &mut locals,
            rng: None,
        };
        ev.eval(expr).map_err(|f| f.to_string())
    }
}
