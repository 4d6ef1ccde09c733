//! Identical moves are one move. Two legal actions are the same move when
//! they take the same single-source option of the pending choice and bind
//! cards nobody can tell apart: the same name, kind and attributes, in the
//! same instance of a `set` zone (where position does not matter), known to
//! the same players, with the same per-card variables. The REPL, `serve`
//! and the agents a player consults are offered the distinct moves;
//! rulecheck counts them for its branching figures. The engine's raw list
//! ([`State::legal_actions`]) is unchanged: it still names every card, so
//! seeded random play (and the golden logs) do not move.

use super::Game;
use super::state::Action;
use super::state::State;
use crate::syntax::ast::Shape;

impl State {
    /// The legal actions with each group of identical moves kept once (its
    /// first, in the order of [`State::legal_actions`]).
    pub fn distinct_actions(&self, game: &Game) -> Vec<Action> {
        let legal = self.legal_actions(game);
        let mut out: Vec<Action> = Vec::with_capacity(legal.len());
        for a in legal {
            if !out.iter().any(|b| self.same_move(game, *b, a)) {
                out.push(a);
            }
        }
        out
    }

    /// How many distinct moves `legal` (this state's legal actions) holds;
    /// allocates nothing.
    pub fn distinct_count(&self, game: &Game, legal: &[Action]) -> usize {
        // Most decisions bind no card (board moves, plain options): no pairs to compare.
        let mut seen = u16::MAX;
        let binds = legal.iter().any(|a| {
            let new = a.arm != seen;
            seen = a.arm;
            new && a.arm != Action::PASS && self.binds_card(game, a.arm)
        });
        if !binds {
            return legal.len();
        }
        (0..legal.len())
            .filter(|&i| {
                !legal[..i]
                    .iter()
                    .any(|b| self.same_move(game, *b, legal[i]))
            })
            .count()
    }

    /// Whether actions `a` and `b` of the pending choice are the same move
    /// (see the module documentation).
    pub fn same_move(&self, game: &Game, a: Action, b: Action) -> bool {
        if a == b {
            return true;
        }
        if a.arm != b.arm || a.arm == Action::PASS || !self.binds_card(game, a.arm) {
            return false;
        }
        let t = &game.graph().tables;
        let c = &self.core;
        let (x, y) = (a.value as usize, b.value as usize);
        if a.value < 0 || b.value < 0 || x >= t.cards.len() || y >= t.cards.len() {
            return false;
        }
        let inst = c.card_zone(x);
        let zone = c
            .inst_zone
            .get(inst as usize)
            .map(|&z| &t.zones[z as usize]);
        if inst != c.card_zone(y) || zone.is_none_or(|z| z.shape != Shape::Set) {
            return false;
        }
        let na = t.attrs.len();
        let attrs = |k: usize| &t.card_attrs[k * na..(k + 1) * na];
        let vars_equal = t
            .vars
            .iter()
            .enumerate()
            .filter(|(_, v)| v.per_card)
            .all(|(v, _)| c.card_var(game.graph(), v, x) == c.card_var(game.graph(), v, y));
        t.cards[x].name == t.cards[y].name
            && t.cards[x].kind == t.cards[y].kind
            && attrs(x) == attrs(y)
            && c.known[x] == c.known[y]
            && vars_equal
    }
}
