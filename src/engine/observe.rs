//! What an embedder (a search library, OpenSpiel, a web page) needs beyond
//! playing: integer ids for actions, what one seat knows as a string, and
//! a state that serialises and comes back. `docs/embedding.md` documents
//! the guarantees; in short:
//!
//! - **Local ids**: an action's index in [`State::legal_actions`], whose
//!   order is canonical (the pending choice's arms in the order the rules
//!   write them, each arm's values in its collection's order, `pass`
//!   last). The same position always lists the same actions in the same
//!   order.
//! - **Global ids** ([`ActionSpace`]): a dense id space for one game and
//!   player count, `0..len()`, laid out from the graph's choice nodes and
//!   their arms: an (arm, value) pair has the same id in every position.
//!   This is what OpenSpiel calls `num_distinct_actions`.
//! - [`State::observation`] is the seat's view now; [`State::information_state`]
//!   adds every decision taken so far, each as that seat saw it when it
//!   was taken. Both are built from the per-seat [`Viewer`] only.
//! - [`State::to_json`] / [`State::from_json`] round-trip a state exactly.
//!
//! API boundary: only the engine's public API and its own data; nothing
//! here changes a state.
//!
//! The rest of this page is `docs/embedding.md`, whose example runs as a
//! doctest.
//!
#![doc = include_str!("../../docs/embedding.md")]

use super::{Action, EngineError, Game, State, Viewer};
use crate::graph::Node;
use crate::hir::{Builtin, Expr, Tables};
use crate::syntax::ast::BinOp;

/// Ids given to an arm binding integers from a range whose bounds are not
/// known before the game (`1..count(hand)`): values from the range's
/// lowest possible start (or 0) up to this many.
pub const DYNAMIC_INT_WIDTH: u32 = 256;
/// The most ids one arm binding a statically bounded range may take.
pub const MAX_ARM_WIDTH: u32 = 1 << 16;

/// The ids of one arm of one choice node: values `offset..offset + width`
/// get ids `base..base + width`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ArmIds {
    phase: u16,
    node: u32,
    /// The arm's index, or [`Action::PASS`].
    arm: u16,
    base: u32,
    offset: i32,
    width: u32,
    /// For a two-source arm, the second source's (offset, width): ids
    /// run over the pairs, the second value fastest. (0, 0) otherwise.
    second: (i32, u32),
}

/// A dense, global numbering of every action of a game at one player
/// count: see the module documentation and `docs/embedding.md`.
#[derive(Clone, Debug)]
pub struct ActionSpace {
    /// Sorted by `base` (and by (phase, node, arm), which is the same order).
    arms: Vec<ArmIds>,
    len: u32,
}

impl ActionSpace {
    /// Number the actions of `game` played by `players` seats.
    pub fn new(game: &Game, players: usize) -> ActionSpace {
        let g = game.graph();
        let t = &g.tables;
        let mut arms = Vec::new();
        let mut next: u32 = 0;
        for (pi, phase) in g.phases.iter().enumerate() {
            for (ni, node) in phase.nodes.iter().enumerate() {
                let Node::Choose { arms: a, pass, .. } = node else {
                    continue;
                };
                let mut push = |arm: u16, (offset, first): (i32, u32), second: (i32, u32)| {
                    let width = match second.1 {
                        0 => first,
                        w => first.saturating_mul(w).min(MAX_ARM_WIDTH),
                    };
                    arms.push(ArmIds {
                        phase: pi as u16,
                        node: ni as u32,
                        arm,
                        base: next,
                        offset,
                        width,
                        second,
                    });
                    next = next.saturating_add(width);
                };
                for (ai, arm) in a.iter().enumerate() {
                    let first = match &arm.bind {
                        None => (0, 1),
                        Some(b) => domain(t, players, &b.coll),
                    };
                    let second = match &arm.also {
                        None => (0, 0),
                        Some((_, coll)) => domain(t, players, coll),
                    };
                    push(ai as u16, first, second);
                }
                if pass.is_some() {
                    push(Action::PASS, (0, 1), (0, 0));
                }
            }
        }
        ActionSpace { arms, len: next }
    }

    /// How many ids there are (`num_distinct_actions`).
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The id of `action` at the decision `state` waits for; `None` when
    /// the state waits for none, or the value lies outside its arm's ids
    /// (an integer beyond a range that was not bounded before the game).
    pub fn id(&self, state: &State, action: Action) -> Option<u32> {
        let (phase, node) = state.decision_node()?;
        let at = self
            .arms
            .binary_search_by(|a| (a.phase, a.node, a.arm).cmp(&(phase, node, action.arm)))
            .ok()?;
        let a = &self.arms[at];
        let k = match a.second {
            (_, 0) => i64::from(action.value) - i64::from(a.offset),
            (off, w) => {
                let (v, x) = crate::graph::unpack_pair(action.value);
                let k2 = i64::from(x) - i64::from(off);
                if !(0..i64::from(w)).contains(&k2) {
                    return None;
                }
                (i64::from(v) - i64::from(a.offset)) * i64::from(w) + k2
            }
        };
        (0..i64::from(a.width))
            .contains(&k)
            .then(|| a.base + k as u32)
    }

