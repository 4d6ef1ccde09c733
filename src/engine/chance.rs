//! Random draws, and the opt-in explicit-chance mode.
//!
//! Every random draw of a game goes through [`Draws`]: a `random(lo, hi)`
//! (through the expression evaluator), a `shuffle`, and a variable's
//! initial value. Normally a draw comes from the state's seeded generator,
//! exactly as before this module existed.
//!
//! A state made by [`State::new_explicit_chance`] instead stops at every
//! draw: its [`super::Status`] is `Chance`, [`State::chance_node`] says
//! what is drawn and [`State::chance_outcomes`] lists the outcomes with
//! their probabilities; [`State::apply_chance`] gives one and the game
//! runs on. A shuffle of n cards is n - 1 draws of one card each (which
//! card goes to the next place, Fisher-Yates from the top), never n!
//! outcomes.
//!
//! How it stops in the middle of a node: the interpreter is deterministic,
//! so a draw with no outcome given yet faults with [`Fault::Chance`], and
//! giving an outcome re-runs the stretch since the last decision from a
//! copy of the state kept at that decision (the *anchor*), with every
//! outcome given so far queued. Cost: one copy of the state per decision,
//! and each outcome re-runs its stretch (a shuffle of n cards draws
//! n(n-1)/2 cards in all). Nothing of this runs outside the mode.
//!
//! In the history a chance outcome is an [`Action`] with arm
//! [`CHANCE_ARM`] and the value drawn, so a game replays exactly.

use super::fault::Fault;
use super::state::Action;
use super::state::{Core, State};
use super::{EngineError, Game, Status};
use crate::graph::Graph;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The arm of a chance outcome in [`State::history`].
pub const CHANCE_ARM: u16 = u16::MAX - 1;

/// The most outcomes one draw may have in explicit-chance mode (a wider
/// `random(lo, hi)` faults there with [`Fault::ChanceTooWide`]).
pub const MAX_CHANCE_OUTCOMES: u32 = 1 << 16;

/// What a chance node draws.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChanceNode {
    /// `random(lo, hi)`: each whole number from `lo` to `hi`, equally likely.
    Number { lo: i32, hi: i32 },
    /// One place of a shuffle of the zone instance `zone`: which of
    /// `cards` (in card order) goes there, each equally likely.
    Card { zone: u16, cards: Vec<u16> },
}

impl ChanceNode {
    /// The outcomes (values to give [`State::apply_chance`]) with their
    /// probabilities.
    pub fn outcomes(&self) -> Vec<(i32, f64)> {
        match self {
            ChanceNode::Number { lo, hi } => {
                let p = 1.0 / (f64::from(*hi) - f64::from(*lo) + 1.0);
                (*lo..=*hi).map(|v| (v, p)).collect()
            }
            ChanceNode::Card { cards, .. } => {
                let p = 1.0 / cards.len() as f64;
                cards.iter().map(|c| (i32::from(*c), p)).collect()
            }
        }
    }

    /// A dense id for an outcome: the card for a shuffle, `value - lo` for
    /// a number (below [`MAX_CHANCE_OUTCOMES`] or the number of cards).
    pub fn id(&self, value: i32) -> Option<u32> {
        match self {
            ChanceNode::Number { lo, hi } => (*lo..=*hi)
                .contains(&value)
                .then(|| (i64::from(value) - i64::from(*lo)) as u32),
            ChanceNode::Card { cards, .. } => u16::try_from(value)
                .ok()
                .filter(|c| cards.contains(c))
                .map(u32::from),
        }
    }

    /// The outcome with id `id` (see [`ChanceNode::id`]).
    pub fn value(&self, id: u32) -> Option<i32> {
        let v = match self {
            ChanceNode::Number { lo, .. } => i64::from(*lo) + i64::from(id),
            ChanceNode::Card { .. } => i64::from(id),
        };
        let v = i32::try_from(v).ok()?;
        self.id(v).map(|_| v)
    }
}

