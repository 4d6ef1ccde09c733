//! The game state: plain, cloneable, serializable data. [`State`] holds
//! the table the rules see ([`Core`], in `table.rs`), the interpreter's
//! call stack, the seeded generator, the counters and the history; a
//! clone copies field by field into warm buffers. Also the data the
//! state holds: an [`Action`], and make/unmake's open marks ([`Marks`];
//! making and unmaking them is `undo.rs`). Starting a game (the table
//! laid out, variables given their initial values) is `start.rs`.

use super::chance::Chance;
use super::error::EngineError;
pub use super::table::Core;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// One legal move: which arm of the pending choice, and the value it binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Action {
    pub arm: u16,
    pub value: i32,
}

impl Action {
    /// Passing in a reaction window.
    pub const PASS: u16 = u16::MAX;
}

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

impl State {
    /// The bytes a `clone_from` copies: the table's and its checkpoints'
    /// arenas, knowledge and variables, the interpreter's stack, locals and
    /// loop scratch, the generator, the legal list and the history. A copy
    /// into a warm state is a few memory copies, so its time follows this
    /// number (the `step clone` rows of `benches/ratios`).
    pub fn copy_bytes(&self) -> usize {
        use std::mem::size_of_val;
        self.core.copy_bytes()
            + self.checkpoints.iter().map(Core::copy_bytes).sum::<usize>()
            + size_of_val(&self.frames[..])
            + size_of_val(&self.locals[..])
            + size_of_val(&self.scratch[..])
            + size_of_val(&self.rng)
            + size_of_val(&self.legal[..])
            + size_of_val(&self.history[..])
    }
}

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

/// An action made with [`State::make`]: give it to [`State::unmake`] to
/// take the action back. Marks are unmade last first.
#[must_use = "a mark is unmade with State::unmake"]
#[derive(Debug, PartialEq, Eq)]
pub struct Mark {
    pub(super) depth: u32,
}

/// What a mark copies aside: everything but the table.
#[derive(Debug)]
pub(super) struct Saved {
    pub(super) frames: Vec<Frame>,
    pub(super) locals: Vec<i32>,
    pub(super) scratch: Vec<i32>,
    pub(super) checkpoints: Vec<Core>,
    pub(super) legal: Vec<Action>,
    pub(super) rng: ChaCha8Rng,
    pub(super) waiting: Option<u8>,
    pub(super) over: bool,
    pub(super) defer: bool,
    pub(super) edited: bool,
    pub(super) turns: u32,
    pub(super) decisions: u32,
    pub(super) steps: u64,
    pub(super) history: usize,
    pub(super) listing_fault: Option<Box<EngineError>>,
    pub(super) log: usize,
}

/// The open marks of a state (not copied by a clone, not saved).
#[derive(Default)]
pub struct Marks {
    pub(super) saved: Vec<Saved>,
    pub(super) depth: usize,
    /// `apply` opens a mark for every action, so that `undo` needs no replay.
    pub(super) keep: bool,
}

/// Only how many marks are open and whether they are kept (see
/// `Journal`'s `Debug` in `undo.rs`).
impl std::fmt::Debug for Marks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Marks")
            .field("depth", &self.depth)
            .field("keep", &self.keep)
            .finish()
    }
}

impl Marks {
    pub(super) fn depth(&self) -> usize {
        self.depth
    }
}
