//! Counting move paths (perft): how many sequences of whole turns of a given
//! depth start from a position. A turn may take several decisions (a move,
//! then a promotion choice); a path steps down one level each time a new
//! turn begins, so the counts match the published tables of games whose
//! turns are single moves. Also: applying a setup script (`arrange` and `put`
//! lines) to start from a given position.

use super::{Game, State};

/// Leaf paths of `depth` turns from `state` (1 when depth is 0). Walks the
/// tree in one copy of the state by make/unmake (no copy per node).
pub fn perft(game: &Game, state: &State, depth: u32) -> u64 {
    let mut s = state.clone();
    let mut bufs = Vec::new();
    walk(game, &mut s, depth, &mut bufs)
}

/// Perft in place: `s` is back as it was on return. `bufs` keeps one list
/// of actions per ply (no allocation once warm).
fn walk(game: &Game, s: &mut State, depth: u32, bufs: &mut Vec<Vec<super::Action>>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut actions = bufs.pop().unwrap_or_default();
    s.legal_actions_into(game, &mut actions);
    let (turns, defer) = (s.turns, s.defer);
    let mut total = 0;
    for &a in &actions {
        // At the last ply a decision reached in a new turn is a leaf: it is
        // counted without listing its actions.
        s.defer = depth == 1;
        let Ok(mark) = s.make_unchecked(game, a) else {
            continue;
        };
        total += if s.defer && (s.turns > turns || s.is_over()) {
            1
        } else if s.defer && s.resume(game).is_err() {
            0
        } else if s.turns > turns || s.is_over() {
            if s.is_over() && depth > 1 {
                0
            } else {
                walk(game, s, depth - 1, bufs)
            }
        } else {
            // the same turn goes on (a follow-up decision): same depth
            walk(game, s, depth, bufs)
        };
        s.unmake(mark);
    }
    s.defer = defer;
    bufs.push(actions);
    total
}

/// Perft split by first move: each first-level label with its count.
pub fn divide(game: &Game, state: &State, depth: u32) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut s = state.clone();
    let mut bufs = Vec::new();
    for a in state.legal_actions(game) {
        let label = state.label(game, a);
        let Ok(mark) = s.make_unchecked(game, a) else {
            continue;
        };
        let new_turn = s.turns > state.turns || s.is_over();
        let n = match (depth <= 1, new_turn) {
            (true, true) => 1,
            (true, false) => walk(game, &mut s, 1, &mut bufs),
            (false, true) => walk(game, &mut s, depth - 1, &mut bufs),
            (false, false) => walk(game, &mut s, depth, &mut bufs),
        };
        s.unmake(mark);
        out.push((label, n));
    }
    out
}

impl State {
    /// Run on from a decision that was reached without being listed.
    fn resume(&mut self, game: &Game) -> Result<(), super::EngineError> {
        self.defer = false;
        if self.waiting.take().is_some() {
            self.run_with(game.graph(), &mut |_, _| {})
                .map_err(|(f, at)| self.fault(game, f, at))?;
        }
        Ok(())
    }

    /// Apply a setup script: lines `arrange ZONE CARD...` and `put VAR VALUE`;
    /// blank lines and `#` comments are skipped. Errors name the line.
    pub fn apply_setup(&mut self, game: &Game, text: &str) -> Result<(), String> {
        let mut next = self.clone();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let r = match words.as_slice() {
                ["arrange", zone, cards @ ..] => {
                    next.arrange(game, zone, cards).map_err(String::from)
                }
                ["put", var, value] => next.set_var(game, var, value).map_err(String::from),
                _ => Err("expected `arrange ZONE CARD...` or `put VARIABLE VALUE`".to_string()),
            };
            r.map_err(|e| format!("line {}: {e}", i + 1))?;
        }
        next.relist(game).map_err(|e| e.to_string())?;
        *self = next;
        Ok(())
    }
}