/// The explicit-chance bookkeeping of a state (see the module doc).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Chance {
    /// The state at the decision that began the current stretch (`None`
    /// with `action` `None`: the stretch is the game's start).
    anchor: Option<Box<State>>,
    action: Option<Action>,
    /// The outcomes given in the current stretch, in order.
    outcomes: Vec<i32>,
    /// How many of them the run in progress has used.
    cursor: usize,
    /// The draw the state waits for.
    node: Option<ChanceNode>,
    /// Scratch for a shuffle.
    #[serde(skip)]
    buf: Vec<u16>,
}

impl Chance {
    /// The next queued outcome, or stop at `node`.
    fn next(&mut self, node: impl FnOnce() -> ChanceNode) -> Result<i32, Fault> {
        match self.outcomes.get(self.cursor) {
            Some(v) => {
                self.cursor += 1;
                Ok(*v)
            }
            None => {
                self.node = Some(node());
                Err(Fault::Chance)
            }
        }
    }
}

/// The one way a running game draws at random: the state's generator, or
/// in explicit-chance mode the outcomes the caller gives.
pub struct Draws<'a> {
    rng: &'a mut ChaCha8Rng,
    chance: Option<&'a mut Chance>,
}

impl<'a> Draws<'a> {
    pub fn new(rng: &'a mut ChaCha8Rng, chance: &'a mut Option<Box<Chance>>) -> Draws<'a> {
        Draws {
            rng,
            chance: chance.as_deref_mut(),
        }
    }

    /// Like [`Draws::new`] with the chance bookkeeping borrowed apart.
    pub fn with(rng: &'a mut ChaCha8Rng, chance: Option<&'a mut Chance>) -> Draws<'a> {
        Draws { rng, chance }
    }

    /// The same draws, borrowed again for a shorter while (compiled code
    /// gets its own handle).
    pub fn reborrow(&mut self) -> Draws<'_> {
        Draws {
            rng: &mut *self.rng,
            chance: self.chance.as_deref_mut(),
        }
    }

    /// `random(lo, hi)` with `lo <= hi`.
    pub fn range(&mut self, lo: i32, hi: i32) -> Result<i32, Fault> {
        match self.chance.as_deref_mut() {
            None => Ok(self.rng.random_range(lo..=hi)),
            Some(_) if i64::from(hi) - i64::from(lo) >= i64::from(MAX_CHANCE_OUTCOMES) => {
                Err(Fault::ChanceTooWide)
            }
            Some(ch) => ch.next(|| ChanceNode::Number { lo, hi }),
        }
    }

    /// Shuffle the zone instance `inst`; whoever can see it knows its
    /// cards, nobody else does.
    pub fn shuffle(&mut self, g: &Graph, core: &mut Core, inst: u16) -> Result<(), Fault> {
        let Some(ch) = self.chance.as_deref_mut() else {
            core.shuffle(g, inst, self.rng);
            return Ok(());
        };
        let mut buf = std::mem::take(&mut ch.buf);
        buf.clear();
        buf.extend_from_slice(core.zone(inst as usize));
        // Fisher-Yates from the top: place i gets one of the cards at 0..=i
        for i in (1..buf.len()).rev() {
            let drawn = ch.next(|| {
                let mut cards = buf[..=i].to_vec();
                cards.sort_unstable();
                ChanceNode::Card { zone: inst, cards }
            });
            let j = match drawn {
                Ok(c) => buf[..=i].iter().position(|x| i32::from(*x) == c),
                Err(f) => {
                    ch.buf = buf;
                    return Err(f);
                }
            };
            // an outcome is checked when given, and the re-run is the same
            buf.swap(i, j.unwrap_or(i));
        }
        core.zone_mut(inst as usize).copy_from_slice(&buf);
        let viewers = core.viewers(g, inst);
        for c in &buf {
            core.known[*c as usize] = viewers;
        }
        ch.buf = buf;
        Ok(())
    }
}

impl State {
    /// Like [`State::new`], in explicit-chance mode (see the module doc):
    /// the state stops at every random draw until [`State::apply_chance`]
    /// gives its outcome.
    pub fn new_explicit_chance(
        game: &Game,
        players: usize,
        seed: u64,
        options: &[i32],
    ) -> Result<State, EngineError> {
        // checks the arguments, and is what a var-init draw shows
        let mut s = State::new_unstarted(game, players, seed, options)?;
        s.chance = Some(Box::default());
        s.rerun(game)?;
        Ok(s)
    }

