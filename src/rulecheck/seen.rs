//! The values a condition's sides took in the games that did not end: a
//! few of those games are replayed (the same seeds and picks) with the
//! engine showing the state before every node, and at each never-true
//! guard of an `end game` both sides of its comparison are evaluated in
//! the running frame. "`p.score >= target` was tested 19,200 times, never
//! true; values seen: `p.score` 0..42, `target` 50" then says how far the
//! game was from ending. Not in the hot loop: only after a run, on at most
//! [`REPLAYS`] games.

use super::playout::{Table, replay};
use crate::engine::State;
use crate::graph::{Node, fmt_expr};
use crate::hir::Expr;
use crate::syntax::ast::BinOp;

/// Games replayed to see the values.
pub const REPLAYS: usize = 3;

/// One side of a guard and the range of its values.
pub struct Side {
    pub text: String,
    pub range: Option<(i32, i32)>,
}

fn sides(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Bin(BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, a, b) => {
            // a literal says nothing the condition does not
            [a, b]
                .into_iter()
                .filter(|x| !matches!(x.as_ref(), Expr::Int(_)))
                .map(|x| x.as_ref())
                .collect()
        }
        _ => vec![e],
    }
}

fn strip(text: String) -> String {
    match text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        Some(t) => t.to_string(),
        None => text,
    }
}

/// For each guard (phase, node), the values of its sides in games `games`
/// of the run seeded `run_seed` at table `t`.
pub fn values(t: &Table, run_seed: u64, games: &[u64], guards: &[(u16, u32)]) -> Vec<Vec<Side>> {
    let g = t.game.graph();
    let exprs: Vec<Option<(&[String], Vec<&Expr>)>> = guards
        .iter()
        .map(|(p, n)| {
            let ph = g.phases.get(*p as usize)?;
            match ph.nodes.get(*n as usize)? {
                Node::JumpIfNot(e, _) => Some((ph.local_names.as_slice(), sides(e))),
                _ => None,
            }
        })
        .collect();
    let mut out: Vec<Vec<Side>> = exprs
        .iter()
        .map(|x| match x {
            Some((locals, es)) => es
                .iter()
                .map(|e| Side {
                    text: strip(fmt_expr(&g.tables, locals, e)),
                    range: None,
                })
                .collect(),
            None => Vec::new(),
        })
        .collect();
    for &index in games.iter().take(REPLAYS) {
        let picks = replay(t, run_seed, index);
        let seed = crate::sim::game_seed(run_seed, index);
        let Ok(mut state) = State::new(t.game, t.players, seed, t.options) else {
            continue;
        };
        let mut look = |st: &State, p: u16, n: u32| {
            for (k, at) in guards.iter().enumerate() {
                if *at != (p, n) {
                    continue;
                }
                let Some((_, es)) = &exprs[k] else { continue };
                for (side, e) in out[k].iter_mut().zip(es) {
                    if let Ok(v) = st.eval_in_frame(t.game, e) {
                        side.range = Some(match side.range {
                            Some((lo, hi)) => (lo.min(v), hi.max(v)),
                            None => (v, v),
                        });
                    }
                }
            }
        };
        for pick in picks {
            if state.is_over() {
                break;
            }
            let legal = state.legal_actions(t.game);
            let Some(&action) = legal.get((pick as usize).min(legal.len().saturating_sub(1)))
            else {
                break;
            };
            if state.apply_looking(t.game, action, &mut look).is_err() {
                break;
            }
        }
    }
    out
}

/// "values seen: `p.score` 0..42, `target` 50" (constants left out when
/// another side varied), or nothing when no value was seen.
pub fn describe(sides: &[Side]) -> Option<String> {
    let seen: Vec<String> = sides
        .iter()
        .filter_map(|s| {
            let (lo, hi) = s.range?;
            Some(if lo == hi {
                format!("`{}` {lo}", s.text)
            } else {
                format!("`{}` {lo}..{hi}", s.text)
            })
        })
        .collect();
    (!seen.is_empty()).then(|| format!("values seen: {}", seen.join(", ")))
}
