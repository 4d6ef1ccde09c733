//! What people see: action labels in the chooser's view, a player's view of
//! the table (hidden cards as `##`), the designer's view of everything, and
//! arranging a position by card names for playtests.

use super::Game;
use super::eval::Ev;
use super::exec::Action;
use super::state::State;
use crate::graph::Node;
use crate::hir::{LabelPart, Ty};
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
        match (self.over, self.chooser()) {
            (true, _) => {
                let w: Vec<String> = self.winners(game).iter().map(|p| format!("P{p}")).collect();
                if w.is_empty() {
                    let _ = writeln!(out, "game over: no winner");
                } else {
                    let _ = writeln!(out, "game over: won by {}", w.join(", "));
                }
            }
            (false, Some(p)) if self.legal_actions(game).is_empty() => {
                let _ = writeln!(out, "stuck: P{p} must choose but has no legal option");
            }
            (false, Some(p)) => {
                let _ = writeln!(out, "P{p} to choose");
            }
            (false, None) if self.chance_node().is_some() => {
                let _ = writeln!(out, "a random draw is pending");
            }
            (false, None) => {
                let _ = writeln!(out, "stuck: nobody can move");
            }
        }
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
                let text = match (z.shape, z.visibility) {
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
                        let body = super::board_view::wrap(&items, "", 56);
                        body.trim_end().replace('\n', &format!("\n{:21}", ""))
                    }
                };
                let _ = writeln!(out, "  {name:<14} [{:>2}] {text}", cards.len());
            }
        }
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
        out
    }

    /// Find a zone instance by name: `draw`, `P1.slots` or `slots.1`.
    pub fn find_zone(&self, game: &Game, name: &str) -> Result<usize, String> {
        let t = &game.graph().tables;
        let (zname, owner) = match name.split_once('.') {
            Some((a, b)) if a.starts_with('P') && a[1..].parse::<usize>().is_ok() => {
                (b, a[1..].parse().ok())
            }
            Some((a, b)) => (a, b.parse::<usize>().ok()),
            None => (name, None),
        };
        let names: Vec<&str> = t.zones.iter().map(|z| z.name.as_str()).collect();
        let Some(zi) = t.zones.iter().position(|z| z.name == zname) else {
            return Err(
                match crate::diag::did_you_mean(zname, names.iter().copied()) {
                    Some(s) => format!("unknown zone `{zname}`: did you mean `{s}`?"),
                    None => format!("unknown zone `{zname}`: the zones are {}", names.join(", ")),
                },
            );
        };
        let base = self.core.zone_base[zi] as usize;
        if let Some(b) = t.zones[zi].board {
            let board = &t.boards[b as usize];
            let cell = name.split_once('.').map(|x| x.1).unwrap_or("");
            return match board.cell_names.iter().position(|c| c == cell) {
                Some(k) => Ok(base + k),
                None => Err(format!(
                    "`{cell}` is not a cell of board `{zname}`: write `{zname}.a1` .. `{zname}.{}`",
                    board.cell_names.last().map(String::as_str).unwrap_or("a1")
                )),
            };
        }
        match (t.zones[zi].per_player, owner) {
            (false, None) => Ok(base),
            (false, Some(_)) => Err(format!("zone `{zname}` is shared: write just `{zname}`")),
            (true, Some(p)) if p < self.core.n as usize => Ok(base + p),
            (true, Some(p)) => Err(format!(
                "there is no player P{p} (players are P0..P{})",
                self.core.n - 1
            )),
            (true, None) => Err(format!(
                "zone `{zname}` belongs to each player: write `P0.{zname}`"
            )),
        }
    }

    /// Put the named cards in a zone, bottom first, replacing what was there.
    /// The cards displaced take the places the named cards left; any extra go
    /// to the bottom of their deck's home zone (beneath the named cards when
    /// the arranged zone is that home). Knowledge of every card moved (pushed ones too) is reset to what
    /// the zone shows. The state is unchanged on error.
    pub fn arrange(&mut self, game: &Game, zone: &str, cards: &[&str]) -> Result<(), String> {
        let t = &game.graph().tables;
        // `arrange BOARD` with no cards clears every cell of a board.
        if cards.is_empty()
            && let Some(zi) = t
                .zones
                .iter()
                .position(|z| z.name == zone && z.board.is_some())
        {
            let base = self.core.zone_base[zi] as usize;
            let mut zones = self.core.nested();
            for inst in base..base + self.core.zone_count[zi] as usize {
                for c in std::mem::take(&mut zones[inst]) {
                    let home = self.core.zone_base[t.card_home[c as usize] as usize];
                    zones[home as usize].insert(0, c);
                    self.core.known[c as usize] = self.core.viewers(game.graph(), home);
                }
            }
            self.core.set_zones(&zones);
            self.relist_edited(game);
            return Ok(());
        }
        let inst = self.find_zone(game, zone)?;
        let mut chosen: Vec<u16> = Vec::new();
        // `esquive` names the card `esquive (dodge)`: a name matches up to its bracket.
        let named = |c: usize, name: &str| {
            let full = &t.cards[c].name;
            full == name || full.split(" (").next() == Some(name)
        };
        for name in cards {
            let pick = (0..t.cards.len())
                .filter(|c| named(*c, name) && !chosen.contains(&(*c as u16)))
                // prefer a copy already in the target zone, then one in a
                // shared zone, then one in a player's zone (which an earlier
                // arrange may have placed there)
                .min_by_key(|c| {
                    let z = self.core.card_zone(*c) as usize;
                    let home = self.core.zone_base[t.card_home[*c] as usize] as usize;
                    (z != inst, z != home, self.core.inst_owner[z] >= 0, *c)
                });
            match pick {
                Some(c) => chosen.push(c as u16),
                None if (0..t.cards.len()).any(|c| named(c, name)) => {
                    return Err(format!("not enough cards named `{name}` in the game"));
                }
                None => {
                    let names: Vec<&str> = t.cards.iter().map(|c| c.name.as_str()).collect();
                    return Err(
                        match crate::diag::did_you_mean(name, names.iter().copied()) {
                            Some(s) => format!("no card is named `{name}`: did you mean `{s}`?"),
                            None => format!("no card is named `{name}`"),
                        },
                    );
                }
            }
        }
        let g = game.graph();
        let mut zones = self.core.nested();
        let displaced: Vec<u16> = zones[inst]
            .iter()
            .copied()
            .filter(|c| !chosen.contains(c))
            .collect();
        // record where each chosen card came from (zone, index), then swap in
        let mut holes: Vec<(u16, usize)> = Vec::new();
        for c in &chosen {
            let z = self.core.card_zone(*c as usize);
            if z as usize != inst {
                holes.push((z, self.core.position(*c)));
            }
        }
        // Fill holes with displaced cards, in order.
        let mut d = displaced.into_iter();
        let mut placements: Vec<(u16, u16, usize)> = Vec::new();
        for (z, i) in &holes {
            if let Some(c) = d.next() {
                placements.push((c, *z, *i));
            }
        }
        let extra: Vec<u16> = d.collect();
        // Rebuild: empty the target, then set holes, then fill target.
        for (z, i) in &holes {
            zones[*z as usize][*i] = u16::MAX;
        }
        for (c, z, i) in &placements {
            zones[*z as usize][*i] = *c;
        }
        for zone in zones.iter_mut() {
            zone.retain(|c| *c != u16::MAX);
        }
        zones[inst] = chosen.clone();
        // Extra displaced cards go to the bottom of their deck's home zone
        // (beneath the named cards when that is the arranged zone itself).
        for c in extra.iter().rev() {
            let home = self.core.zone_base[t.card_home[*c as usize] as usize];
            zones[home as usize].insert(0, *c);
        }
        self.core.set_zones(&zones);
        // every card that moved knows what its new zone shows: pushed into a
        // hidden pile, it is forgotten by those who cannot see that pile
        for (z, cards) in zones.iter().enumerate() {
            let viewers = self.core.viewers(g, z as u16);
            for c in cards {
                if chosen.contains(c) || extra.contains(c) || placements.iter().any(|p| p.0 == *c) {
                    self.core.known[*c as usize] = viewers;
                }
            }
        }
        debug_assert!(self.check_conservation(game).is_ok());
        self.relist_edited(game);
        Ok(())
    }
}

