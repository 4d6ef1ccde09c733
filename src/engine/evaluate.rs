//! The rules' `evaluate` heuristic: a value for each player of a position
//! that has not ended (higher is better for that player), which search
//! agents read where a capped rollout stops. Games that declare none fall
//! back on their `winners` key.

use super::eval::Ev;
use super::{Game, State};

impl State {
    /// Whether the rules declare `evaluate`.
    pub fn has_evaluation(game: &Game) -> bool {
        game.graph().tables.evaluate.is_some()
    }

    /// The `evaluate` value of each player into `out` (cleared first).
    /// False, with `out` empty, when the rules declare no `evaluate` or
    /// it faults here (a fault scores nothing rather than stopping a search).
    pub fn evaluate_into(&self, game: &Game, out: &mut Vec<i32>) -> bool {
        out.clear();
        let g = game.graph();
        let Some(e) = &g.tables.evaluate else {
            return false;
        };
        let mut buf = [0i32; 64];
        let n = usize::from(g.tables.evaluate_locals).max(16);
        let mut heap;
        let locals: &mut [i32] = if n <= buf.len() {
            &mut buf[..n]
        } else {
            heap = vec![0i32; n];
            &mut heap[..]
        };
        for p in 0..self.players() {
            locals.fill(0);
            locals[0] = p as i32;
            let v = Ev {
                g,
                c: &self.core,
                locals: &mut *locals,
                rng: None,
            }
            .eval(e);
            match v {
                Ok(v) => out.push(v),
                Err(_) => {
                    out.clear();
                    return false;
                }
            }
        }
        true
    }
}
