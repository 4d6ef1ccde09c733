//! Hand edits for playtests and setup scripts: finding a zone by name,
//! `arrange` (cards by name into a zone) and `put` (a variable's value),
//! and [`EditError`], the typed reason one is refused (its `Display` is the
//! one line the REPL prints).

use super::Game;
use super::state::State;
use crate::hir::Ty;

/// Why a hand edit (`arrange`, `put`, a zone named in a command) was
/// refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// No zone has this name; `suggestion` is the closest one, if any.
    UnknownZone {
        name: String,
        suggestion: Option<String>,
        zones: Vec<String>,
    },
    /// A board named without one of its cells (`last` is its last cell).
    NotACell {
        cell: String,
        board: String,
        last: String,
    },
    /// A shared zone named with an owner.
    SharedZone(String),
    /// A zone of each player named without an owner.
    PerPlayerZone(String),
    /// A seat number past the last player.
    NoSuchPlayer { seat: usize, players: usize },
    /// Fewer cards of this name in the game than were named.
    NotEnoughCards(String),
    /// No card has this name; `suggestion` is the closest one, if any.
    UnknownCard {
        name: String,
        suggestion: Option<String>,
    },
    /// The owner of a variable is not a seat (`P0`...).
    NotASeat { text: String, players: usize },
    /// No variable (global or per player) has this name.
    UnknownVariable {
        name: String,
        suggestion: Option<String>,
        vars: Vec<String>,
    },
    /// A variable of each player named without an owner.
    PerPlayerVar(String),
    /// A global variable named with an owner.
    GlobalVar(String),
    /// A value the variable's type does not take; `takes` says what it does.
    BadValue {
        var: String,
        value: String,
        takes: String,
    },
    /// A whole number beyond 32 bits for a number variable.
    OutOfRange { var: String, value: String },
    /// A variable whose type cannot be written by hand.
    NotSettable(String),
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::UnknownZone {
                name,
                suggestion: Some(s),
                ..
            } => write!(f, "unknown zone `{name}`: did you mean `{s}`?"),
            EditError::UnknownZone { name, zones, .. } => {
                write!(
                    f,
                    "unknown zone `{name}`: the zones are {}",
                    zones.join(", ")
                )
            }
            EditError::NotACell { cell, board, last } => write!(
                f,
                "`{cell}` is not a cell of board `{board}`: write `{board}.a1` .. `{board}.{last}`"
            ),
            EditError::SharedZone(z) => write!(f, "zone `{z}` is shared: write just `{z}`"),
            EditError::PerPlayerZone(z) => {
                write!(f, "zone `{z}` belongs to each player: write `P0.{z}`")
            }
            EditError::NoSuchPlayer { seat, players } => write!(
                f,
                "there is no player P{seat} (players are P0..P{})",
                players - 1
            ),
            EditError::NotEnoughCards(name) => {
                write!(f, "not enough cards named `{name}` in the game")
            }
            EditError::UnknownCard {
                name,
                suggestion: Some(s),
            } => write!(f, "no card is named `{name}`: did you mean `{s}`?"),
            EditError::UnknownCard { name, .. } => write!(f, "no card is named `{name}`"),
            EditError::NotASeat { text, players } => {
                write!(f, "`{text}` is not a seat: write P0..P{}", players - 1)
            }
            EditError::UnknownVariable {
                name,
                suggestion: Some(s),
                ..
            } => write!(f, "unknown variable `{name}`: did you mean `{s}`?"),
            EditError::UnknownVariable { name, vars, .. } => write!(
                f,
                "unknown variable `{name}`: the variables are {}",
                vars.join(", ")
            ),
            EditError::PerPlayerVar(v) => {
                write!(f, "`{v}` belongs to each player: write `P0.{v}`")
            }
            EditError::GlobalVar(v) => write!(f, "`{v}` is global: write just `{v}`"),
            EditError::BadValue { var, value, takes } => {
                write!(f, "`{var}` takes {takes}, not `{value}`")
            }
            EditError::OutOfRange { var, value } => write!(
                f,
                "`{value}` is out of range: `{var}` takes a number from {} to {} (numbers are 32-bit)",
                i32::MIN,
                i32::MAX
            ),
            EditError::NotSettable(v) => write!(f, "`{v}` cannot be set by hand"),
        }
    }
}

impl std::error::Error for EditError {}

/// Front ends whose commands answer with one line of text pass the
/// error on with `?`.
impl From<EditError> for String {
    fn from(e: EditError) -> String {
        e.to_string()
    }
}