impl State {
    /// Set a variable for a playtest: `closer`, `P1.score`, with a value
    /// written as in views (`7`, `yes`, `P2`, `none`, an enum value, a card
    /// name). Per-card variables are not settable here. The state is
    /// unchanged on error.
    pub fn set_var(&mut self, game: &Game, name: &str, value: &str) -> Result<(), String> {
        let t = &game.graph().tables;
        let (owner, vname) = match name.split_once('.') {
            Some((p, v)) => {
                let seat = p
                    .strip_prefix('P')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| *n < self.core.n as usize)
                    .ok_or_else(|| {
                        format!("`{p}` is not a seat: write P0..P{}", self.core.n - 1)
                    })?;
                (Some(seat), v)
            }
            None => (None, name),
        };
        let names: Vec<&str> = t
            .vars
            .iter()
            .filter(|v| !v.per_card)
            .map(|v| v.name.as_str())
            .collect();
        let Some(vi) = t.vars.iter().position(|v| v.name == vname && !v.per_card) else {
            return Err(
                match crate::diag::did_you_mean(vname, names.iter().copied()) {
                    Some(s) => format!("unknown variable `{vname}`: did you mean `{s}`?"),
                    None => format!(
                        "unknown variable `{vname}`: the variables are {}",
                        names.join(", ")
                    ),
                },
            );
        };
        let v = &t.vars[vi];
        let slot = match (v.per_player, owner) {
            (true, Some(p)) => self.core.var_base[vi] as usize + p,
            (false, None) => self.core.var_base[vi] as usize,
            (true, None) => {
                return Err(format!(
                    "`{vname}` belongs to each player: write `P0.{vname}`"
                ));
            }
            (false, Some(_)) => return Err(format!("`{vname}` is global: write just `{vname}`")),
        };
        let parsed = match v.ty {
            Ty::Int => value
                .parse::<i32>()
                .map_err(|_| format!("`{vname}` takes a number, not `{value}`"))?,
            Ty::Bool => match value {
                "yes" | "true" => 1,
                "no" | "false" => 0,
                _ => return Err(format!("`{vname}` takes yes or no, not `{value}`")),
            },
            Ty::Player => match value {
                "none" => -1,
                _ => value
                    .strip_prefix('P')
                    .and_then(|n| n.parse::<i32>().ok())
                    .filter(|n| *n >= 0 && *n < self.core.n as i32)
                    .ok_or_else(|| {
                        format!(
                            "`{vname}` takes a seat P0..P{} or none, not `{value}`",
                            self.core.n - 1
                        )
                    })?,
            },
            Ty::Enum(e) => {
                let values = &t.enums[e as usize].values;
                values.iter().position(|x| x == value).ok_or_else(|| {
                    format!(
                        "`{vname}` takes one of {}, not `{value}`",
                        values.join(", ")
                    )
                })? as i32
            }
            Ty::Zone => match value {
                "none" => -1,
                _ => self.find_zone(game, value)? as i32,
            },
            Ty::Card => match value {
                "none" => -1,
                _ => t
                    .cards
                    .iter()
                    .position(|c| c.name == value)
                    .ok_or_else(|| format!("no card is named `{value}`"))?
                    as i32,
            },
            _ => return Err(format!("`{vname}` cannot be set by hand")),
        };
        self.core.vars[slot] = parsed;
        self.relist_edited(game);
        Ok(())
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
