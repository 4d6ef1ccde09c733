//! Control flow over the action graph, shared by the reachability lints:
//! the successors of a node, which nodes can run from their phase's entry,
//! which phases can run from `start` and the reactions, and a walk over the
//! HIR statements of a phase.

use crate::check::hir::{ProcKind, Stmt, StmtKind};
use crate::graph::{Graph, Node, NodeId};

/// The nodes control can go to after `node` (at index `at`) runs.
pub fn successors(node: &Node, at: usize, out: &mut Vec<usize>) {
    let next = at + 1;
    match node {
        Node::Jump(t) | Node::Exit { target: t, .. } => out.push(*t as usize),
        Node::JumpIfNot(_, t) | Node::ForNext { exit: t, .. } => {
            out.push(next);
            out.push(*t as usize);
        }
        Node::Choose {
            arms,
            otherwise,
            pass,
            ..
        } => {
            out.extend(arms.iter().map(|a| a.target as usize));
            out.extend(
                otherwise
                    .iter()
                    .chain(pass.iter())
                    .map(|t: &NodeId| *t as usize),
            );
        }
        Node::EndGame | Node::Leave(_) | Node::Return => {}
        Node::Assign(..)
        | Node::ForStart { .. }
        | Node::Move { .. }
        | Node::MoveAll { .. }
        | Node::Deal(..)
        | Node::Shuffle(_)
        | Node::Swap(..)
        | Node::Peek(..)
        | Node::Checkpoint
        | Node::Rollback
        | Node::Reveal(_)
        | Node::Call(..) => out.push(next),
    }
}

/// What can run: nodes reachable from their phase's entry by the graph's
/// edges, and phases reachable from `start` and the reactions by calls in
/// live nodes.
#[derive(Clone, Debug)]
pub struct Liveness {
    /// `nodes[phase][node]`
    pub nodes: Vec<Vec<bool>>,
    pub phases: Vec<bool>,
}

impl Liveness {
    pub fn of(g: &Graph) -> Liveness {
        let mut stack = Vec::new();
        let mut succ = Vec::new();
        let nodes: Vec<Vec<bool>> = g
            .phases
            .iter()
            .map(|ph| {
                let mut live = vec![false; ph.nodes.len()];
                stack.clear();
                stack.push(0usize);
                while let Some(i) = stack.pop() {
                    if i >= live.len() || std::mem::replace(&mut live[i], true) {
                        continue;
                    }
                    succ.clear();
                    successors(&ph.nodes[i], i, &mut succ);
                    stack.extend(succ.iter().filter(|&&s| s < live.len() && !live[s]));
                }
                live
            })
            .collect();
        let mut phases = vec![false; g.phases.len()];
        let mut todo: Vec<usize> = g
            .phases
            .iter()
            .enumerate()
            .filter(|(_, p)| matches!(p.kind, ProcKind::Start | ProcKind::Reaction))
            .map(|(i, _)| i)
            .collect();
        while let Some(p) = todo.pop() {
            if std::mem::replace(&mut phases[p], true) {
                continue;
            }
            for (n, live) in g.phases[p].nodes.iter().zip(&nodes[p]) {
                if let (Node::Call(q, _), true) = (n, live)
                    && !phases[*q as usize]
                {
                    todo.push(*q as usize);
                }
            }
        }
        Liveness { nodes, phases }
    }
}

/// The blocks directly inside a statement (branches, loop bodies, arms).
pub fn child_blocks(s: &Stmt) -> Vec<&[Stmt]> {
    match &s.kind {
        StmtKind::If(_, t, e) => vec![t, e],
        StmtKind::Loop(b) | StmtKind::While(_, b) | StmtKind::For(_, b) => vec![b],
        StmtKind::Choose {
            arms, otherwise, ..
        } => {
            let mut v: Vec<&[Stmt]> = arms.iter().map(|a| a.body.as_slice()).collect();
            v.extend(otherwise.as_deref());
            v
        }
        StmtKind::Window { arms, .. } => arms.iter().map(|a| a.body.as_slice()).collect(),
        _ => Vec::new(),
    }
}

/// Call `f` on every statement of a block, outer before inner.
pub fn walk(block: &[Stmt], f: &mut impl FnMut(&Stmt)) {
    for s in block {
        f(s);
        for b in child_blocks(s) {
            walk(b, f);
        }
    }
}
