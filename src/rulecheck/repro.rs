//! Reproductions too long to print inline: the game is written as a saved
//! game (the REPL's `save` format, `repl::saved`), so the REPL jumps to the
//! step at once with `load FILE` instead of reading thousands of `play N`
//! lines. The file is named after the rules file, the column, the options
//! that differ from their defaults and the seed
//! (`cards-goal=5-2p-1234.ron`).
//!
//! The moves are made again through a REPL session (the same move list the
//! REPL shows, so the file loads exactly as if the designer had saved it);
//! a move that fails (a rules fault) is left out of the file and played
//! after `load`, so the REPL shows the failure.

use crate::engine::{Game, State};
use crate::repl::saved::SavedGame;
use crate::repl::session::Session;

/// The saved game of `seed` with `opts` after `moves` (numbers in the
/// REPL's move list, from 1), or `None` if one cannot be made (it then
/// falls back to a script of `play` lines).
pub(super) fn saved_game(
    game: &Game,
    path: &str,
    players: usize,
    seed: u64,
    opts: &[i32],
    moves: &[u32],
) -> Option<String> {
    let mut s = Session::new(game, players, seed, opts)
        .ok()?
        .with_rules_path(path);
    let mut out = String::new();
    for m in moves {
        let legal = s.legal();
        let a = *legal.get((*m as usize).checked_sub(1)?)?;
        s.play(a, &mut out).ok()?;
        out.clear();
    }
    Some(SavedGame::of(&s).to_ron())
}

/// The REPL's numbers (from 1, in its list where identical moves are
/// shown once) of `picks`, indices in the engine's full legal list: a pick
/// of a move shown under another card's name is the number of the move
/// shown for it (the same label). Stops at the first pick the engine
/// refuses (it is numbered: the failing move).
pub(super) fn repl_numbers(
    game: &Game,
    players: usize,
    seed: u64,
    opts: &[i32],
    picks: &[u32],
) -> Vec<u32> {
    let Ok(mut state) = State::new(game, players, seed, opts) else {
        return picks.iter().map(|p| p + 1).collect();
    };
    let mut out = Vec::with_capacity(picks.len());
    for &p in picks {
        let legal = state.legal_actions(game);
        let Some(&action) = legal.get(p as usize) else {
            break;
        };
        let shown = state.distinct_actions(game);
        let at = shown.iter().position(|a| *a == action).or_else(|| {
            let label = state.label(game, action);
            shown.iter().position(|a| state.label(game, *a) == label)
        });
        out.push(at.map_or(p + 1, |i| i as u32 + 1));
        if state.apply(game, action).is_err() {
            break;
        }
    }
    out
}

/// `mygame-4p-threshold=5-refill=0-123.ron`: the file, the column (with
/// its seats), the options set away from their defaults that the column's label does not
/// already name, and the seed.
pub(super) fn file_name(
    path: &str,
    column: &str,
    players: usize,
    set: &[String],
    seed: u64,
    ext: &str,
) -> String {
    let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    let mut parts = vec![column.to_string()];
    let seats = format!("{players}p");
    if !column.split(' ').any(|w| w == seats) {
        parts.push(seats);
    }
    for s in set {
        if !column.split(' ').any(|w| w == s) {
            parts.push(s.clone());
        }
    }
    let slug: String = parts
        .join("-")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "=_-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("{stem}-{slug}-{seed}.{ext}")
}

/// Whether `file` can be named on a REPL command line (`load FILE`
/// splits on whitespace).
pub(super) fn loadable(file: &str) -> bool {
    !file.chars().any(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_the_options() {
        let set = vec!["goal=5".to_string(), "refill=0".to_string()];
        assert_eq!(
            file_name("rules/cards.rules", "goal=5", 2, &set, 7, "ron"),
            "cards-goal=5-2p-refill=0-7.ron"
        );
        assert_eq!(
            file_name("a/b.rules", "3p", 3, &[], 1, "grail"),
            "b-3p-1.grail"
        );
    }
}
