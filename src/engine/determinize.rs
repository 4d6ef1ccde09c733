//! Determinization: from a state and a seat, sample a complete state that
//! the seat cannot tell from the real one. This is what lets an agent search
//! a game with hidden cards without reading them.
//!
//! What a seat knows comes from the per-card knowledge bitsets
//! ([`super::Core::known`]), which zone visibility, peeks and reveals keep
//! up to date. A card whose bit for the seat is clear is *unknown*; the
//! places that hold unknown cards (a zone instance and an index in it) are
//! the places the seat cannot see. Determinizing deals the unknown cards
//! anew among those places: every zone keeps its size, every card the seat
//! knows stays where it is, and everything attached to a place stays with
//! the place (who else knows the card there, the per-card variables of the
//! card there, a variable that names the card there). The cards' identities
//! are the only thing sampled, so the sample is a relabelling of the real
//! state by a permutation of the unknown cards.
//!
//! The sample depends only on what the seat knows: the unknown cards are
//! taken in card order and the places in zone order before the generator
//! deals them, so two real states that differ only in where the unknown
//! cards lie give the same sample for the same generator. The state's own
//! generator is re-seeded from the caller's, so future shuffles in the
//! sample do not replay the real game's.
//!
//! Known limit: interpreter locals and loop snapshots are untyped `i32`s,
//! so a local that holds an unknown card is not relabelled with it (it
//! keeps naming the same card, now possibly somewhere else). Checkpoints
//! (copies of the table) are relabelled like the table.

use super::width::Slots;
use super::{Action, Core, Game, State};
use crate::graph::Node;
use crate::hir::{Builtin, Expr, Place, Ty};
use crate::syntax::ast::{AggKind, BinOp};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Reusable buffers for [`State::determinize_into`].
#[derive(Clone, Debug, Default)]
pub struct Determinizer {
    /// Places holding unknown cards: (instance, index), in zone order.
    places: Vec<(u16, u32)>,
    /// The unknown cards, in card order, then dealt.
    cards: Vec<u16>,
    /// `relabel[old] = new`, the identity on known cards.
    relabel: Vec<u16>,
    known: Vec<u32>,
    vars: Vec<i32>,
    /// `card_locals(game)`, kept for the game with this digest.
    locals: Option<(u64, Vec<Vec<bool>>)>,
}

impl State {
    /// A state the seat `seat` cannot tell from this one: the cards it does
    /// not know dealt anew among the places it cannot see, from `rng`; the
    /// state's generator re-seeded from `rng` too.
    pub fn determinize(&self, game: &Game, seat: usize, rng: &mut impl Rng) -> State {
        let mut out = self.clone();
        let mut d = Determinizer::default();
        out.determinize_in_place(game, seat, rng, &mut d);
        out
    }

    /// Like [`State::determinize`], writing into `out` and reusing its
    /// buffers and those of `d` (no allocation once warm).
    pub fn determinize_into(
        &self,
        game: &Game,
        seat: usize,
        rng: &mut impl Rng,
        d: &mut Determinizer,
        out: &mut State,
    ) {
        out.clone_from(self);
        out.determinize_in_place(game, seat, rng, d);
    }

    /// Rename every card `c` to `map[c]` (a permutation of the cards)
    /// everywhere: places, knowledge, per-card and card-valued variables,
    /// checkpoints and card-valued locals. The state is marked edited and
    /// its legal actions listed again.
    pub fn relabel_cards(&mut self, game: &Game, map: &[u16]) {
        let mut d = Determinizer {
            relabel: map.to_vec(),
            ..Determinizer::default()
        };
        relabel(game, &mut self.core, &mut d);
        for cp in &mut self.checkpoints {
            relabel(game, cp, &mut d);
        }
        relabel_locals(self, &card_locals(game), map);
        self.relist_edited(game);
    }

    /// Whether `seat` knows every card (nothing to sample).
    pub fn knows_everything(&self, seat: usize) -> bool {
        let bit = 1u32.checked_shl(seat as u32).unwrap_or(0);
        self.core.known.iter().all(|k| k & bit != 0)
    }

