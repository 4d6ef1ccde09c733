//! Boards drawn as grids for people: column letters and row numbers round
//! the edge, the top row first, each piece as a short symbol made from its
//! name (`red-tower` -> `rt`) with a legend below, `.` for an empty cell
//! and a blank for a removed one. Used by the views and `state BOARD`.

use super::Game;
use super::state::State;
use super::view::{Viewer, wrap};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Short symbols for piece names: the initials of the name's words, made
/// longer with letters of the last word, then numbered, until all differ.
fn symbols(names: &[String]) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    for name in names {
        if name == "##" {
            out.insert(name.clone(), "##".into());
            continue;
        }
        let words: Vec<&str> = name
            .split(['-', '_', ' '])
            .filter(|w| !w.is_empty())
            .collect();
        let initials: String = words.iter().filter_map(|w| w.chars().next()).collect();
        let last: Vec<char> = words.last().map_or(Vec::new(), |w| w.chars().collect());
        let mut cands = vec![if words.len() == 1 {
            last.iter().take(2).collect()
        } else {
            initials.clone()
        }];
        let stem: String = initials
            .chars()
            .take(words.len().saturating_sub(1))
            .collect();
        for n in 2..=last.len() {
            cands.push(format!("{stem}{}", last.iter().take(n).collect::<String>()));
        }
        let sym = cands
            .into_iter()
            .find(|c| !used.contains_key(c))
            .unwrap_or_else(|| format!("{initials}{}", used.len()));
        used.insert(sym.clone(), 1);
        out.insert(name.clone(), sym);
    }
    out
}

impl State {
    /// The zone index of the board called `name`, if it is one.
    pub fn find_board(&self, game: &Game, name: &str) -> Option<usize> {
        let t = &game.graph().tables;
        t.zones
            .iter()
            .position(|z| z.name == name && z.board.is_some())
    }

    /// Board zone `zi` drawn as a grid with coordinates and a legend,
    /// each line indented by `indent`.
    pub fn board_grid(&self, game: &Game, zi: usize, viewer: Viewer, indent: &str) -> String {
        let t = &game.graph().tables;
        let Some(b) = t.zones.get(zi).and_then(|z| z.board) else {
            return String::new();
        };
        let board = &t.boards[b as usize];
        let base = self.core.zone_base[zi] as usize;
        // What each cell shows: its top card, `+` when more lie under it.
        let texts: Vec<Option<(String, usize)>> = (0..board.cells.len())
            .map(|k| {
                let cards = self.core.zone(base + k);
                let top = *cards.last()?;
                Some((self.card_text(game, top as i32, viewer), cards.len()))
            })
            .collect();
        let mut names: Vec<String> = texts.iter().flatten().map(|(n, _)| n.clone()).collect();
        names.sort();
        names.dedup();
        let sym = symbols(&names);
        let stacked = texts.iter().flatten().any(|(_, n)| *n > 1);
        let width = sym
            .values()
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(1)
            .max(1)
            + usize::from(stacked);
        let (w, h) = (board.width as usize, board.height as usize);
        let label = h.to_string().len();
        let mut out = String::new();
        let header = |out: &mut String| {
            let _ = write!(out, "{indent}{:label$} ", "");
            for x in 0..w {
                let col = char::from(b'a' + x as u8);
                let _ = write!(out, " {col:<width$}");
            }
            out.push('\n');
        };
        header(&mut out);
        for y in (0..h).rev() {
            let _ = write!(out, "{indent}{:>label$} ", y + 1);
            for x in 0..w {
                let cell = board.grid[y * w + x];
                let text = if cell < 0 {
                    String::new()
                } else {
                    match &texts[cell as usize] {
                        None => ".".to_string(),
                        Some((n, count)) => {
                            let s = sym.get(n).cloned().unwrap_or_default();
                            if *count > 1 { format!("{s}+") } else { s }
                        }
                    }
                };
                let _ = write!(out, " {text:<width$}");
            }
            let _ = writeln!(out, " {:<label$}", y + 1);
        }
        header(&mut out);
        let mut out: String = out.lines().map(|l| format!("{}\n", l.trim_end())).collect();
        // The legend: symbol, name and how many, a few per line.
        let items = legend(&texts, &sym);
        out.push_str(&wrap(&items, indent, 76));
        if stacked {
            let _ = writeln!(out, "{indent}(+ : more cards under the one shown)");
        }
        out
    }
}

/// The legend of a board: `SYMBOL NAME [xCOUNT]` for each kind of top
/// card shown, in the order of the symbols.
fn legend(texts: &[Option<(String, usize)>], sym: &BTreeMap<String, String>) -> Vec<String> {
    let mut counts: BTreeMap<&String, usize> = BTreeMap::new();
    for (n, _) in texts.iter().flatten() {
        *counts.entry(n).or_default() += 1;
    }
    let mut entries: Vec<(String, String)> = counts
        .iter()
        .map(|(n, c)| {
            let s = sym.get(*n).cloned().unwrap_or_default();
            let more = if *c > 1 {
                format!(" x{c}")
            } else {
                String::new()
            };
            (s.clone(), format!("{s} {n}{more}"))
        })
        .collect();
    entries.sort();
    entries.into_iter().map(|e| e.1).collect()
}

#[cfg(test)]
mod tests {
    use super::symbols;

    #[test]
    fn symbols_differ_and_stay_short() {
        let names: Vec<String> = ["red-tower", "red-tent", "blue-tower", "red-peg", "token"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let s = symbols(&names);
        assert_eq!(s["red-tower"], "rt");
        assert_eq!(s["red-tent"], "rte");
        assert_eq!(s["blue-tower"], "bt");
        assert_eq!(s["red-peg"], "rp");
        assert_eq!(s["token"], "to");
    }
}
