//! `trace`: the rules lines a move ran, drawn from the action-graph nodes
//! the engine reports. A leaf below the session (it needs only the game).

use crate::Game;
use crate::graph::Node;
use std::fmt::Write as _;

/// Most trace lines printed for one move.
const TRACE_LINES: usize = 200;

/// The rules lines a move ran, from the nodes it executed: `phase:line` and
/// the line's text; consecutive nodes on one line are shown once.
pub fn write_trace(game: &Game, visits: &[(u16, u32)], out: &mut String) {
    let g = game.graph();
    let text: Vec<&str> = game.source().text.lines().collect();
    let mut last: Option<(u16, usize)> = None;
    let mut shown = 0;
    let mut hidden = 0;
    for &(phase, node) in visits {
        let line = game.line_of(phase, node);
        if last == Some((phase, line)) {
            continue;
        }
        last = Some((phase, line));
        if shown == TRACE_LINES {
            hidden += 1;
            continue;
        }
        shown += 1;
        let p = &g.phases[phase as usize];
        let name = &p.name;
        let src = match p.nodes.get(node as usize) {
            Some(Node::Return) => "(returns)",
            _ => text.get(line.wrapping_sub(1)).map_or("", |t| t.trim()),
        };
        let src: String = if src.chars().count() > 72 {
            src.chars().take(69).chain("...".chars()).collect()
        } else {
            src.to_string()
        };
        let _ = writeln!(out, "  | {name}:{line}  {src}");
    }
    if hidden > 0 {
        let _ = writeln!(out, "  | ... {hidden} more lines");
    }
}