impl State {
    /// Find a zone instance by name: `draw`, `P1.slots` or `slots.1`.
    pub fn find_zone(&self, game: &Game, name: &str) -> Result<usize, EditError> {
        let t = &game.graph().tables;
        let (zname, owner) = match name.split_once('.') {
            Some((a, b)) if a.starts_with('P') && a[1..].parse::<usize>().is_ok() => {
                (b, a[1..].parse().ok())
            }
            Some((a, b)) => (a, b.parse::<usize>().ok()),
            None => (name, None),
        };
        let Some(zi) = t.zones.iter().position(|z| z.name == zname) else {
            let zones: Vec<String> = t.zones.iter().map(|z| z.name.clone()).collect();
            return Err(EditError::UnknownZone {
                name: zname.to_string(),
                suggestion: crate::diag::did_you_mean(zname, zones.iter().map(String::as_str))
                    .map(str::to_string),
                zones,
            });
        };
        let base = self.core.zone_base[zi] as usize;
        if let Some(b) = t.zones[zi].board {
            let board = &t.boards[b as usize];
            let cell = name.split_once('.').map(|x| x.1).unwrap_or("");
            return match board.cell_names.iter().position(|c| c == cell) {
                Some(k) => Ok(base + k),
                None => Err(EditError::NotACell {
                    cell: cell.to_string(),
                    board: zname.to_string(),
                    last: board.cell_names.last().map_or("a1", String::as_str).into(),
                }),
            };
        }
        match (t.zones[zi].per_player, owner) {
            (false, None) => Ok(base),
            (false, Some(_)) => Err(EditError::SharedZone(zname.to_string())),
            (true, Some(p)) if p < self.core.n as usize => Ok(base + p),
            (true, Some(p)) => Err(EditError::NoSuchPlayer {
                seat: p,
                players: self.core.n as usize,
            }),
            (true, None) => Err(EditError::PerPlayerZone(zname.to_string())),
        }
    }

    /// Put the named cards in a zone, bottom first, replacing what was there.
    /// The cards displaced take the places the named cards left; any extra go
    /// to the bottom of their deck's home zone (beneath the named cards when
    /// the arranged zone is that home). Knowledge of every card moved (pushed
    /// ones too) is reset to what the zone shows. `arrange BOARD` with no
    /// cards clears every cell of a board. The state is unchanged on error.
    pub fn arrange(&mut self, game: &Game, zone: &str, cards: &[&str]) -> Result<(), EditError> {
        let t = &game.graph().tables;
        if cards.is_empty()
            && let Some(zi) = t
                .zones
                .iter()
                .position(|z| z.name == zone && z.board.is_some())
        {
            self.clear_board(game, zi);
        } else {
            let inst = self.find_zone(game, zone)?;
            let chosen = self.pick_cards(game, inst, cards)?;
            self.place(game, inst, chosen);
            debug_assert!(self.check_conservation(game).is_ok());
        }
        self.relist_edited(game);
        Ok(())
    }

    /// Every piece on board zone `zi` goes back to the bottom of its home.
    fn clear_board(&mut self, game: &Game, zi: usize) {
        let t = &game.graph().tables;
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
    }

    /// The card each name means, each card once: a copy already in zone
    /// `inst` first, then one in a shared zone, then one in a player's zone
    /// (which an earlier arrange may have placed there).
    fn pick_cards(&self, game: &Game, inst: usize, names: &[&str]) -> Result<Vec<u16>, EditError> {
        let t = &game.graph().tables;
        let mut chosen: Vec<u16> = Vec::new();
        // `esquive` names the card `esquive (dodge)`: a name matches up to its bracket.
        let named = |c: usize, name: &str| {
            let full = &t.cards[c].name;
            full == name || full.split(" (").next() == Some(name)
        };
        for name in names {
            let pick = (0..t.cards.len())
                .filter(|c| named(*c, name) && !chosen.contains(&(*c as u16)))
                .min_by_key(|c| {
                    let z = self.core.card_zone(*c) as usize;
                    let home = self.core.zone_base[t.card_home[*c] as usize] as usize;
                    (z != inst, z != home, self.core.inst_owner[z] >= 0, *c)
                });
            match pick {
                Some(c) => chosen.push(c as u16),
                None if (0..t.cards.len()).any(|c| named(c, name)) => {
                    return Err(EditError::NotEnoughCards(name.to_string()));
                }
                None => {
                    let names = t.cards.iter().map(|c| c.name.as_str());
                    return Err(EditError::UnknownCard {
                        name: name.to_string(),
                        suggestion: crate::diag::did_you_mean(name, names).map(str::to_string),
                    });
                }
            }
        }
        Ok(chosen)
    }

