//! Starting a game: a new [`State`] laid out for a player count and
//! options (the table, every variable's initial value, the first frame),
//! and a finished state made a new game in its own buffers
//! ([`State::reset_to`], which allocates nothing when the layout is the
//! same).

use super::chance::{Chance, Draws};
use super::eval::{Ev, Fault};
use super::program::Program;
use super::state::{Frame, Marks, State};
use super::table::{Core, Layout};
use super::width::Slots;
use crate::check::hir::Expr;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Room a new game's vectors start with: call depth, locals, loop
/// scratch, checkpoints, legal actions at one decision, decisions taken.
const ROOM_FRAMES: usize = 16;
const ROOM_LOCALS: usize = 4096;
const ROOM_SCRATCH: usize = 64;
const ROOM_CHECKPOINTS: usize = 4;
const ROOM_LEGAL: usize = 128;
const ROOM_HISTORY: usize = 1024;

impl State {
    /// A fresh game, run up to its first decision.
    pub(crate) fn create(
        g: &Program,
        players: usize,
        seed: u64,
        opts: &[i32],
    ) -> Result<State, Fault> {
        State::create_with(g, players, seed, opts, None)
    }

    /// Like [`State::create`]; in explicit-chance mode the variables'
    /// random initial values come from `chance`.
    pub(super) fn create_with(
        g: &Program,
        players: usize,
        seed: u64,
        opts: &[i32],
        chance: Option<&mut Chance>,
    ) -> Result<State, Fault> {
        let n = players as u8;
        let (lay, home, size) = Layout::of(g, n, opts, &g.lanes);
        let mut core = Core::new(lay, &home, size);
        for (c, h) in home.iter().enumerate() {
            core.known[c] = core.viewers(g, *h);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        init_vars(g, &mut core, &mut rng, chance)?;
        let start = &g.phases[0];
        // Room for a typical game from the start, so that the decisions of
        // a new game do not grow these vectors one doubling at a time (a
        // decision allocates nothing; see docs/performance.md).
        let all_locals: usize = g.phases.iter().map(|p| p.locals as usize).sum();
        let mut frames = Vec::with_capacity(ROOM_FRAMES);
        frames.push(Frame {
            phase: 0,
            pc: 0,
            base: 0,
            scratch: 0,
            saved: 0,
        });
        let mut locals = Vec::with_capacity(all_locals.clamp(64, ROOM_LOCALS));
        locals.resize(start.locals as usize, 0);
        Ok(State {
            core,
            frames,
            checkpoints: Vec::with_capacity(ROOM_CHECKPOINTS),
            locals,
            scratch: Vec::with_capacity(ROOM_SCRATCH),
            rng,
            waiting: None,
            over: false,
            turns: 0,
            decisions: 0,
            steps: 0,
            seed,
            legal: Vec::with_capacity(ROOM_LEGAL),
            history: Vec::with_capacity(ROOM_HISTORY),
            edited: false,
            defer: false,
            listing_fault: None,
            chance: None,
            marks: Marks::default(),
        })
    }
}

/// Give every variable its initial value (a fresh table's are 0).
fn init_vars(
    g: &Program,
    core: &mut Core,
    rng: &mut ChaCha8Rng,
    mut chance: Option<&mut Chance>,
) -> Result<(), Fault> {
    let t = &g.tables;
    for (vi, v) in t.vars.iter().enumerate() {
        let value = eval_const(g, core, &v.init, Draws::with(rng, chance.as_deref_mut()))?;
        match core.var_slots_mut(g, vi) {
            Some(Slots::Wide(s)) => s.fill(value),
            // a byte variable's values fit a byte (`width.rs`)
            Some(Slots::Narrow(s)) => s.fill(value as i8),
            None => {}
        }
    }
    Ok(())
}

impl State {
    /// This state made a fresh game (as [`State::create`] makes it, not yet
    /// run), in its own buffers: with the same game, player count and
    /// options as before nothing is allocated; otherwise the table is
    /// laid out anew. On a fault the state is no game (restart it again).
    pub(crate) fn reset_to(
        &mut self,
        g: &Program,
        players: usize,
        seed: u64,
        opts: &[i32],
    ) -> Result<(), Fault> {
        let same = usize::from(self.core.n) == players
            && self.core.opts == opts
            && std::sync::Arc::ptr_eq(&self.core.lanes, &g.lanes);
        if !same {
            *self = State::create(g, players, seed, opts)?;
            return Ok(());
        }
        self.forget_marks();
        self.marks.keep = false;
        for c in self.checkpoints.drain(..) {
            super::pools::give_spare(c);
        }
        self.core.reset_home(g);
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        init_vars(g, &mut self.core, &mut self.rng, None)?;
        self.frames.clear();
        self.frames.push(Frame {
            phase: 0,
            pc: 0,
            base: 0,
            scratch: 0,
            saved: 0,
        });
        self.locals.clear();
        self.locals.resize(g.phases[0].locals as usize, 0);
        self.scratch.clear();
        self.waiting = None;
        self.over = false;
        (self.turns, self.decisions, self.steps, self.seed) = (0, 0, 0, seed);
        self.legal.clear();
        self.history.clear();
        self.edited = false;
        self.defer = false;
        self.listing_fault = None;
        self.chance = None;
        Ok(())
    }
}

/// Evaluate an expression outside any phase (variable initial values).
pub(crate) fn eval_const(g: &Program, core: &Core, e: &Expr, draws: Draws) -> Result<i32, Fault> {
    let mut locals = [0i32; 16];
    Ev {
        g,
        c: core,
        locals: &mut locals,
        rng: Some(draws),
    }
    .eval(e)
}