    fn determinize_in_place(
        &mut self,
        game: &Game,
        seat: usize,
        rng: &mut impl Rng,
        d: &mut Determinizer,
    ) {
        self.rng = ChaCha8Rng::seed_from_u64(rng.random());
        let bit = 1u32.checked_shl(seat as u32).unwrap_or(0);
        let core = &self.core;
        d.places.clear();
        d.cards.clear();
        for (inst, zone) in core.zones().enumerate() {
            for (i, c) in zone.iter().enumerate() {
                if core.known[*c as usize] & bit == 0 {
                    d.places.push((inst as u16, i as u32));
                }
            }
        }
        if d.places.len() < 2 {
            return;
        }
        for (c, k) in core.known.iter().enumerate() {
            if k & bit == 0 {
                d.cards.push(c as u16);
            }
        }
        // Fisher-Yates on the cards in card order: the deal depends on the
        // set of unknown cards, never on where they lie.
        for i in (1..d.cards.len()).rev() {
            let j = rng.random_range(0..=i);
            d.cards.swap(i, j);
        }
        d.relabel.clear();
        d.relabel.extend(0..core.known.len() as u16);
        for (k, &(inst, i)) in d.places.iter().enumerate() {
            let old = core.zone(inst as usize)[i as usize];
            d.relabel[old as usize] = d.cards[k];
        }
        relabel(game, &mut self.core, d);
        for cp in &mut self.checkpoints {
            relabel(game, cp, d);
        }
        let digest = game.digest();
        if d.locals.as_ref().is_none_or(|(g, _)| *g != digest) {
            d.locals = Some((digest, card_locals(game)));
        }
        if let Some((_, slots)) = &d.locals {
            relabel_locals(self, slots, &d.relabel);
        }
        // The kept legal actions bind the real cards: list them again in the
        // sample (which is marked edited, so `undo` refuses it: its history
        // names the real cards). A guard that faults here leaves the moves
        // found before the fault, as a hand edit does.
        self.relist_edited(game);
    }
}

impl State {
    /// A key for `action` as `seat` sees it, the same in every state the
    /// seat cannot tell apart: an action that binds a card the seat does not
    /// know is named by the card's place (zone instance and index), any
    /// other by its arm and value. Search trees key their moves by it.
    pub fn observed_action(&self, game: &Game, action: Action, seat: usize) -> u64 {
        let raw = (u64::from(action.arm) << 33) | u64::from(action.value as u32);
        let c = action.value;
        if c < 0 || c as usize >= self.core.known.len() {
            return raw;
        }
        if (self.core.known[c as usize] >> seat) & 1 == 1 || !self.binds_card(game, action.arm) {
            return raw;
        }
        let inst = u64::from(self.core.card_zone(c as usize));
        let pos = self.core.position(c as u16) as u64 & 0xffff;
        (u64::from(action.arm) << 33) | (1 << 32) | (inst << 16) | pos
    }

    /// Whether arm `arm` of the pending choice binds a card.
    pub(super) fn binds_card(&self, game: &Game, arm: u16) -> bool {
        let Some(fr) = self.frames.last() else {
            return false;
        };
        let phase = &game.graph().phases[fr.phase as usize];
        let Some(Node::Choose { arms, .. }) = phase.nodes.get(fr.pc as usize) else {
            return false;
        };
        let Some(a) = arms.get(arm as usize) else {
            return false;
        };
        // A two-source arm's value is a pair, not a card: keyed as it is.
        a.also.is_none() && a.bind.as_ref().is_some_and(|b| is_card_coll(&b.coll))
    }
}

/// Rename the cards held in the card-valued locals of every active frame.
pub fn relabel_locals(state: &mut State, card_slots: &[Vec<bool>], map: &[u16]) {
    for fr in &state.frames {
        let Some(slots) = card_slots.get(fr.phase as usize) else {
            continue;
        };
        for (i, is_card) in slots.iter().enumerate() {
            let Some(v) = state.locals.get_mut(fr.base as usize + i) else {
                break;
            };
            if *is_card && *v >= 0 && (*v as usize) < map.len() {
                *v = i32::from(map[*v as usize]);
            }
        }
    }
}