    /// Makes `chosen` the cards of zone `inst`: the cards it held fill the
    /// places the chosen ones left, any extra go to the bottom of their
    /// home; every card moved knows what its new zone shows.
    fn place(&mut self, game: &Game, inst: usize, chosen: Vec<u16>) {
        let g = game.graph();
        let t = &g.tables;
        let mut zones = self.core.nested();
        // record where each chosen card came from (zone, index), then swap in
        let holes: Vec<(u16, usize)> = chosen
            .iter()
            .map(|c| (self.core.card_zone(*c as usize), *c))
            .filter(|(z, _)| *z as usize != inst)
            .map(|(z, c)| (z, self.core.position(c)))
            .collect();
        // Fill holes with displaced cards, in order.
        let mut displaced = zones[inst].iter().copied().filter(|c| !chosen.contains(c));
        let placements: Vec<(u16, u16, usize)> = holes
            .iter()
            .map_while(|(z, i)| displaced.next().map(|c| (c, *z, *i)))
            .collect();
        let extra: Vec<u16> = displaced.collect();
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
    }

    /// Set a variable for a playtest: `closer`, `P1.score`, with a value
    /// written as in views (`7`, `yes`, `P2`, `none`, an enum value, a card
    /// name). Per-card variables are not settable here. The state is
    /// unchanged on error.
    pub fn set_var(&mut self, game: &Game, name: &str, value: &str) -> Result<(), EditError> {
        let (vi, slot) = self.var_slot(game, name)?;
        let v = &game.graph().tables.vars[vi];
        self.core.vars[slot] = self.parse_value(game, &v.name, v.ty, value)?;
        self.relist_edited(game);
        Ok(())
    }

    /// The variable `name` (`closer`, `P1.score`) and its slot.
    fn var_slot(&self, game: &Game, name: &str) -> Result<(usize, usize), EditError> {
        let t = &game.graph().tables;
        let players = self.core.n as usize;
        let (owner, vname) = match name.split_once('.') {
            Some((p, v)) => {
                let seat = p
                    .strip_prefix('P')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| *n < players)
                    .ok_or_else(|| EditError::NotASeat {
                        text: p.to_string(),
                        players,
                    })?;
                (Some(seat), v)
            }
            None => (None, name),
        };
        let Some(vi) = t.vars.iter().position(|v| v.name == vname && !v.per_card) else {
            let vars: Vec<String> = t
                .vars
                .iter()
                .filter(|v| !v.per_card)
                .map(|v| v.name.clone())
                .collect();
            return Err(EditError::UnknownVariable {
                name: vname.to_string(),
                suggestion: crate::diag::did_you_mean(vname, vars.iter().map(String::as_str))
                    .map(str::to_string),
                vars,
            });
        };
        let base = self.core.var_base[vi] as usize;
        match (t.vars[vi].per_player, owner) {
            (true, Some(p)) => Ok((vi, base + p)),
            (false, None) => Ok((vi, base)),
            (true, None) => Err(EditError::PerPlayerVar(vname.to_string())),
            (false, Some(_)) => Err(EditError::GlobalVar(vname.to_string())),
        }
    }

    /// `value` read as a value of type `ty` for variable `var`.
    fn parse_value(&self, game: &Game, var: &str, ty: Ty, value: &str) -> Result<i32, EditError> {
        let t = &game.graph().tables;
        let n = self.core.n;
        let bad = |takes: String| EditError::BadValue {
            var: var.to_string(),
            value: value.to_string(),
            takes,
        };
        Ok(match (ty, value) {
            (Ty::Int, _) => value.parse::<i32>().map_err(|_| {
                let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
                match !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    true => EditError::OutOfRange {
                        var: var.to_string(),
                        value: value.to_string(),
                    },
                    false => bad("a number".into()),
                }
            })?,
            (Ty::Bool, "yes" | "true") => 1,
            (Ty::Bool, "no" | "false") => 0,
            (Ty::Bool, _) => return Err(bad("yes or no".into())),
            (Ty::Player | Ty::Zone | Ty::Card, "none") => -1,
            (Ty::Player, _) => value
                .strip_prefix('P')
                .and_then(|n| n.parse::<i32>().ok())
                .filter(|p| *p >= 0 && *p < n as i32)
                .ok_or_else(|| bad(format!("a seat P0..P{} or none", n - 1)))?,
            (Ty::Enum(e), _) => {
                let values = &t.enums[e as usize].values;
                values
                    .iter()
                    .position(|x| x == value)
                    .ok_or_else(|| bad(format!("one of {}", values.join(", "))))?
                    as i32
            }
            (Ty::Zone, _) => self.find_zone(game, value)? as i32,
            (Ty::Card, _) => t
                .cards
                .iter()
                .position(|c| c.name == value)
                .ok_or_else(|| EditError::UnknownCard {
                    name: value.to_string(),
                    suggestion: None,
                })? as i32,
            _ => return Err(EditError::NotSettable(var.to_string())),
        })
    }
}