    /// The action an id stands for at the decision `state` waits for, if
    /// the id belongs to that decision (legal or not).
    pub fn action(&self, state: &State, id: u32) -> Option<Action> {
        let (phase, node) = state.decision_node()?;
        let at = self.arms.partition_point(|a| a.base <= id).checked_sub(1)?;
        let a = &self.arms[at];
        if (a.phase, a.node) != (phase, node) || id - a.base >= a.width {
            return None;
        }
        let k = i64::from(id - a.base);
        let value = match a.second {
            (_, 0) => i32::try_from(i64::from(a.offset) + k).ok()?,
            (off, w) => {
                let v = i32::try_from(i64::from(a.offset) + k / i64::from(w)).ok()?;
                let x = i32::try_from(i64::from(off) + k % i64::from(w)).ok()?;
                crate::graph::pack_pair(v, x)?
            }
        };
        Some(Action { arm: a.arm, value })
    }

    /// The ids of the legal actions, in the order of `legal_actions`; an
    /// error names an action that has no id (see [`ActionSpace::id`]).
    pub fn legal_ids(&self, game: &Game, state: &State) -> Result<Vec<u32>, String> {
        state
            .legal_actions(game)
            .into_iter()
            .map(|a| {
                self.id(state, a).ok_or_else(|| {
                    format!(
                        "`{}` has no global action id (its value {} is outside its arm's range)",
                        state.label(game, a),
                        a.value
                    )
                })
            })
            .collect()
    }
}

/// The values an arm binding `coll` can take: (lowest value, how many).
fn domain(t: &Tables, players: usize, coll: &Expr) -> (i32, u32) {
    let instances = || {
        t.zones
            .iter()
            .map(|z| match z.board {
                Some(b) => t.boards[b as usize].cells.len(),
                None if z.per_player => players,
                None => 1,
            })
            .sum::<usize>() as u32
    };
    match coll {
        Expr::ZoneAll(z) if t.zones[*z as usize].board.is_some() => (0, instances()),
        Expr::Region(..) | Expr::Call(Builtin::Moves | Builtin::Ray, _) => (0, instances()),
        Expr::Players | Expr::Call(Builtin::Order, _) => (0, players as u32),
        Expr::EnumAll(e) => (0, t.enums[*e as usize].values.len() as u32),
        Expr::Bin(BinOp::Range, lo, hi) => match (bounds(t, lo), bounds(t, hi)) {
            (Some((lo, _)), Some((_, hi))) if hi >= lo => {
                let width = (i64::from(hi) - i64::from(lo) + 1).min(i64::from(MAX_ARM_WIDTH));
                (lo, width as u32)
            }
            (Some((lo, _)), _) => (lo, DYNAMIC_INT_WIDTH),
            _ => (0, DYNAMIC_INT_WIDTH),
        },
        // Anything else is a zone, whose values are cards.
        _ => (0, t.cards.len() as u32),
    }
}

/// The least and greatest value an expression can have, when known
/// before the game: a number, an option, the player count.
fn bounds(t: &Tables, e: &Expr) -> Option<(i32, i32)> {
    match e {
        Expr::Int(i) => Some((*i, *i)),
        Expr::Opt(o) => t.options.get(*o as usize).map(|o| (o.min, o.max)),
        Expr::PlayerCount => Some((i32::from(t.min_players), i32::from(t.max_players))),
        _ => None,
    }
}

impl State {
    /// Where in the graph the pending decision is: (phase, node) of its
    /// `choose`, or `None` when the game is over or waits for nobody.
    pub fn decision_node(&self) -> Option<(u16, u32)> {
        if self.is_over() {
            return None;
        }
        self.chooser()?;
        self.frames.last().map(|f| (f.phase, f.pc))
    }

    /// An action's local id: its index in [`State::legal_actions`].
    pub fn action_index(&self, game: &Game, action: Action) -> Option<usize> {
        self.legal_actions(game).iter().position(|a| *a == action)
    }

    /// The action with local id `index`.
    pub fn action_at(&self, game: &Game, index: usize) -> Option<Action> {
        self.legal_actions(game).get(index).copied()
    }

    /// What `seat` sees now: the table through its eyes (the REPL's
    /// `view`), unknown cards shown as `##`.
    pub fn observation(&self, game: &Game, seat: usize) -> String {
        self.view(game, Viewer::Seat(seat))
    }