/// For each phase, which local slots hold cards: parameters a call passes
/// a card to (a reaction's is the card that entered), `let` of a card
/// expression, and names bound over zones (loops, choice arms, aggregates).
/// Worked out from the graph once per game (locals carry no type at run
/// time).
pub fn card_locals(game: &Game) -> Vec<Vec<bool>> {
    let g = game.graph();
    let mut slots: Vec<Vec<bool>> = g
        .phases
        .iter()
        .map(|p| {
            let mut v = vec![false; p.locals as usize];
            if p.trigger.is_some() && p.params > 0 && !v.is_empty() {
                v[0] = true;
            }
            v
        })
        .collect();
    // Calls pass card types between phases: repeat until nothing changes.
    loop {
        let mut changed = false;
        for (pi, phase) in g.phases.iter().enumerate() {
            let iter_cards: Vec<u16> = phase
                .nodes
                .iter()
                .filter_map(|node| match node {
                    Node::ForStart { coll, iter } if is_card_coll(coll) => Some(*iter),
                    _ => None,
                })
                .collect();
            for node in &phase.nodes {
                changed |= mark_node(g, &mut slots, pi, node, &iter_cards);
            }
        }
        if !changed {
            return slots;
        }
    }
}

/// Marks slot `s` of phase `p` as holding a card; whether it was not yet.
fn mark(slots: &mut [Vec<bool>], p: usize, s: u16) -> bool {
    match slots[p].get_mut(s as usize) {
        Some(x) if !*x => {
            *x = true;
            true
        }
        _ => false,
    }
}

/// Marks the card locals one node of phase `pi` shows (`iter_cards`: the
/// phase's `for` iterators over cards); whether any was new.
fn mark_node(
    g: &crate::graph::Graph,
    slots: &mut [Vec<bool>],
    pi: usize,
    node: &Node,
    iter_cards: &[u16],
) -> bool {
    let mut changed = false;
    let mut exprs: Vec<&Expr> = Vec::new();
    match node {
        Node::Assign(Place::Local(s), _, e) => {
            if is_card_expr(g, &slots[pi], e) {
                changed |= mark(slots, pi, *s);
            }
            exprs.push(e);
        }
        Node::ForNext { slot, iter, .. } if iter_cards.contains(iter) => {
            changed |= mark(slots, pi, *slot);
        }
        Node::Choose { arms, .. } => {
            for a in arms {
                if let Some(b) = &a.bind {
                    if is_card_coll(&b.coll) {
                        changed |= mark(slots, pi, b.slot);
                    }
                    exprs.push(&b.coll);
                }
                if let Some((slot, coll)) = &a.also {
                    if is_card_coll(coll) {
                        changed |= mark(slots, pi, *slot);
                    }
                    exprs.push(coll);
                }
            }
        }
        Node::Call(callee, args) => {
            for (i, a) in args.iter().enumerate() {
                if is_card_expr(g, &slots[pi], a) {
                    changed |= mark(slots, *callee as usize, i as u16);
                }
            }
        }
        _ => {}
    }
    let known = slots[pi].clone();
    for e in exprs {
        let mut found = Vec::new();
        inner_binds(g, e, &mut |s, card| found.push((s, card)), &known);
        for (s, card) in found {
            if card {
                changed |= mark(slots, pi, s);
            }
        }
    }
    changed
}

/// Whether a collection expression walks cards (see `Ev::coll`).
fn is_card_coll(coll: &Expr) -> bool {
    !matches!(
        coll,
        Expr::Region(..)
            | Expr::Players
            | Expr::EnumAll(_)
            | Expr::Call(Builtin::Moves | Builtin::Ray | Builtin::Order, _)
            | Expr::Bin(BinOp::Range, ..)
    )
}

/// Whether an expression's value is a card.
fn is_card_expr(g: &crate::graph::Graph, slots: &[bool], e: &Expr) -> bool {
    let var_card = |v: &u16| {
        g.tables
            .vars
            .get(*v as usize)
            .is_some_and(|v| v.ty == Ty::Card)
    };
    match e {
        Expr::Call(Builtin::Top | Builtin::Bottom, _) | Expr::Index(..) => true,
        Expr::Local(s) => slots.get(*s as usize).copied().unwrap_or(false),
        Expr::Global(v) | Expr::PerPlayer(v, _) | Expr::PerCard(v, _) => var_card(v),
        Expr::Attr(a, _) => g
            .tables
            .attrs
            .get(*a as usize)
            .is_some_and(|a| a.ty == Ty::Card),
        Expr::Cond(_, a, b) => is_card_expr(g, slots, a) || is_card_expr(g, slots, b),
        Expr::Bind(_, body) => is_card_expr(g, slots, body),
        Expr::Agg {
            kind: AggKind::First,
            coll,
            body: None,
            ..
        } => is_card_coll(coll),
        _ => false,
    }
}