    /// Whether the state is in explicit-chance mode.
    pub fn explicit_chance(&self) -> bool {
        self.chance.is_some()
    }

    /// The draw the state waits for, in explicit-chance mode.
    pub fn chance_node(&self) -> Option<&ChanceNode> {
        self.chance.as_ref()?.node.as_ref()
    }

    /// The outcomes of the pending draw with their probabilities (empty
    /// when none is pending).
    pub fn chance_outcomes(&self) -> Vec<(i32, f64)> {
        self.chance_node()
            .map(ChanceNode::outcomes)
            .unwrap_or_default()
    }

    /// Give the pending draw its outcome `value` and run on to the next
    /// draw or decision.
    pub fn apply_chance(&mut self, game: &Game, value: i32) -> Result<(), EngineError> {
        let ok = self.chance_node().is_some_and(|n| n.id(value).is_some());
        let Some(ch) = self.chance.as_mut().filter(|_| ok) else {
            return Err(EngineError::Illegal(super::Illegal::NotAnOutcome(value)));
        };
        ch.outcomes.push(value);
        self.rerun(game)
    }

    /// Apply a decision in explicit-chance mode: keep the anchor, run.
    pub(super) fn apply_with_chance(
        &mut self,
        game: &Game,
        action: Action,
    ) -> Result<(), EngineError> {
        let mut ch = self.chance.take().unwrap_or_default();
        match &mut ch.anchor {
            Some(a) => State::clone_from(a, self),
            None => ch.anchor = Some(Box::new(self.clone())),
        }
        ch.action = Some(action);
        ch.outcomes.clear();
        self.chance = Some(ch);
        self.rerun(game)
    }

    /// Run the current stretch again from its anchor with the outcomes
    /// given so far: to the next draw without one, or to a decision.
    fn rerun(&mut self, game: &Game) -> Result<(), EngineError> {
        let g = game.graph();
        let mut ch = self.chance.take().unwrap_or_default();
        ch.cursor = 0;
        ch.node = None;
        let r = match (ch.anchor.take(), ch.action) {
            (Some(anchor), Some(a)) => {
                self.clone_from(&anchor);
                ch.anchor = Some(anchor);
                self.chance = Some(ch);
                self.take_with(g, a, &mut |_, _| {})
            }
            _ => {
                let (n, seed, opts) = (self.players(), self.seed, self.core.opts.clone());
                match State::create_with(g, n, seed, &opts, Some(&mut ch)) {
                    Ok(s) => {
                        *self = s;
                        self.chance = Some(ch);
                        self.run_with(g, &mut |_, _| {})
                    }
                    Err(Fault::Chance) => {
                        // a variable's initial value waits for its draw
                        self.history.clear();
                        self.chance = Some(ch);
                        Err((Fault::Chance, (0, 0)))
                    }
                    Err(f) => return Err(EngineError::Setup(super::SetupError::Start(f))),
                }
            }
        };
        let ch = self.chance.as_mut().expect("kept");
        let used = ch.cursor;
        self.history
            .extend(ch.outcomes[..used].iter().map(|v| Action {
                arm: CHANCE_ARM,
                value: *v,
            }));
        match r {
            Err((Fault::Chance, _)) => Ok(()),
            Err((f, at)) => Err(self.fault(game, f, at)),
            Ok(()) => {
                ch.outcomes.clear();
                ch.action = None;
                ch.anchor = None;
                ch.cursor = 0;
                self.finish(game)
            }
        }
    }

    /// Replay `history` (decisions and chance outcomes) on this state.
    pub(super) fn replay_step(&mut self, game: &Game, a: Action) -> Result<(), EngineError> {
        if a.arm == CHANCE_ARM {
            self.apply_chance(game, a.value)
        } else {
            self.apply_unchecked(game, a)
        }
    }

    /// [`Status::Chance`] when a draw is pending.
    pub(super) fn chance_status(&self) -> Option<Status> {
        self.chance_node().map(|_| Status::Chance)
    }
}
