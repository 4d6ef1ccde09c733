//! The game state: plain, cloneable, serializable data. [`Core`] holds what
//! the rules can see (zones, cards, knowledge, variables); [`State`] adds
//! the interpreter's call stack, the seeded generator and the counters.

use super::eval::{Ev, Fault};
use super::exec::Action;
use crate::check::hir::Expr;
use crate::graph::Graph;
use crate::syntax::ast::Visibility;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Bitset of players who know a card.
pub type Knowers = u32;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Core {
    pub n: u8,
    pub counterclockwise: bool,
    pub opts: Vec<i32>,
    /// First instance of each declared zone (per-player zones have `n`).
    pub zone_base: Vec<u16>,
    /// Instances of each declared zone (1, the players, or a board's cells).
    pub zone_count: Vec<u16>,
    /// For each instance: its declared zone and owner (-1 if shared).
    pub inst_zone: Vec<u16>,
    pub inst_owner: Vec<i8>,
    /// Cards in each zone instance, bottom first.
    pub zones: Vec<Vec<u16>>,
    pub card_zone: Vec<u16>,
    pub known: Vec<Knowers>,
    pub var_base: Vec<u32>,
    pub vars: Vec<i32>,
    pub actor: i32,
    pub current: i32,
}

impl Core {
    /// Become a copy of `other`, reusing this table's buffers.
    pub fn copy_from(&mut self, other: &Core) {
        self.n = other.n;
        self.counterclockwise = other.counterclockwise;
        self.opts.clone_from(&other.opts);
        self.zone_base.clone_from(&other.zone_base);
        self.zone_count.clone_from(&other.zone_count);
        self.inst_zone.clone_from(&other.inst_zone);
        self.inst_owner.clone_from(&other.inst_owner);
        self.zones.clone_from(&other.zones);
        self.card_zone.clone_from(&other.card_zone);
        self.known.clone_from(&other.known);
        self.var_base.clone_from(&other.var_base);
        self.vars.clone_from(&other.vars);
        self.actor = other.actor;
        self.current = other.current;
    }

    /// The player `k` seats after `p` in playing order.
    pub fn step(&self, p: i32, k: i32) -> i32 {
        let n = self.n as i32;
        let k = if self.counterclockwise { -k } else { k };
        (p + k).rem_euclid(n)
    }

    pub fn position(&self, card: u16) -> usize {
        let z = self.card_zone[card as usize] as usize;
        self.zones[z].iter().position(|c| *c == card).unwrap_or(0)
    }

    pub fn all_players(&self) -> Knowers {
        if self.n >= 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        }
    }

    /// Who can see a card that lies in an instance.
    pub fn viewers(&self, g: &Graph, inst: u16) -> Knowers {
        let z = self.inst_zone[inst as usize];
        match g.tables.zones[z as usize].visibility {
            Visibility::Public | Visibility::Top => self.all_players(),
            Visibility::Owner => match self.inst_owner[inst as usize] {
                o if o >= 0 => 1 << o,
                _ => 0,
            },
            Visibility::Hidden => 0,
        }
    }

    /// Take a card out of wherever it is.
    fn lift(&mut self, card: u16) {
        let z = self.card_zone[card as usize] as usize;
        // most moves take the top card: search from the top
        if let Some(i) = self.zones[z].iter().rposition(|c| *c == card) {
            self.zones[z].remove(i);
        }
    }

    /// Put a card on top (or at the bottom) of an instance; whoever can see
    /// that instance now knows it, and what others knew follows the card.
    pub fn put(&mut self, g: &Graph, card: u16, inst: u16, bottom: bool) {
        self.lift(card);
        self.place(g, card, inst, bottom);
    }

    /// Like [`Core::put`] for a card already lifted out of its zone.
    pub fn place(&mut self, g: &Graph, card: u16, inst: u16, bottom: bool) {
        let zone = &mut self.zones[inst as usize];
        if bottom {
            zone.insert(0, card);
        } else {
            zone.push(card);
        }
        self.card_zone[card as usize] = inst;
        let is_top_only =
            g.tables.zones[self.inst_zone[inst as usize] as usize].visibility == Visibility::Top;
        if !(is_top_only && bottom) {
            self.known[card as usize] |= self.viewers(g, inst);
        }
    }

    /// Exchange the places of two cards.
    pub fn swap(&mut self, g: &Graph, a: u16, b: u16) {
        if a == b {
            return;
        }
        let (za, zb) = (self.card_zone[a as usize], self.card_zone[b as usize]);
        let ia = self.position(a);
        let ib = self.position(b);
        self.zones[za as usize][ia] = b;
        self.zones[zb as usize][ib] = a;
        self.card_zone[a as usize] = zb;
        self.card_zone[b as usize] = za;
        self.known[a as usize] |= self.viewers(g, zb);
        self.known[b as usize] |= self.viewers(g, za);
    }

    pub fn shuffle(&mut self, g: &Graph, inst: u16, rng: &mut ChaCha8Rng) {
        use rand::seq::SliceRandom;
        let viewers = self.viewers(g, inst);
        let zone = &mut self.zones[inst as usize];
        zone.shuffle(rng);
        for c in zone.iter() {
            self.known[*c as usize] = viewers;
        }
    }
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

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    pub core: Core,
    pub frames: Vec<Frame>,
    pub locals: Vec<i32>,
    /// Loop snapshots: `[len, next, items...]` per active `for`.
    pub scratch: Vec<i32>,
    /// Copies of the table taken by `checkpoint`, newest last.
    pub checkpoints: Vec<Core>,
    pub rng: ChaCha8Rng,
    /// The player who must choose now, if the interpreter is waiting.
    pub waiting: Option<u8>,
    pub over: bool,
    pub turns: u32,
    pub decisions: u32,
    /// Nodes executed since the game began.
    pub steps: u64,
    pub seed: u64,
    /// The legal actions of the pending decision (without `pass`), listed
    /// once when the decision was reached and kept until it is taken.
    #[serde(default)]
    pub(crate) legal: Vec<Action>,
    /// Every action taken since the start, in order.
    #[serde(default)]
    pub(crate) history: Vec<Action>,
    /// Set when the position was edited by hand (`arrange`, `put`): the
    /// history then no longer replays to it.
    #[serde(default)]
    pub(crate) edited: bool,
    /// Stop at the next decision without listing it (perft's last ply,
    /// where only whether a new turn began is counted).
    #[serde(skip)]
    pub(crate) defer: bool,
}

