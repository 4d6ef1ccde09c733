//! The game state: plain, cloneable, serializable data. [`State`] holds
//! the table the rules see ([`Core`], in `table.rs`), the interpreter's
//! call stack, the seeded generator, the counters and the history; a
//! clone copies field by field into warm buffers. Starting a game (the
//! table laid out, variables given their initial values) is here too.

use super::chance::{Chance, Draws};
use super::error::EngineError;
use super::eval::{Ev, Fault};
use super::exec::Action;
use super::program::Program;
pub use super::table::{Core, Layout};
use super::undo::Marks;
use crate::check::hir::Expr;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// One active phase on the interpreter's stack.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Frame {
    pub phase: u16,
    pub pc: u32,
    /// Where this frame's locals start in `State::locals`.
    pub base: u32,
    /// Height of the loop scratch stack when the phase was entered.
    pub scratch: u32,
    /// Number of checkpoints when the phase was entered.
    pub saved: u32,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct State {
    pub(super) core: Core,
    pub(super) frames: Vec<Frame>,
    pub(super) locals: Vec<i32>,
    /// Loop snapshots: `[len, next, items...]` per active `for`.
    pub(super) scratch: Vec<i32>,
    /// Copies of the table taken by `checkpoint`, newest last.
    pub(super) checkpoints: Vec<Core>,
    pub(super) rng: ChaCha8Rng,
    /// The player who must choose now, if the interpreter is waiting.
    pub(super) waiting: Option<u8>,
    pub(super) over: bool,
    pub(super) turns: u32,
    pub(super) decisions: u32,
    /// Nodes executed since the game began.
    pub(super) steps: u64,
    pub(super) seed: u64,
    /// The legal actions of the pending decision (without `pass`), listed
    /// once when the decision was reached and kept until it is taken.
    #[serde(default)]
    pub(super) legal: Vec<Action>,
    /// Every action taken since the start, in order.
    #[serde(default)]
    pub(super) history: Vec<Action>,
    /// Set when the position was edited by hand (`arrange`, `put`): the
    /// history then no longer replays to it.
    #[serde(default)]
    pub(super) edited: bool,
    /// Stop at the next decision without listing it (perft's last ply,
    /// where only whether a new turn began is counted).
    #[serde(skip)]
    pub(super) defer: bool,
    /// A fault hit while listing again after a hand edit (see
    /// `State::listing_fault`).
    #[serde(skip)]
    pub(super) listing_fault: Option<Box<EngineError>>,
    /// Explicit-chance mode's bookkeeping (`chance.rs`); `None` normally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) chance: Option<Box<Chance>>,
    /// Open marks of make/unmake (`undo.rs`): never copied or saved.
    #[serde(skip)]
    pub(super) marks: Marks,
}

impl Clone for State {
    fn clone(&self) -> State {
        let mut s = State {
            core: self.core.clone(),
            frames: Vec::new(),
            locals: Vec::new(),
            scratch: Vec::new(),
            checkpoints: Vec::new(),
            rng: self.rng.clone(),
            waiting: None,
            over: false,
            turns: 0,
            decisions: 0,
            steps: 0,
            seed: 0,
            legal: Vec::new(),
            history: Vec::new(),
            edited: false,
            defer: false,
            listing_fault: None,
            chance: None,
            marks: Marks::default(),
        };
        s.clone_from(self);
        s
    }

    /// Field by field into this state's buffers: copying a state into a
    /// warm one (search, `would`, perft) allocates nothing. A copy has no
    /// open marks and does not keep them (see `State::keep_undo`).
    fn clone_from(&mut self, o: &State) {
        self.forget_marks();
        self.marks.keep = false;
        self.core.copy_from(&o.core);
        self.frames.clone_from(&o.frames);
        self.locals.clone_from(&o.locals);
        self.scratch.clone_from(&o.scratch);
        // checkpoint tables: into this state's, then the thread's spares
        while self.checkpoints.len() > o.checkpoints.len() {
            if let Some(c) = self.checkpoints.pop() {
                super::pools::give_spare(c);
            }
        }
        for (a, b) in self.checkpoints.iter_mut().zip(&o.checkpoints) {
            a.copy_from(b);
        }
        for b in &o.checkpoints[self.checkpoints.len()..] {
            self.checkpoints.push(super::pools::copy_of(b));
        }
        self.rng.clone_from(&o.rng);
        self.waiting = o.waiting;
        self.over = o.over;
        self.turns = o.turns;
        self.decisions = o.decisions;
        self.steps = o.steps;
        self.seed = o.seed;
        self.legal.clone_from(&o.legal);
        self.history.clone_from(&o.history);
        self.edited = o.edited;
        self.defer = o.defer;
        self.listing_fault.clone_from(&o.listing_fault);
        self.chance.clone_from(&o.chance);
    }
}

/// Room a new game's vectors start with: call depth, locals, loop
/// scratch, checkpoints, legal actions at one decision, decisions taken.
const ROOM_FRAMES: usize = 16;
const ROOM_LOCALS: usize = 4096;
const ROOM_SCRATCH: usize = 64;
const ROOM_CHECKPOINTS: usize = 4;
const ROOM_LEGAL: usize = 128;
const ROOM_HISTORY: usize = 1024;

/// A state dropped with checkpoints still open (a game that ended inside a
/// phase that took one) gives their tables to the thread's spares, so the
/// next game's `checkpoint` allocates nothing.
impl Drop for State {
    fn drop(&mut self) {
        if self.checkpoints.is_empty() {
            return;
        }
        for c in self.checkpoints.drain(..) {
            super::pools::give_spare(c);
        }
    }
}

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
        let t = &g.tables;
        let n = players as u8;
        let (lay, home, size) = Layout::of(t, n, opts, &g.lanes);
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
    let n = core.n as usize;
    for (vi, v) in t.vars.iter().enumerate() {
        let value = eval_const(g, core, &v.init, Draws::with(rng, chance.as_deref_mut()))?;
        let base = core.var_base[vi] as usize;
        let count = if v.per_player {
            n
        } else if v.per_card {
            t.cards.len()
        } else {
            1
        };
        core.vars[base..base + count].fill(value);
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
