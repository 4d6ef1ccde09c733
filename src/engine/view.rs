//! What people see: action labels in the chooser's view, a player's view of
//! the table (hidden cards as `##`) and the designer's view of everything.
//! Arranging a position by hand is `edit.rs`.

use super::Game;
use super::eval::Ev;
use super::state::Action;
use super::state::State;
use crate::graph::Node;
use crate::hir::{LabelPart, Ty, ZoneInfo};
use crate::syntax::ast::{Shape, Visibility};
use std::fmt::Write;

/// Whose eyes a view is rendered through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Seat(usize),
    All,
}

impl Viewer {
    fn sees(self, known: u32) -> bool {
        match self {
            Viewer::All => true,
            Viewer::Seat(p) => (known >> p) & 1 == 1,
        }
    }
}

impl State {
    pub(super) fn card_text(&self, game: &Game, card: i32, viewer: Viewer) -> String {
        if card < 0 {
            return "none".into();
        }
        if viewer.sees(self.core.known[card as usize]) {
            game.card_name(card as usize).to_string()
        } else {
            "##".into()
        }
    }

    fn value_text(&self, game: &Game, v: i32, ty: Ty, viewer: Viewer) -> String {
        let t = &game.graph().tables;
        match ty {
            Ty::Card => self.card_text(game, v, viewer),
            Ty::Player | Ty::Nothing if v < 0 => "none".into(),
            Ty::Player => format!("P{v}"),
            Ty::Bool => if v != 0 { "yes" } else { "no" }.into(),
            Ty::Enum(e) => t.enums[e as usize]
                .values
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| "none".into()),
            Ty::Zone if v < 0 || v as usize >= self.core.inst_zone.len() => "none".into(),
            Ty::Zone => self.zone_name(game, v as usize),
            _ => v.to_string(),
        }
    }

    /// `draw`, or `P2.slots` for a per-player zone.
    pub fn zone_name(&self, game: &Game, inst: usize) -> String {
        let t = &game.graph().tables;
        let zi = self.core.inst_zone[inst] as usize;
        let z = &t.zones[zi];
        if let Some(b) = z.board {
            let cell = inst - self.core.zone_base[zi] as usize;
            return format!("{}.{}", z.name, t.boards[b as usize].cell_names[cell]);
        }
        match self.core.inst_owner[inst] {
            o if o >= 0 => format!("P{o}.{}", z.name),
            _ => z.name.clone(),
        }
    }

    /// A human label for a legal action, seen by the player who chooses it.
    pub fn label(&self, game: &Game, action: Action) -> String {
        let viewer = self
            .waiting
            .map(|p| Viewer::Seat(p as usize))
            .unwrap_or(Viewer::All);
        self.label_seen(game, action, viewer)
    }

    /// A human label for a legal action as `viewer` sees it (cards it does
    /// not know are `##`).
    pub fn label_seen(&self, game: &Game, action: Action, viewer: Viewer) -> String {
        if action.arm == Action::PASS {
            return "pass".into();
        }
        let g = game.graph();
        let Some(fr) = self.frames.last() else {
            return "?".into();
        };
        let Node::Choose { arms, .. } = &g.phases[fr.phase as usize].nodes[fr.pc as usize] else {
            return "?".into();
        };
        let Some(arm) = arms.get(action.arm as usize) else {
            return "?".into();
        };
        let mut locals = self.locals[fr.base as usize..].to_vec();
        if let Some(b) = &arm.bind {
            match &arm.also {
                Some((slot, _)) => {
                    let (v, w) = crate::graph::unpack_pair(action.value);
                    locals[b.slot as usize] = v;
                    locals[*slot as usize] = w;
                }
                None => locals[b.slot as usize] = action.value,
            }
        }
        let mut out = String::new();
        for part in &arm.label {
            match part {
                LabelPart::Text(s) => out.push_str(s),
                LabelPart::Expr(e, ty) => {
                    let mut ev = Ev {
                        g,
                        c: &self.core,
                        locals: &mut locals,
                        rng: None,
                    };
                    match ev.eval(e) {
                        Ok(v) => out.push_str(&self.value_text(game, v, *ty, viewer)),
                        Err(_) => out.push('?'),
                    }
                }
            }
        }
        out
    }

    /// Which rule produced an action: the phase and the 1-based lines of its arm.
    pub fn origin(&self, game: &Game, action: Action) -> Option<(String, usize)> {
        let g = game.graph();
        let fr = self.frames.last()?;
        let phase = &g.phases[fr.phase as usize];
        let Node::Choose { arms, pass, .. } = &phase.nodes[fr.pc as usize] else {
            return None;
        };
        let target = if action.arm == Action::PASS {
            (*pass)?
        } else {
            arms.get(action.arm as usize)?.target
        };
        let span = phase
            .spans
            .get(target as usize)
            .copied()
            .unwrap_or(phase.spans[fr.pc as usize]);
        Some((phase.name.clone(), game.source().line_of(span.start)))
    }

    /// The table as `viewer` sees it.
    pub fn view(&self, game: &Game, viewer: Viewer) -> String {
        let t = &game.graph().tables;
        let mut out = String::new();
        let who = match viewer {
            Viewer::All => "everything".to_string(),
            Viewer::Seat(p) => format!("P{p}"),
        };
        let _ = writeln!(
            out,
            "{} - {} players - turn {} - view of {who}",
            t.name, self.core.n, self.turns
        );
        let _ = writeln!(out, "{}", self.status_text(game));
        for (zi, z) in t.zones.iter().enumerate() {
            let base = self.core.zone_base[zi] as usize;
            if let Some(b) = z.board {
                // a board: a grid with coordinates, pieces as symbols
                let board = &t.boards[b as usize];
                let pieces: usize = (0..board.cells.len())
                    .map(|k| self.core.zone(base + k).len())
                    .sum();
                let _ = writeln!(out, "  {:<14} [{:>2}]", z.name, pieces);
                out.push_str(&self.board_grid(game, zi, viewer, "    "));
                continue;
            }
            let count = if z.per_player {
                self.core.n as usize
            } else {
                1
            };
            for inst in base..base + count {
                let cards = self.core.zone(inst);
                let name = self.zone_name(game, inst);
                let text = self.zone_text(game, z, cards, viewer);
                let _ = writeln!(out, "  {name:<14} [{:>2}] {text}", cards.len());
            }
        }
        self.var_lines(game, viewer, &mut out);
        out
    }

    /// The view's second line: who is to choose, who won, or why nobody can.
    fn status_text(&self, game: &Game) -> String {
        match (self.over, self.chooser()) {
            (true, _) => {
                let w: Vec<String> = self.winners(game).iter().map(|p| format!("P{p}")).collect();
                if w.is_empty() {
                    "game over: no winner".into()
                } else {
                    format!("game over: won by {}", w.join(", "))
                }
            }
            (false, Some(p)) if self.legal_actions(game).is_empty() => {
                format!("stuck: P{p} must choose but has no legal option")
            }
            (false, Some(p)) => format!("P{p} to choose"),
            (false, None) if self.chance_node().is_some() => "a random draw is pending".into(),
            (false, None) => "stuck: nobody can move".into(),
        }
    }

    /// The cards of one zone instance as `viewer` sees them: a pile shows
    /// its top (one card if only the top is public, nothing if hidden), a
    /// set groups equal cards, long zones wrap.
    fn zone_text(&self, game: &Game, z: &ZoneInfo, cards: &[u16], viewer: Viewer) -> String {
        match (z.shape, z.visibility) {
            (Shape::Pile, Visibility::Hidden) if viewer != Viewer::All => String::new(),
            (Shape::Pile, _) => {
                let shown = if z.visibility == Visibility::Top && viewer != Viewer::All {
                    1
                } else {
                    6
                };
                let skip = cards.len().saturating_sub(shown);
                let mut s = if skip > 0 {
                    format!("({skip} below) ")
                } else {
                    String::new()
                };
                let top: Vec<String> = cards[skip..]
                    .iter()
                    .map(|c| self.card_text(game, *c as i32, viewer))
                    .collect();
                s.push_str(&top.join(" "));
                s
            }
            _ => {
                let texts: Vec<String> = cards
                    .iter()
                    .map(|c| self.card_text(game, *c as i32, viewer))
                    .collect();
                let items = if z.shape == Shape::Set {
                    group_equal(texts)
                } else {
                    texts
                };
                // long zones wrap under their first line
                let body = wrap(&items, "", 56);
                body.trim_end().replace('\n', &format!("\n{:21}", ""))
            }
        }
    }

    /// The global variables on one line, then each player's.
    fn var_lines(&self, game: &Game, viewer: Viewer, out: &mut String) {
        let t = &game.graph().tables;
        let globals: Vec<String> = t
            .vars
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.per_player && !v.per_card)
            .map(|(i, v)| {
                let x = self.core.vars[self.core.var_base[i] as usize];
                format!("{}={}", v.name, self.value_text(game, x, v.ty, viewer))
            })
            .collect();
        if !globals.is_empty() {
            let _ = writeln!(out, "  {}", globals.join("  "));
        }
        for p in 0..self.core.n as usize {
            let vals: Vec<String> = t
                .vars
                .iter()
                .enumerate()
                .filter(|(_, v)| v.per_player)
                .map(|(i, v)| {
                    let x = self.core.vars[self.core.var_base[i] as usize + p];
                    format!("{}={}", v.name, self.value_text(game, x, v.ty, viewer))
                })
                .collect();
            if !vals.is_empty() {
                let _ = writeln!(out, "  P{p}: {}", vals.join("  "));
            }
        }
    }
}

/// A set's cards with equal names shown once with their number
/// (`green-1 x5`), in the order each name first appears.
fn group_equal(texts: Vec<String>) -> Vec<String> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for t in texts {
        match out.iter_mut().find(|(n, _)| *n == t) {
            Some((_, c)) => *c += 1,
            None => out.push((t, 1)),
        }
    }
    out.into_iter()
        .map(|(n, c)| if c > 1 { format!("{n} x{c}") } else { n })
        .collect()
}

/// Items joined by two spaces, in lines of at most `max` characters.
pub(super) fn wrap(items: &[String], indent: &str, max: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for it in items {
        if !line.is_empty() && indent.len() + line.len() + 2 + it.len() > max {
            let _ = writeln!(out, "{indent}{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push_str("  ");
        }
        line.push_str(it);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{indent}{line}");
    }
    out
}
