//! Why games did not end: every `end game` of the rules with the condition
//! guarding it (the nearest `if` that jumps over it) and how often, in the
//! games played, the condition was tested and the game ended there; and
//! every loop's way out (`break`, `leave`) whose guard was tested but never
//! true, and every `while` whose condition was tested but never false, so
//! the loop never ended. A
//! `does-not-end` finding about games that ran out of decisions labels
//! these, so the designer sees "`max(score) >= target` tested 2,368 times,
//! never true" instead of a blame on `start`.

use crate::diag::Span;
use crate::engine::Game;
use crate::graph::{Node, fmt_expr};

/// One way out of the game.
pub struct Exit {
    /// The guarding condition's statement (or the `end game` itself).
    pub span: Span,
    pub label: String,
    /// Whether the game never ended here.
    pub never: bool,
    /// The guarding condition's node (phase, node), if there is one.
    pub guard: Option<(u16, u32)>,
    /// How often the guard was tested (or the exit reached, unguarded).
    pub tested: u64,
}

/// The exits of a game with their counts (`nodes` as summed over the
/// games, indexed by `node_base[phase] + node`).
pub fn exits(game: &Game, node_base: &[usize], nodes: &[u64]) -> Vec<Exit> {
    let g = game.graph();
    let mut out = Vec::new();
    for (p, ph) in g.phases.iter().enumerate() {
        let count = |n: usize| {
            node_base
                .get(p)
                .and_then(|b| nodes.get(b + n))
                .copied()
                .unwrap_or(0)
        };
        for (i, node) in ph.nodes.iter().enumerate() {
            if let Some(e) = while_never_false(g, ph, i, &count) {
                out.push(Exit {
                    guard: Some((p as u16, i as u32)),
                    ..e
                });
                continue;
            }
            // the implicit end of `start` (after an endless loop) is no exit
            let way_out = matches!(node, Node::Exit { .. } | Node::Leave(_));
            if !(way_out || matches!(node, Node::EndGame)) || ph.spans[i].start == ph.span.start {
                continue;
            }
            let ended = count(i);
            // a loop's way out (`break`, `leave`) counts when it was never
            // taken though its guard was tested
            if way_out && ended > 0 {
                continue;
            }
            // the innermost `if` whose false branch jumps over this node
            let guard = ph.nodes[..i]
                .iter()
                .enumerate()
                .rev()
                .find_map(|(j, n)| match n {
                    Node::JumpIfNot(e, to) if *to as usize > i => Some((j, e)),
                    _ => None,
                });
            let ended_text = if ended == 0 {
                "never true".to_string()
            } else {
                format!("true {} times", thousands(ended))
            };
            // (and the guard itself never true: its next node never ran)
            if way_out && guard.is_none_or(|(j, _)| count(j) == 0 || count(j + 1) > 0) {
                continue;
            }
            let at = guard.map(|(j, _)| (p as u16, j as u32));
            let tested = guard.map_or(ended, |(j, _)| count(j));
            let (span, label) = match guard {
                Some((j, e)) => {
                    let text = cond_text(g, ph, e);
                    let what = if way_out { " (the loop's way out)" } else { "" };
                    (
                        ph.spans[j],
                        format!(
                            "`{text}` was tested {} times, {ended_text}{what}",
                            thousands(count(j))
                        ),
                    )
                }
                None => (
                    ph.spans[i],
                    format!("the game ended here {} times", thousands(ended)),
                ),
            };
            out.push(Exit {
                span,
                label,
                never: ended == 0,
                guard: at,
                tested,
            });
        }
    }
    out
}

/// A `while` loop whose condition (node `i`) was tested but never false,
/// so the loop never ended by it: every test went into the body (node
/// `i + 1`, which nothing else jumps to). Its `guard` is set by the caller.
fn while_never_false(
    g: &crate::graph::Graph,
    ph: &crate::graph::Phase,
    i: usize,
    count: &dyn Fn(usize) -> u64,
) -> Option<Exit> {
    let Node::JumpIfNot(e, to) = &ph.nodes[i] else {
        return None;
    };
    // `while` is lowered as a test at the loop's head and a jump back to it
    let end = (*to as usize).checked_sub(1)?;
    if !matches!(ph.nodes.get(end), Some(Node::Jump(head)) if *head as usize == i) {
        return None;
    }
    let into = |n: &Node| match n {
        Node::Jump(t) | Node::JumpIfNot(_, t) => *t as usize == i + 1,
        _ => false,
    };
    let tested = count(i);
    if tested == 0 || count(i + 1) != tested || ph.nodes.iter().any(into) {
        return None;
    }
    let text = cond_text(g, ph, e);
    Some(Exit {
        span: ph.spans[i],
        label: format!(
            "`{text}` was tested {} times, never false (the `while` loop's way out)",
            thousands(tested)
        ),
        never: true,
        guard: None,
        tested,
    })
}

/// A condition as written, without the parentheses around it.
fn cond_text(g: &crate::graph::Graph, ph: &crate::graph::Phase, e: &crate::hir::Expr) -> String {
    let text = fmt_expr(&g.tables, &ph.local_names, e);
    match text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        Some(t) => t.to_string(),
        None => text,
    }
}

/// 2368 -> "2,368".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands() {
        assert_eq!(super::thousands(2368), "2,368");
        assert_eq!(super::thousands(42453000), "42,453,000");
        assert_eq!(super::thousands(7), "7");
    }
}