/// Why the engine refused or stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// Bad arguments to `State::new`.
    Setup(String),
    /// The action is not legal now.
    Illegal(String),
    /// The rules did something impossible; `phase`/`node`/`line` locate it.
    Fault {
        fault: Fault,
        message: String,
        phase: String,
        node: u32,
        line: usize,
    },
    /// The rules ran too long without a decision (an endless loop?).
    Runaway { steps: u64 },
    /// Cards were lost or duplicated.
    Conservation(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Setup(s) | EngineError::Illegal(s) | EngineError::Conservation(s) => {
                f.write_str(s)
            }
            EngineError::Fault {
                message,
                phase,
                line,
                ..
            } => {
                write!(f, "rules fault in phase `{phase}` (line {line}): {message}")
            }
            EngineError::Runaway { steps } => {
                write!(
                    f,
                    "the rules ran {steps} steps without a decision: is there an endless loop?"
                )
            }
        }
    }
}

impl std::error::Error for EngineError {}

impl State {
    /// A fresh game, run up to its first decision.
    pub(crate) fn create(
        g: &Graph,
        players: usize,
        seed: u64,
        opts: &[i32],
    ) -> Result<State, Fault> {
        let t = &g.tables;
        let n = players as u8;
        let mut zone_base = Vec::new();
        let mut inst_zone = Vec::new();
        let mut inst_owner = Vec::new();
        let mut zone_count = Vec::new();
        for (zi, z) in t.zones.iter().enumerate() {
            zone_base.push(inst_zone.len() as u16);
            if let Some(b) = z.board {
                let cells = t.boards[b as usize].cells.len();
                zone_count.push(cells as u16);
                for _ in 0..cells {
                    inst_zone.push(zi as u16);
                    inst_owner.push(-1);
                }
            } else if z.per_player {
                zone_count.push(n as u16);
                for p in 0..n {
                    inst_zone.push(zi as u16);
                    inst_owner.push(p as i8);
                }
            } else {
                zone_count.push(1);
                inst_zone.push(zi as u16);
                inst_owner.push(-1);
            }
        }
        let mut zones = vec![Vec::new(); inst_zone.len()];
        let mut card_zone = Vec::with_capacity(t.cards.len());
        for (c, home) in t.card_home.iter().enumerate() {
            let inst = zone_base[*home as usize];
            zones[inst as usize].push(c as u16);
            card_zone.push(inst);
        }
        let mut var_base = Vec::new();
        let mut size = 0u32;
        for v in &t.vars {
            var_base.push(size);
            size += if v.per_player {
                n as u32
            } else if v.per_card {
                t.cards.len() as u32
            } else {
                1
            };
        }
        let mut core = Core {
            n,
            counterclockwise: t.counterclockwise,
            opts: opts.to_vec(),
            zone_base,
            zone_count,
            inst_zone,
            inst_owner,
            zones,
            card_zone,
            known: vec![0; t.cards.len()],
            var_base,
            vars: vec![0; size as usize],
            actor: -1,
            current: -1,
        };
        for inst in 0..core.zones.len() {
            let viewers = core.viewers(g, inst as u16);
            for c in core.zones[inst].clone() {
                core.known[c as usize] = viewers;
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for (vi, v) in t.vars.iter().enumerate() {
            let value = eval_const(g, &core, &v.init, &mut rng)?;
            let base = core.var_base[vi] as usize;
            let count = if v.per_player {
                n as usize
            } else if v.per_card {
                t.cards.len()
            } else {
                1
            };
            core.vars[base..base + count].fill(value);
        }
        let start = &g.phases[0];
        Ok(State {
            core,
            frames: vec![Frame {
                phase: 0,
                pc: 0,
                base: 0,
                scratch: 0,
                saved: 0,
            }],
            checkpoints: Vec::new(),
            locals: vec![0; start.locals as usize],
            scratch: Vec::new(),
            rng,
            waiting: None,
            over: false,
            turns: 0,
            decisions: 0,
            steps: 0,
            seed,
            legal: Vec::new(),
            history: Vec::new(),
            edited: false,
            defer: false,
        })
    }
}

/// Evaluate an expression outside any phase (variable initial values).
pub(crate) fn eval_const(
    g: &Graph,
    core: &Core,
    e: &Expr,
    rng: &mut ChaCha8Rng,
) -> Result<i32, Fault> {
    let mut locals = [0i32; 16];
    Ev {
        g,
        c: core,
        locals: &mut locals,
        rng: Some(rng),
    }
    .eval(e)
}
