//! Stage 3, HIR -> action graph. Each phase becomes a flat list of nodes
//! (effects, choices, branches, loops, calls and returns, reaction windows,
//! the end) joined by jumps; the span of each node sits beside it so that
//! `explain` and `trace` can point back at the rules file. The graph is
//! serde-serializable and printable as DOT and RON (`print.rs`).

mod overview;
mod print;

pub use overview::overview;
pub use print::{describe, fmt_expr, to_dot, to_ron};

/// The index of the phase (or turn, or reaction) named `name`; `start` is 0.
pub fn phase_named(g: &Graph, name: &str) -> Option<u16> {
    g.phases
        .iter()
        .position(|p| p.name == name)
        .map(|i| i as u16)
}

use crate::diag::Span;
use crate::hir::{self, Bind, Expr, Hir, LabelPart, Place, ProcKind, StmtKind, Tables, Ty};
use crate::syntax::ast::AssignOp;
use serde::{Deserialize, Serialize};

/// Index of a node within its phase.
pub type NodeId = u32;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Arm {
    pub label: Vec<LabelPart>,
    pub bind: Option<Bind>,
    /// A second source (slot, collection): the arm offers one action per
    /// pair of values, its value packed by [`pack_pair`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub also: Option<(u16, Expr)>,
    pub guard: Option<Expr>,
    pub target: NodeId,
}

/// The action value of a two-source arm: both values (each in
/// `0..=65535`: cards, players, cells, enum values, small numbers) in one
/// `i32`, the first in the low half. `None` when one does not fit.
pub fn pack_pair(first: i32, second: i32) -> Option<i32> {
    let a = u16::try_from(first).ok()?;
    let b = u16::try_from(second).ok()?;
    Some((u32::from(a) | (u32::from(b) << 16)) as i32)
}

