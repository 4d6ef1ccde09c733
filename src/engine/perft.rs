//! Counting move paths (perft): how many sequences of whole turns of a given
//! depth start from a position. A turn may take several decisions (a move,
//! then a promotion choice); a path steps down one level each time a new
//! turn begins, so the counts match the published tables of games whose
//! turns are single moves. Also: applying a setup script (`arrange` and `put`
//! lines) to start from a given position.

use super::{Game, State};

/// Leaf paths of `depth` turns from `state` (1 when depth is 0).
pub fn perft(game: &Game, state: &State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    let mut actions = Vec::new();
    state.legal_actions_into(game, &mut actions);
    for a in actions {
        let mut next = state.clone();
        // At the last ply a decision reached in a new turn is a leaf: it is
        // counted without listing its actions.
        next.defer = depth == 1;
        if next.apply_unchecked(game, a).is_err() {
            continue;
        }
        if next.defer {
            if next.turns > state.turns || next.is_over() {
                total += 1;
                continue;
            }
            if next.resume(game).is_err() {
                continue;
            }
        }
        total += if next.turns > state.turns || next.is_over() {
            if next.is_over() && depth > 1 {
                0
            } else {
                perft(game, &next, depth - 1)
            }
        } else {
            // the same turn goes on (a follow-up decision): same depth
            perft(game, &next, depth)
        };
    }
    total
}

/// Perft split by first move: each first-level label with its count.
pub fn divide(game: &Game, state: &State, depth: u32) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for a in state.legal_actions(game) {
        let label = state.label(game, a);
        let mut next = state.clone();
        if next.apply_unchecked(game, a).is_err() {
            continue;
        }
        let n = if depth <= 1 {
            if next.turns > state.turns || next.is_over() {
                1
            } else {
                perft(game, &next, 1)
            }
        } else if next.turns > state.turns || next.is_over() {
            perft(game, &next, depth - 1)
        } else {
            perft(game, &next, depth)
        };
        out.push((label, n));
    }
    out
}

impl State {
    /// Run on from a decision that was reached without being listed.
    fn resume(&mut self, game: &Game) -> Result<(), super::EngineError> {
        self.defer = false;
        if self.waiting.take().is_some() {
            let g = game.graph();
            self.run_with(g, &mut |_, _| {})
                .map_err(|(f, at)| super::EngineError::Fault {
                    fault: f,
                    message: f.message().to_string(),
                    phase: g.phases[at.0 as usize].name.clone(),
                    node: at.1,
                    line: game.line_of(at.0, at.1),
                })?;
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
                ["arrange", zone, cards @ ..] => next.arrange(game, zone, cards),
                ["put", var, value] => next.set_var(game, var, value),
                _ => Err("expected `arrange ZONE CARD...` or `put VARIABLE VALUE`".to_string()),
            };
            r.map_err(|e| format!("line {}: {e}", i + 1))?;
        }
        next.relist(game).map_err(|e| e.to_string())?;
        *self = next;
        Ok(())
    }
}