    /// Everything `seat` has seen: each decision taken so far, who took
    /// it and its label as `seat` saw it when it was taken, then the
    /// observation now. Two states `seat` cannot tell apart give the same
    /// string. The game is replayed from its seed to label past decisions
    /// (a cost linear in the history); a position edited by hand has no
    /// replayable past and is refused.
    pub fn information_state(&self, game: &Game, seat: usize) -> Result<String, EngineError> {
        if self.edited {
            return Err(EngineError::Illegal(super::Illegal::EditedHistory));
        }
        let mut out = String::new();
        let (n, seed, opts) = (self.players(), self.seed(), &self.core.opts);
        let mut s = if self.explicit_chance() {
            State::new_explicit_chance(game, n, seed, opts)?
        } else {
            State::new(game, n, seed, opts)?
        };
        let mut i = 0;
        for a in self.history() {
            // a chance outcome shows only in what it changed on the table
            if a.arm != super::CHANCE_ARM {
                i += 1;
                let who = s.chooser().map_or("?".to_string(), |p| format!("P{p}"));
                let label = s.label_seen(game, *a, Viewer::Seat(seat));
                out.push_str(&format!("{i}. {who}: {label}\n"));
            }
            s.replay_step(game, *a)?;
        }
        out.push_str(&self.observation(game, seat));
        Ok(out)
    }

    /// The whole state as JSON (seed, generator, table, interpreter), to
    /// store or send; [`State::from_json`] reads it back exactly.
    pub fn to_json(&self) -> String {
        // Plain data of numbers and vectors: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Read a state written by [`State::to_json`] for this game; refused
    /// when it is not one (bad JSON, another player count or table).
    pub fn from_json(game: &Game, text: &str) -> Result<State, EngineError> {
        let s: State = serde_json::from_str(text)
            .map_err(|e| EngineError::Setup(super::SetupError::NotSaved(e.to_string())))?;
        let (lo, hi) = game.players();
        if s.players() < lo || s.players() > hi || s.core.opts.len() != game.options().len() {
            return Err(EngineError::Setup(super::SetupError::OtherGame));
        }
        // the variables' slots as this game lays them out (`width.rs`)
        let (bases, wide, narrow) = super::table::Layout::var_slots(game.graph(), s.core.n);
        if s.core.var_base != bases || s.core.vars.len() != wide || s.core.bytes.len() != narrow {
            return Err(EngineError::Setup(super::SetupError::OtherGame));
        }
        s.check_conservation(game)?;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::ActionSpace;
    use crate::engine::{Game, State};

    const GAME: &str = r#"
game "Pick" { players 2..3 }
option top = 5 in 2..9 "the highest bid"
card C { v: int  name "c{v}" }
deck cs of C size 4 in pile { { v: 1..4 } }
zone pile: shared pile hidden
zone hand: per player set owner
var total: int = 0
start {
  for p in players { deal 1 from pile to p.hand }
  choose seat(0) {
    "bid {n}" for n in 1..top { total += n }
    "keep {c}" for c in seat(0).hand { }
    "stop" { }
  }
  end game
}
winners highest total
"#;

    fn game() -> Game {
        Game::from_source("pick.rules", GAME).unwrap_or_else(|d| panic!("{}", d.render_plain()))
    }

    #[test]
    fn global_ids_are_dense_distinct_and_decode() {
        let game = game();
        let space = ActionSpace::new(&game, 2);
        // bid: 1..9 at most (option max) = 9 ids; keep: 4 cards; stop: 1.
        assert_eq!(space.len(), 9 + 4 + 1);
        let s = State::new(&game, 2, 7, &game.default_options()).expect("starts");
        let ids = space.legal_ids(&game, &s).expect("every action has an id");
        assert_eq!(ids.len(), s.legal_actions(&game).len());
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len(), "distinct");
        for (a, id) in s.legal_actions(&game).into_iter().zip(&ids) {
            assert!((*id as usize) < space.len());
            assert_eq!(space.action(&s, *id), Some(a));
        }
    }

    #[test]
    fn states_round_trip_through_json() {
        let game = game();
        let mut s = State::new(&game, 2, 3, &game.default_options()).expect("starts");
        let first = s.legal_actions(&game)[0];
        s.apply(&game, first).expect("legal");
        let text = s.to_json();
        let back = State::from_json(&game, &text).expect("reads back");
        assert_eq!(back.to_json(), text);
        assert_eq!(back.legal_actions(&game), s.legal_actions(&game));
        assert_eq!(back.history(), s.history());
        assert!(State::from_json(&game, "{").is_err());
    }

    #[test]
    fn a_seat_sees_only_what_it_knows() {
        let game = game();
        let mut s = State::new(&game, 2, 3, &game.default_options()).expect("starts");
        let zi = game
            .graph()
            .tables
            .zones
            .iter()
            .position(|z| z.name == "hand");
        let inst = s.core.zone_base[zi.expect("a hand")] as usize;
        let card = game.card_name(s.core.zone(inst)[0] as usize).to_string();
        let keep = s
            .legal_actions(&game)
            .into_iter()
            .find(|a| s.label(&game, *a).starts_with("keep"))
            .expect("a keep");
        s.apply(&game, keep).expect("legal");
        let mine = s.information_state(&game, 0).expect("replays");
        let theirs = s.information_state(&game, 1).expect("replays");
        assert!(mine.contains(&format!("1. P0: keep {card}")), "{mine}");
        assert!(theirs.contains("1. P0: keep ##"), "{theirs}");
        assert!(!s.observation(&game, 1).contains(&card));
    }
}
