//! How wide a variable's slots are, fixed at load. A `per card` variable
//! whose every value fits a signed byte lives in the table's byte slots
//! ([`Core::bytes`], one `i8` a card); every other variable in its `i32`
//! slots ([`Core::vars`]). A value fits by its type (a `bool`; a `player`,
//! at most 32 players or `none`; an enumeration of at most 127 values) or,
//! for an int, because the rules only ever give it constants that fit (its
//! initial value and every write are `x = k`: never `x += k` nor `x = y`).
//! A `per card` variable has a slot for each of the game's cards, so it is
//! most of a table's variables and of the bytes a copy moves; the few
//! slots of the other variables stay `i32`, and so do cards and zones.
//!
//! Names die at compile time: a compiled read or write picks its array
//! when the rules are compiled ([`Graph::in_bytes`], from the flags
//! [`byte_vars`] makes when the program is made), never by testing a
//! width while it runs. The slots' places are `Layout::var_slots`. The
//! few readers of whole tables (determinizing, symmetric cards, initial
//! values) go through [`Core::card_var`] and [`Core::var_slots_mut`].
//!
//! [`Core::bytes`]: super::table::Core
//! [`Core::vars`]: super::table::Core

use super::compile::konst;
use super::table::Core;
use crate::check::hir::Place;
use crate::graph::{Graph, Node};
use crate::hir::{Expr, Ty};
use crate::syntax::ast::AssignOp;

/// Which of a graph's variables live in the byte slots (see the module
/// documentation): made once, when the program is made.
pub(super) fn byte_vars(g: &Graph) -> Vec<bool> {
    let t = &g.tables;
    let fits = |e: &Expr| konst(t, e).is_some_and(|k| i8::try_from(k).is_ok());
    let mut bytes: Vec<bool> = t
        .vars
        .iter()
        .map(|v| {
            v.per_card
                && match v.ty {
                    Ty::Bool | Ty::Player => true,
                    Ty::Enum(e) => t
                        .enums
                        .get(usize::from(e))
                        .is_some_and(|e| e.values.len() <= 127),
                    Ty::Int => fits(&v.init),
                    _ => false,
                }
        })
        .collect();
    for node in g.phases.iter().flat_map(|ph| &ph.nodes) {
        if let Node::Assign(Place::PerCard(v, _), op, e) = node {
            let v = usize::from(*v);
            if t.vars[v].ty == Ty::Int && (*op != AssignOp::Set || !fits(e)) {
                bytes[v] = false;
            }
        }
    }
    bytes
}

/// The slots of a variable's values: its `i32` slots, or its byte slots.
pub(super) enum Slots<'a> {
    Wide(&'a mut [i32]),
    Narrow(&'a mut [i8]),
}

impl Core {
    /// The value of `per card` variable `v` on card `k` (whichever its
    /// slots), or `None` outside the table. For readers of whole tables,
    /// not for compiled code (which knows the slots when compiled).
    pub(super) fn card_var(&self, g: &Graph, v: usize, k: usize) -> Option<i32> {
        let at = self.var_base[v] as usize + k;
        if g.in_bytes(v) {
            self.bytes.get(at).map(|x| i32::from(*x))
        } else {
            self.vars.get(at).copied()
        }
    }

    /// The slots of variable `v` (one a seat, a card, or one), to rewrite
    /// in place (not journaled: initial values, cards renamed).
    pub(super) fn var_slots_mut(&mut self, g: &Graph, v: usize) -> Option<Slots<'_>> {
        let count = g
            .tables
            .vars
            .get(v)?
            .slots(usize::from(self.n), g.tables.cards.len());
        let at = *self.var_base.get(v)? as usize;
        if g.in_bytes(v) {
            self.bytes.get_mut(at..at + count).map(Slots::Narrow)
        } else {
            self.vars.get_mut(at..at + count).map(Slots::Wide)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Game, State};

    const GAME: &str = r#"
game "Marks" { players 2..3 }
enum Mood { calm, angry }
card C { v: int  name "c{v}" }
deck cs of C size 4 in pile { { v: 1..4 } }
zone pile: shared pile public
var flag: bool per card = false
var holder: player per card = none
var mood: Mood per card = angry
var hits: int per card = 0
var score: int per card = 7
var total: int = 0
start {
  for c in pile {
    choose seat(0) {
      "mark {c}" { c.flag = true  c.holder = seat(1)  c.mood = calm  c.hits = -3  c.score += 1 }
      "skip" { total += 1 }
    }
  }
  end game
}
winners highest total
"#;

    fn game() -> Game {
        Game::from_source("marks.rules", GAME).unwrap_or_else(|d| panic!("{}", d.render_plain()))
    }

    /// The bool, player and enum variables live in a byte a card, and so
    /// does the int only ever set to constants; the int that sums stays
    /// `i32`. Their values read, write, undo and save as before.
    #[test]
    fn narrow_variables_hold_their_values() {
        let game = game();
        let mut s = State::new(&game, 2, 1, &game.default_options()).expect("starts");
        let g = game.graph();
        assert_eq!((s.core.bytes.len(), s.core.vars.len()), (4 * 4, 4 + 1));
        let (flag, holder, mood, hits, score) = (0, 1, 2, 3, 4);
        assert_eq!(s.core.card_var(g, hits, 2), Some(0));
        assert_eq!(s.core.card_var(g, holder, 2), Some(-1));
        assert_eq!(s.core.card_var(g, mood, 2), Some(1));
        let before = s.clone();
        let mark = s.legal_actions(&game)[0];
        s.apply_unchecked(&game, mark).expect("applies");
        let c = (0..4)
            .find(|k| s.core.card_var(g, flag, *k) == Some(1))
            .expect("a marked card");
        assert_eq!(s.core.card_var(g, holder, c), Some(1));
        assert_eq!(s.core.card_var(g, mood, c), Some(0));
        assert_eq!(s.core.card_var(g, hits, c), Some(-3));
        assert_eq!(s.core.card_var(g, score, c), Some(8));
        let back = State::from_json(&game, &s.to_json()).expect("reads back");
        assert!(back.core.same(&s.core));
        let pre = s.clone();
        let m = s.make(&game, s.legal_actions(&game)[0]).expect("makes");
        assert!(!s.core.same(&pre.core), "the second mark writes");
        s.unmake(m);
        assert!(s.core.same(&pre.core), "unmade");
        let mut copy = before.clone();
        copy.clone_from(&s);
        assert!(copy.core.same(&s.core) && !copy.core.same(&before.core));
    }

    /// A saved table whose slots are not this game's layout (an older
    /// save, another game) is refused, not read out of bounds.
    #[test]
    fn a_table_of_another_layout_is_refused() {
        let game = game();
        let s = State::new(&game, 2, 1, &game.default_options()).expect("starts");
        assert!(
            s.to_json()
                .contains("\"bytes\":[0,0,0,0,-1,-1,-1,-1,1,1,1,1,0,0,0,0]")
        );
        let text = s.to_json().replace("\"bytes\":[0,0,0,0,", "\"bytes\":[");
        assert!(State::from_json(&game, &text).is_err());
    }
}
