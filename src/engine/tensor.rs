//! The observation tensor: what one seat knows, as a flat vector of
//! numbers of a fixed length per game and player count (OpenSpiel's
//! `observation_tensor`). It is derived from the table's layout only, so
//! it works for every rules file:
//!
//! 1. `places × cards` ones and zeros: card `c` lies in zone instance `i`
//!    and the seat knows it (instances in layout order: each zone in
//!    declaration order, a per-player zone once per seat, a board once
//!    per cell; cards in card order);
//! 2. `places` counts: the cards in instance `i` the seat does not know;
//! 3. `vars` values: each global variable, then each per-player variable
//!    once per seat, in declaration order (what `view` shows; per-card
//!    variables are left out, as the view leaves them out). A card-valued
//!    variable holds the card's number when the seat knows it, -1 when it
//!    names no card and -2 when the card is unknown to the seat;
//! 4. `players` ones and zeros: who is to choose now;
//! 5. `players` ones and zeros: the seat observing;
//! 6. one number: 1 when the game is over.
//!
//! Like the strings of `observe.rs`, it is built from the seat's
//! knowledge only: a determinization for the seat leaves it unchanged.

use super::{Game, State};
use crate::hir::Ty;

/// The fixed shape of a game's observation tensor at one player count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorShape {
    /// Zone instances (places).
    pub places: usize,
    pub cards: usize,
    /// Variable values (globals, then per-player ones once per seat).
    pub vars: usize,
    pub players: usize,
}

impl TensorShape {
    pub fn new(game: &Game, players: usize) -> TensorShape {
        let t = &game.graph().tables;
        let places = t
            .zones
            .iter()
            .map(|z| match z.board {
                Some(b) => t.boards[b as usize].cells.len(),
                None if z.per_player => players,
                None => 1,
            })
            .sum();
        let vars = t
            .vars
            .iter()
            .filter(|v| !v.per_card)
            .map(|v| if v.per_player { players } else { 1 })
            .sum();
        TensorShape {
            places,
            cards: t.cards.len(),
            vars,
            players,
        }
    }

    /// The length of the tensor.
    pub fn len(&self) -> usize {
        self.places * self.cards + self.places + self.vars + 2 * self.players + 1
    }

    pub fn is_empty(&self) -> bool {
        false
    }
}

impl State {
    /// What `seat` knows as numbers: see the module doc for the layout
    /// ([`TensorShape::len`] long).
    pub fn observation_tensor(&self, game: &Game, seat: usize) -> Vec<f32> {
        let shape = TensorShape::new(game, self.players());
        let mut out = vec![0f32; shape.len()];
        self.observation_tensor_into(game, seat, &mut out);
        out
    }

    /// Like [`State::observation_tensor`], into a buffer of the shape's
    /// length (a shorter buffer gets the start of the tensor).
    pub fn observation_tensor_into(&self, game: &Game, seat: usize, out: &mut [f32]) {
        let t = &game.graph().tables;
        let c = &self.core;
        let (places, cards, n) = (c.insts(), c.card_count(), self.players());
        let bit = 1u32.checked_shl(seat as u32).unwrap_or(0);
        let knows = |card: usize| c.known.get(card).is_some_and(|k| k & bit != 0);
        let mut vals = Vec::with_capacity(places * cards + places + 2 * n + 1);
        let mut hidden = vec![0f32; places];
        let mut grid = vec![0f32; places * cards];
        for (i, zone) in c.zones().enumerate() {
            for card in zone {
                let card = *card as usize;
                if knows(card) {
                    grid[i * cards + card] = 1.0;
                } else {
                    hidden[i] += 1.0;
                }
            }
        }
        vals.extend(grid);
        vals.extend(hidden);
        for (vi, v) in t.vars.iter().enumerate() {
            if v.per_card {
                continue;
            }
            let base = c.var_base[vi] as usize;
            let count = if v.per_player { n } else { 1 };
            for k in 0..count {
                let x = c.vars.get(base + k).copied().unwrap_or(0);
                let x = match v.ty {
                    Ty::Card if x < 0 || x as usize >= cards => -1.0,
                    Ty::Card if !knows(x as usize) => -2.0,
                    _ => x as f32,
                };
                vals.push(x);
            }
        }
        let chooser = self.chooser();
        vals.extend((0..n).map(|p| f32::from(u8::from(chooser == Some(p)))));
        vals.extend((0..n).map(|p| f32::from(u8::from(p == seat))));
        vals.push(f32::from(u8::from(self.is_over())));
        for (o, v) in out.iter_mut().zip(vals) {
            *o = v;
        }
    }
}