/// The two values [`pack_pair`] packed.
pub fn unpack_pair(value: i32) -> (i32, i32) {
    let v = value as u32;
    ((v & 0xffff) as i32, (v >> 16) as i32)
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Node {
    Assign(Place, AssignOp, Expr),
    Jump(NodeId),
    /// Jump when the condition is false.
    JumpIfNot(Expr, NodeId),
    /// Snapshot a collection for a loop; `iter` is the hidden local that
    /// remembers where the snapshot lives.
    ForStart {
        coll: Expr,
        iter: u16,
    },
    /// Bind the next element that passes the filter, or drop the snapshot
    /// and jump to `exit`.
    ForNext {
        slot: u16,
        iter: u16,
        filter: Option<Expr>,
        exit: NodeId,
    },
    /// Leave a loop early (`break`), dropping its snapshot if it has one.
    Exit {
        iter: Option<u16>,
        target: NodeId,
    },
    /// A decision. In a window, `pass` is where passing goes.
    Choose {
        who: Expr,
        arms: Vec<Arm>,
        otherwise: Option<NodeId>,
        pass: Option<NodeId>,
    },
    Move {
        what: Expr,
        to: Expr,
        bottom: bool,
    },
    MoveAll {
        from: Expr,
        to: Expr,
        bottom: bool,
    },
    Deal(Expr, Expr, Expr),
    Shuffle(Expr),
    Swap(Expr, Expr),
    Peek(Expr, Expr),
    Reveal(Expr),
    EndGame,
    Leave(u16),
    Return,
    /// Push a copy of the table; dropped when the phase returns.
    Checkpoint,
    /// Restore and drop the latest checkpoint of this phase (nothing if none).
    Rollback,
    Call(u16, Vec<Expr>),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Phase {
    pub name: String,
    pub kind: ProcKind,
    pub params: u16,
    pub locals: u16,
    pub local_names: Vec<String>,
    /// The type of each local (hidden loop slots are `Int`), for the trace.
    #[serde(default)]
    pub local_types: Vec<Ty>,
    pub trigger: Option<u16>,
    pub nodes: Vec<Node>,
    /// `spans[i]` is where `nodes[i]` came from.
    pub spans: Vec<Span>,
    pub span: Span,
}

/// The compiled game: tables plus one node list per phase (phase 0 is `start`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Graph {
    pub tables: Tables,
    pub phases: Vec<Phase>,
    /// For each zone, the reactions that open when a card enters it.
    pub triggers: Vec<Vec<u16>>,
    /// Which variables the engine keeps in byte slots, one flag a
    /// variable: filled when the engine makes its program from the graph
    /// (`engine/width.rs`), empty before; not printed nor saved (derived).
    #[serde(skip)]
    pub byte_vars: Vec<bool>,
}

struct Lower {
    nodes: Vec<Node>,
    spans: Vec<Span>,
    locals: u16,
    /// Innermost loop: (hidden iterator local if any, index of its `Exit` placeholders).
    loops: Vec<(Option<u16>, Vec<usize>)>,
}

/// Lower checked phases into the action graph.
pub fn build(hir: &Hir) -> Graph {
    let mut phases = Vec::new();
    for p in &hir.procs {
        let mut l = Lower {
            nodes: Vec::new(),
            spans: Vec::new(),
            locals: p.locals,
            loops: Vec::new(),
        };
        l.block(&p.body);
        let end = if p.kind == ProcKind::Start {
            Node::EndGame
        } else {
            Node::Return
        };
        l.push(end, p.span);
        let mut local_names = p.local_names.clone();
        local_names.resize(l.locals as usize, "(loop)".into());
        let mut local_types = p.local_types.clone();
        local_types.resize(l.locals as usize, Ty::Int);
        phases.push(Phase {
            name: p.name.clone(),
            kind: p.kind,
            params: p.params.len() as u16,
            locals: l.locals,
            local_names,
            local_types,
            trigger: p.trigger,
            nodes: l.nodes,
            spans: l.spans,
            span: p.span,
        });
    }
    let mut triggers = vec![Vec::new(); hir.tables.zones.len()];
    for (i, p) in phases.iter().enumerate() {
        if let Some(z) = p.trigger {
            triggers[z as usize].push(i as u16);
        }
    }
    Graph {
        tables: hir.tables.clone(),
        phases,
        triggers,
        byte_vars: Vec::new(),
    }
}

impl Graph {
    /// Whether variable `v` lives in the engine's byte slots (see
    /// `byte_vars`).
    #[inline]
    pub fn in_bytes(&self, v: usize) -> bool {
        self.byte_vars.get(v).copied().unwrap_or(false)
    }
}

impl Lower {
    fn push(&mut self, n: Node, span: Span) -> usize {
        self.nodes.push(n);
        self.spans.push(span);
        self.nodes.len() - 1
    }
    fn here(&self) -> NodeId {
        self.nodes.len() as NodeId
    }
    fn patch(&mut self, at: usize, target: NodeId) {
        match &mut self.nodes[at] {
            Node::Jump(t) | Node::JumpIfNot(_, t) => *t = target,
            Node::ForNext { exit, .. } => *exit = target,
            Node::Exit { target: t, .. } => *t = target,
            _ => unreachable!("patching a node without a target"),
        }
    }
    fn hidden(&mut self) -> u16 {
        self.locals += 1;
        self.locals - 1
    }

    fn block(&mut self, stmts: &[hir::Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    /// `ForStart; L: ForNext -> exit; body; Jump L; exit:`
    fn for_loop(&mut self, bind: &Bind, span: Span, body: impl FnOnce(&mut Lower)) {
        let iter = self.hidden();
        self.push(
            Node::ForStart {
                coll: bind.coll.clone(),
                iter,
            },
            span,
        );
        let head = self.push(
            Node::ForNext {
                slot: bind.slot,
                iter,
                filter: bind.filter.clone(),
                exit: 0,
            },
            span,
        );
        self.loops.push((Some(iter), Vec::new()));
        body(self);
        self.push(Node::Jump(head as NodeId), span);
        let exit = self.here();
        self.patch(head, exit);
        self.close_loop(exit);
    }

    fn close_loop(&mut self, exit: NodeId) {
        let (_, breaks) = self.loops.pop().expect("loop");
        for b in breaks {
            self.patch(b, exit);
        }
    }

    fn arms(
        &mut self,
        arms: &[hir::Arm],
        span: Span,
        after: &mut Vec<usize>,
        window_iter: Option<u16>,
    ) -> Vec<Arm> {
        let mut out = Vec::new();
        for a in arms {
            out.push(Arm {
                label: a.label.clone(),
                bind: a.bind.clone(),
                also: a.also.clone(),
                guard: a.guard.clone(),
                target: self.here(),
            });
            self.block(&a.body);
            let j = match window_iter {
                Some(iter) => self.push(
                    Node::Exit {
                        iter: Some(iter),
                        target: 0,
                    },
                    a.span,
                ),
                None => self.push(Node::Jump(0), a.span),
            };
            after.push(j);
            let _ = span;
        }
        out
    }

    fn stmt(&mut self, s: &hir::Stmt) {
        let span = s.span;
        match &s.kind {
            StmtKind::If(c, t, e) => self.if_else(c, t, e, span),
            StmtKind::Loop(b) => self.loop_(None, b, span),
            StmtKind::While(c, b) => self.loop_(Some(c), b, span),
            StmtKind::For(bind, body) => self.for_loop(bind, span, |l| l.block(body)),
            StmtKind::Choose {
                who,
                arms,
                otherwise,
            } => self.choose(who, arms, otherwise.as_deref(), span),
            StmtKind::Window {
                slot,
                from,
                filter,
                arms,
            } => self.window(*slot, from, filter.as_ref(), arms, span),
            StmtKind::Break => self.break_(span),
            other => {
                let node = plain(other).expect("every other statement is one node");
                self.push(node, span);
            }
        }
    }

    /// `if`: a test that jumps past the `then` block (to the `else`, if any).
    fn if_else(&mut self, c: &Expr, t: &[hir::Stmt], e: &[hir::Stmt], span: Span) {
        let test = self.push(Node::JumpIfNot(c.clone(), 0), span);
        self.block(t);
        if e.is_empty() {
            let end = self.here();
            self.patch(test, end);
        } else {
            let skip = self.push(Node::Jump(0), span);
            let els = self.here();
            self.patch(test, els);
            self.block(e);
            let end = self.here();
            self.patch(skip, end);
        }
    }

    /// `loop` (no condition) or `while`: the body, then a jump back.
    fn loop_(&mut self, cond: Option<&Expr>, b: &[hir::Stmt], span: Span) {
        let head = self.here();
        let test = cond.map(|c| self.push(Node::JumpIfNot(c.clone(), 0), span));
        self.loops.push((None, Vec::new()));
        self.block(b);
        self.push(Node::Jump(head), span);
        let exit = self.here();
        if let Some(test) = test {
            self.patch(test, exit);
        }
        self.close_loop(exit);
    }

    /// `choose`: a Choose node whose arms jump to their bodies, then to the end.
    fn choose(
        &mut self,
        who: &Expr,
        arms: &[hir::Arm],
        otherwise: Option<&[hir::Stmt]>,
        span: Span,
    ) {
        let at = self.push(
            Node::Choose {
                who: who.clone(),
                arms: Vec::new(),
                otherwise: None,
                pass: None,
            },
            span,
        );
        let mut after = Vec::new();
        let lowered = self.arms(arms, span, &mut after, None);
        let other = otherwise.map(|b| {
            let t = self.here();
            self.block(b);
            t
        });
        let end = self.here();
        for j in after {
            self.patch(j, end);
        }
        if let Node::Choose {
            arms, otherwise, ..
        } = &mut self.nodes[at]
        {
            *arms = lowered;
            *otherwise = other;
        }
    }

    /// `window`: a `for` over `order(from)` holding a Choose whose `pass`
    /// (and `otherwise`) goes back to the loop head.
    fn window(
        &mut self,
        slot: u16,
        from: &Expr,
        filter: Option<&Expr>,
        arms: &[hir::Arm],
        span: Span,
    ) {
        let bind = Bind {
            slot,
            coll: Expr::Call(hir::Builtin::Order, vec![from.clone()]),
            filter: filter.cloned(),
        };
        self.for_loop(&bind, span, |l| {
            let head = l.here() - 1;
            let at = l.push(
                Node::Choose {
                    who: Expr::Local(slot),
                    arms: Vec::new(),
                    otherwise: None,
                    pass: Some(head),
                },
                span,
            );
            let iter = l.loops.last().and_then(|x| x.0);
            let mut after = Vec::new();
            let lowered = l.arms(arms, span, &mut after, iter);
            // an arm taken closes the window: its Exit jumps past the loop
            l.loops.last_mut().expect("loop").1.extend(after);
            if let Node::Choose {
                arms, otherwise, ..
            } = &mut l.nodes[at]
            {
                *arms = lowered;
                // nobody able to act in this seat: treat as a pass
                *otherwise = Some(head);
            }
        });
    }

    /// `break`: an Exit patched to the innermost loop's end.
    fn break_(&mut self, span: Span) {
        let iter = self.loops.last().and_then(|l| l.0);
        let at = self.push(Node::Exit { iter, target: 0 }, span);
        match self.loops.last_mut() {
            Some(l) => l.1.push(at),
            // reported by the checker; make it a no-op
            None => self.nodes[at] = Node::Jump(at as NodeId + 1),
        }
    }
}

/// The one node a simple statement (an effect or a jump out) lowers to;
/// `None` for the structured statements, which `Lower::stmt` lowers.
fn plain(kind: &StmtKind) -> Option<Node> {
    Some(match kind {
        StmtKind::Assign(p, op, e) => Node::Assign(p.clone(), *op, e.clone()),
        StmtKind::Move { what, to, bottom } => Node::Move {
            what: what.clone(),
            to: to.clone(),
            bottom: *bottom,
        },
        StmtKind::MoveAll { from, to, bottom } => Node::MoveAll {
            from: from.clone(),
            to: to.clone(),
            bottom: *bottom,
        },
        StmtKind::Deal(n, f, t) => Node::Deal(n.clone(), f.clone(), t.clone()),
        StmtKind::Shuffle(z) => Node::Shuffle(z.clone()),
        StmtKind::Swap(a, b) => Node::Swap(a.clone(), b.clone()),
        StmtKind::Peek(p, c) => Node::Peek(p.clone(), c.clone()),
        StmtKind::Reveal(c) => Node::Reveal(c.clone()),
        StmtKind::EndGame => Node::EndGame,
        StmtKind::Leave(p) => Node::Leave(*p),
        StmtKind::Return => Node::Return,
        StmtKind::Checkpoint => Node::Checkpoint,
        StmtKind::Rollback => Node::Rollback,
        StmtKind::Call(p, args) => Node::Call(*p, args.clone()),
        _ => return None,
    })
}
