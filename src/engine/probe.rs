//! An expression of the rules language evaluated against a state, for the
//! REPL's `expect`: parsed and checked against the game's own rules text
//! (global names plus players `P0`, `P1`...), then run by the evaluator with
//! the players bound as locals; and the trace's look at the state before
//! each node a move runs; and [`Code`], an expression compiled once for a
//! caller that evaluates it on many states (a probe compiles its own on
//! first use). Nothing here runs in the hot loop.

use super::compile::{self, Val};
use super::eval::Ev;
use super::exec::Visit;
use super::state::Action;
use super::{EngineError, Game, State};
use crate::hir::{Expr, Ty};
use std::cell::RefCell;
use std::sync::OnceLock;

/// A checked expression, ready to be evaluated on any state of its game.
pub struct Probe {
    expr: Expr,
    pub ty: Ty,
    players: usize,
    /// The expression's code, compiled on first use.
    code: OnceLock<Code>,
}

impl Probe {
    /// The checked expression.
    pub fn expr(&self) -> &Expr {
        &self.expr
    }

    /// Evaluate `e` instead (an expression checked against the same game
    /// and players, such as one built from the rules' own).
    pub fn set_expr(&mut self, e: Expr) {
        self.expr = e;
        self.code = OnceLock::new();
    }
}

/// A checked expression compiled once, to be evaluated on many states of
/// its game: the same value and faults as evaluating the expression itself,
/// without compiling it again at each evaluation.
pub struct Code(Val);

impl Game {
    /// Compile `e`, an expression of this game's rules.
    pub fn code(&self, e: &Expr) -> Code {
        Code(compile::value(self.graph(), e))
    }
}

thread_local! {
    /// Scratch locals of [`State::eval_code`] and friends, kept warm.
    static LOCALS: RefCell<Vec<i32>> = const { RefCell::new(Vec::new()) };
}

impl Game {
    /// Parse and check `text` as an expression in this game's global scope,
    /// with `P0..P{players-1}` naming the players.
    pub fn probe(&self, text: &str, players: usize) -> Result<Probe, String> {
        let e = crate::syntax::parse_expr(text)?;
        let source = &self.data.source;
        let (mut file, _) = crate::syntax::parse_file(&source.text);
        for seam in source.seams() {
            crate::syntax::merge_variant(&mut file, seam);
        }
        let (expr, ty) = crate::check::check_expr(&file, &e, players)?;
        Ok(Probe {
            expr,
            ty,
            players,
            code: OnceLock::new(),
        })
    }

    /// A number-valued probe of `expr`, an expression already checked
    /// against this game (built from its rules' own), without parsing the
    /// rules again.
    pub fn probe_of(&self, expr: Expr, players: usize) -> Probe {
        Probe {
            expr,
            ty: Ty::Int,
            players,
            code: OnceLock::new(),
        }
    }
}

impl State {
    /// The value of a probe on this state (cards, players and enum values as
    /// their indexes, `none` as -1, booleans as 0/1).
    pub fn eval_probe(&self, game: &Game, probe: &Probe) -> Result<i32, String> {
        let code = probe.code.get_or_init(|| game.code(&probe.expr));
        self.eval_code(game, code, probe.players)
    }

    /// The value of compiled code outside any frame, as a probe's: the
    /// `players` players bound as locals `0..players`, and room for the
    /// slots an aggregate (`sum(... for c in ...)`) binds.
    pub fn eval_code(&self, game: &Game, code: &Code, players: usize) -> Result<i32, String> {
        LOCALS.with(|l| {
            let mut locals = l.borrow_mut();
            locals.clear();
            locals.extend(0..players as i32);
            locals.resize(players + 256, -1);
            self.run_code(game, code, &mut locals)
        })
    }

    /// The value of compiled code in the running (innermost) frame, with its
    /// locals (as [`State::eval_in_frame`]).
    pub fn eval_code_in_frame(&self, game: &Game, code: &Code) -> Result<i32, String> {
        let base = self.frames.last().map_or(0, |f| f.base as usize);
        LOCALS.with(|l| {
            let mut locals = l.borrow_mut();
            locals.clear();
            locals.extend_from_slice(self.locals.get(base..).unwrap_or(&[]));
            self.run_code(game, code, &mut locals)
        })
    }

    fn run_code(&self, game: &Game, code: &Code, locals: &mut [i32]) -> Result<i32, String> {
        let mut ev = Ev {
            g: game.graph(),
            c: &self.core,
            locals,
            rng: None,
        };
        ev.run(&code.0).map_err(|f| f.to_string())
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

    /// Like [`State::apply_looking`], for a look ahead that wants what the
    /// move runs, not what can be chosen after it: the decision the move
    /// stops at is not listed when nothing hangs on its list (a choice with
    /// no `otherwise`, which waits whether or not anything can be chosen),
    /// so a look costs the move's own work. The state's legal actions stay
    /// those of the position before until [`State::list_pending`]. The one
    /// difference with [`State::apply_looking`]: a fault in listing that
    /// decision's options is not seen here (it is when it is listed).
    pub fn apply_looking_unlisted(
        &mut self,
        game: &Game,
        action: Action,
        look: &mut impl FnMut(&State, u16, u32),
    ) -> Result<(), EngineError> {
        self.defer = true;
        let r = self.apply_looking(game, action, look);
        self.defer = false;
        r?;
        if self.pending_otherwise(game) {
            // nothing to choose there runs on: it must be listed now
            return self.list_pending(game, look);
        }
        Ok(())
    }

    /// List the pending decision a move stopped at without listing it
    /// ([`State::apply_looking_unlisted`]), running on (shown to `look`)
    /// where nothing can be chosen and the choice has an `otherwise`; `look`
    /// sees the decision's node again first. A decision already listed is
    /// listed again, to the same actions.
    pub fn list_pending(
        &mut self,
        game: &Game,
        look: &mut impl FnMut(&State, u16, u32),
    ) -> Result<(), EngineError> {
        if self.over || self.waiting.take().is_none() {
            return Ok(());
        }
        self.run_with(game.graph(), &mut Looking(look))
            .map_err(|(m, at)| self.fault(game, m, at))
            .and_then(|()| self.finish(game))
    }

    /// Whether the pending decision is a choice with an `otherwise`.
    fn pending_otherwise(&self, game: &Game) -> bool {
        if self.over || self.waiting.is_none() {
            return false;
        }
        let Some(fr) = self.frames.last() else {
            return false;
        };
        let nodes = &game.graph().phases[fr.phase as usize].nodes;
        matches!(
            nodes.get(fr.pc as usize),
            Some(crate::graph::Node::Choose {
                otherwise: Some(_),
                ..
            })
        )
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