/// The slots bound inside an expression (a function's arguments, an
/// aggregate's element), each with whether it holds a card.
fn inner_binds(g: &crate::graph::Graph, e: &Expr, f: &mut impl FnMut(u16, bool), slots: &[bool]) {
    match e {
        Expr::Bind(binds, _) => {
            for (s, x) in binds {
                f(*s, is_card_expr(g, slots, x));
            }
        }
        Expr::Agg { slot, coll, .. } => f(*slot, is_card_coll(coll)),
        _ => {}
    }
    e.for_each_child(|x| inner_binds(g, x, f, slots));
}

/// Rename every card `c` of a table to `d.relabel[c]`, with its knowledge
/// and its per-card variables; card-valued variables follow.
fn relabel(game: &Game, core: &mut Core, d: &mut Determinizer) {
    let map = &d.relabel;
    let mut zones = core.nested();
    for zone in &mut zones {
        for c in zone.iter_mut() {
            *c = map[*c as usize];
        }
    }
    core.set_zones(&zones);
    d.known.clone_from(&core.known);
    for (old, new) in map.iter().enumerate() {
        core.known[*new as usize] = d.known[old];
    }
    let cards = map.len();
    let relabel_value = |v: i32| {
        if v >= 0 && (v as usize) < cards {
            map[v as usize] as i32
        } else {
            v
        }
    };
    let g = game.graph();
    for (vi, v) in g.tables.vars.iter().enumerate() {
        match core.var_slots_mut(g, vi) {
            Some(Slots::Wide(slice)) => {
                if v.ty == Ty::Card {
                    for x in slice.iter_mut() {
                        *x = relabel_value(*x);
                    }
                }
                if v.per_card {
                    d.vars.clear();
                    d.vars.extend_from_slice(slice);
                    for (old, new) in map.iter().enumerate() {
                        slice[*new as usize] = d.vars[old];
                    }
                }
            }
            // a byte variable holds no card: only its slots follow
            Some(Slots::Narrow(slice)) => {
                d.vars.clear();
                d.vars.extend(slice.iter().map(|x| i32::from(*x)));
                for (old, new) in map.iter().enumerate() {
                    slice[*new as usize] = d.vars[old] as i8;
                }
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Game, State};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const HIDDEN: &str = include_str!("../../tests/agents/hidden.rules");

    #[test]
    fn keeps_what_the_seat_knows_and_zone_sizes() {
        let game = Game::from_source("hidden.rules", HIDDEN).unwrap();
        let s = State::new(&game, 2, 3, &game.default_options()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let d = s.determinize(&game, 0, &mut rng);
        d.check_conservation(&game).unwrap();
        for (inst, zone) in s.core.zones().enumerate() {
            assert_eq!(zone.len(), d.core.zone(inst).len());
            for (i, c) in zone.iter().enumerate() {
                if s.core.known[*c as usize] & 1 != 0 {
                    assert_eq!(d.core.zone(inst)[i], *c, "a known card moved");
                }
            }
        }
        // Seat 1's hand is unknown to seat 0: some sample changes it.
        let hand1 = s.core.zone_base[2] as usize + 1;
        let changed = (0..20).any(|_| {
            let d = s.determinize(&game, 0, &mut rng);
            d.core.zone(hand1) != s.core.zone(hand1)
        });
        assert!(changed);
    }

    #[test]
    fn the_sample_ignores_where_unknown_cards_lie() {
        let game = Game::from_source("hidden.rules", HIDDEN).unwrap();
        let s = State::new(&game, 2, 3, &game.default_options()).unwrap();
        let mut other = s.clone();
        // Exchange seat 1's first hand card with the top of the draw pile.
        let hand1 = other.core.zone_base[2] as usize + 1;
        let a = other.core.zone(hand1)[0];
        let b = *other.core.zone(0).last().unwrap();
        other.core.zone_mut(hand1)[0] = b;
        *other.core.zone_mut(0).last_mut().unwrap() = a;
        let (za, zb) = (
            other.core.card_zone(a as usize),
            other.core.card_zone(b as usize),
        );
        other.core.set_card_zone(a as usize, zb);
        other.core.set_card_zone(b as usize, za);
        other.core.known.swap(a as usize, b as usize);
        let x = s.determinize(&game, 0, &mut ChaCha8Rng::seed_from_u64(1));
        let y = other.determinize(&game, 0, &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(x.core.nested(), y.core.nested());
        assert_eq!(x.core.known, y.core.known);
    }
}
