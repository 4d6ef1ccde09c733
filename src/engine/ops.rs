//! The flat ops a phase is compiled into at load, and their compilation.
//!
//! Each phase's nodes get one [`Op`] each, at the same index, so a program
//! counter, a step count and a fault's location are the node's as before.
//! The nodes that make up most of a run between two decisions (jumps,
//! conditional jumps, assignments to a local, a global, a player's or a
//! card's variable, the start of a loop and its next element, leaving a
//! loop, a card moved, exchanged, shown to a player or revealed, every
//! card of a zone moved, cards dealt, a zone shuffled, a call with up to
//! 16 arguments, a return, a decision) are
//! ops of their own whose operands are resolved at load: a constant, a
//! local, a global, the current player or actor is read in place; any
//! other expression is the index of its compiled code in the [`Program`](super::program::Program)
//! (no lookup by address at run time). Every other node is [`Op::Node`]:
//! the run loop (`compile_phase.rs`) hands it to the node interpreter
//! (`exec.rs`).
//!
//! A `choose` node is compiled here too, into a [`Choice`] that its
//! `Op::Choose` points to: the chooser, each arm's guard and filter as
//! operands, each arm's collection by index (`choice.rs` lists its legal
//! actions).

use crate::check::hir::Place;
use crate::graph::{Arm, Graph, Node};
use crate::hir::Expr;
use crate::syntax::ast::AssignOp;

/// Most arguments a call may pass (more is a fault).
pub(crate) const MAX_CALL_ARGS: usize = 16;

/// An operand resolved at load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    /// A constant (folded at load).
    K(i32),
    /// A local of the running phase.
    L(u16),
    /// A global variable.
    G(u32),
    /// The current player.
    Current,
    /// The player who took the last decision.
    Actor,
    /// Compiled code: its index in the program.
    Code(u32),
}

/// One node, compiled.
/// The slots an [`Op::SetVar`] writes, resolved at load: a player's
/// variable, a card's, or a card's in the byte slots (`width.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Indexed {
    Player,
    Card,
    CardByte,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Jump(u32),
    /// Jump to the target when the condition is false.
    JumpIfNot(Operand, u32),
    /// `local op= value`.
    SetLocal(u16, AssignOp, Operand),
    /// `global op= value`.
    SetGlobal(u32, AssignOp, Operand),
    /// The next element of a loop's snapshot (see `Node::ForNext`).
    ForNext {
        slot: u16,
        iter: u16,
        filter: Option<Operand>,
        exit: u32,
    },
    /// Leave a loop, dropping its snapshot if it has one.
    Exit(Option<u16>, u32),
    /// Move a card to the top (or bottom) of a zone instance.
    Move(Operand, Operand, bool),
    /// Show a card to every player.
    Reveal(Operand),
    /// Call a phase with `n` arguments (at most [`MAX_CALL_ARGS`]; more:
    /// `Op::Node`), their operands `n` in a row from an index into the
    /// program's call arguments.
    Call(u16, u8, u32),
    /// Return from the running phase.
    Return,
    /// A decision: the index of its compiled choice (`choice.rs`).
    Choose(u32),
    /// Snapshot a collection (its index in the program) for a loop.
    ForStart(u32, u16),
    /// Exchange two cards.
    Swap(Operand, Operand),
    /// Move every card of a zone instance to another (top, or bottom).
    MoveAll(Operand, Operand, bool),
    /// Deal: the number, the source and the target, three operands in a
    /// row from an index into the program's call arguments.
    Deal(u32),
    /// Shuffle a zone instance.
    Shuffle(Operand),
    /// Show a card (the second operand) to a player (the first).
    Peek(Operand, Operand),
    /// `var[at] op= value`: a player's variable, or a card's (in its
    /// `i32` or its byte slots, as `slots` says).
    SetVar {
        var: u32,
        op: AssignOp,
        slots: Indexed,
        at: Operand,
        value: Operand,
    },
    /// Any other node: interpreted node by node.
    Node,
}

/// The phases compiled: one op per node, the choices the `Op::Choose` ops
/// point to, and the operands of the calls' arguments.
pub(crate) struct Compiled {
    pub ops: Vec<Box<[Op]>>,
    pub choices: Vec<Choice>,
    pub args: Vec<Operand>,
}

/// Compile every phase of the graph. `code` gives the index of an
/// expression's compiled code, `coll` that of a collection, if it has one.
pub(crate) fn phases(
    g: &Graph,
    code: impl Fn(&Expr) -> Option<u32>,
    coll: impl Fn(&Expr) -> Option<u32>,
) -> Compiled {
    let operand = |e: &Expr| -> Option<Operand> {
        if let Some(k) = super::compile::konst(&g.tables, e) {
            return Some(Operand::K(k));
        }
        Some(match e {
            Expr::Local(l) => Operand::L(*l),
            Expr::Global(v) => Operand::G(u32::from(*v)),
            Expr::Current => Operand::Current,
            Expr::Actor => Operand::Actor,
            _ => Operand::Code(code(e)?),
        })
    };
    let mut choices = Vec::new();
    let mut call_args = Vec::new();
    let mut op = |n: &Node| -> Option<Op> {
        Some(match n {
            Node::Jump(t) => Op::Jump(*t),
            Node::JumpIfNot(c, t) => Op::JumpIfNot(operand(c)?, *t),
            Node::Assign(Place::Local(s), o, e) => Op::SetLocal(*s, *o, operand(e)?),
            Node::Assign(Place::Global(v), o, e) => Op::SetGlobal(u32::from(*v), *o, operand(e)?),
            Node::ForNext {
                slot,
                iter,
                filter,
                exit,
            } => Op::ForNext {
                slot: *slot,
                iter: *iter,
                filter: match filter {
                    Some(f) => Some(operand(f)?),
                    None => None,
                },
                exit: *exit,
            },
            Node::Exit { iter, target } => Op::Exit(*iter, *target),
            Node::Move { what, to, bottom } => Op::Move(operand(what)?, operand(to)?, *bottom),
            Node::Reveal(c) => Op::Reveal(operand(c)?),
            Node::Call(p, args) if args.len() <= MAX_CALL_ARGS => {
                let a = args.iter().map(&operand).collect::<Option<Vec<_>>>()?;
                call_args.extend(a);
                Op::Call(*p, args.len() as u8, (call_args.len() - args.len()) as u32)
            }
            Node::Return => Op::Return,
            Node::Choose {
                who,
                arms,
                otherwise,
                pass,
            } => {
                let c = compile_choice(who, arms, *otherwise, pass.is_some(), &operand, &coll)?;
                choices.push(c);
                Op::Choose((choices.len() - 1) as u32)
            }
            Node::ForStart { coll: c, iter } => Op::ForStart(coll(c)?, *iter),
            Node::Swap(a, b) => Op::Swap(operand(a)?, operand(b)?),
            Node::MoveAll { from, to, bottom } => {
                Op::MoveAll(operand(from)?, operand(to)?, *bottom)
            }
            Node::Deal(n, from, to) => {
                let a = [operand(n)?, operand(from)?, operand(to)?];
                call_args.extend(a);
                Op::Deal((call_args.len() - 3) as u32)
            }
            Node::Shuffle(z) => Op::Shuffle(operand(z)?),
            Node::Peek(p, c) => Op::Peek(operand(p)?, operand(c)?),
            Node::Assign(Place::PerPlayer(var, at), o, e)
            | Node::Assign(Place::PerCard(var, at), o, e) => Op::SetVar {
                var: u32::from(*var),
                op: *o,
                slots: match n {
                    Node::Assign(Place::PerCard(..), ..) if g.in_bytes(usize::from(*var)) => {
                        Indexed::CardByte
                    }
                    Node::Assign(Place::PerCard(..), ..) => Indexed::Card,
                    _ => Indexed::Player,
                },
                at: operand(at)?,
                value: operand(e)?,
            },
            _ => return None,
        })
    };
    let ops = g
        .phases
        .iter()
        .map(|ph| ph.nodes.iter().map(|n| op(n).unwrap_or(Op::Node)).collect())
        .collect();
    Compiled {
        ops,
        choices,
        args: call_args,
    }
}

/// One `choose` node, compiled.
#[derive(Debug)]
pub(crate) struct Choice {
    /// Who decides.
    pub(super) who: Operand,
    pub(super) arms: Box<[ChoiceArm]>,
    /// Where the game goes when nothing can be chosen.
    pub(super) otherwise: Option<u32>,
    /// Whether passing is possible (a reaction window).
    pub(super) pass: bool,
}

#[derive(Debug)]
pub(super) struct ChoiceArm {
    pub(super) guard: Option<Operand>,
    pub(super) bind: Option<ArmBind>,
}

/// An arm's source: the slot it binds, its collection's index in the
/// program, its filter, and a second source (slot, collection).
#[derive(Debug)]
pub(super) struct ArmBind {
    pub(super) slot: u16,
    pub(super) coll: u32,
    pub(super) filter: Option<Operand>,
    pub(super) also: Option<(u16, u32)>,
}

/// Compile a `choose` node: `operand` resolves a value, `coll` gives a
/// collection's index. `None` if one of them has no compiled code.
pub(crate) fn compile_choice(
    who: &Expr,
    arms: &[Arm],
    otherwise: Option<u32>,
    pass: bool,
    operand: &impl Fn(&Expr) -> Option<Operand>,
    coll: &impl Fn(&Expr) -> Option<u32>,
) -> Option<Choice> {
    let opt = |e: &Option<Expr>| -> Option<Option<Operand>> {
        match e {
            Some(e) => Some(Some(operand(e)?)),
            None => Some(None),
        }
    };
    let mut out = Vec::with_capacity(arms.len());
    for a in arms {
        let bind = match &a.bind {
            None => None,
            Some(b) => Some(ArmBind {
                slot: b.slot,
                coll: coll(&b.coll)?,
                filter: opt(&b.filter)?,
                also: match &a.also {
                    Some((slot, e)) => Some((*slot, coll(e)?)),
                    None => None,
                },
            }),
        };
        out.push(ChoiceArm {
            guard: opt(&a.guard)?,
            bind,
        });
    }
    Some(Choice {
        who: operand(who)?,
        arms: out.into(),
        otherwise,
        pass,
    })
}

impl Choice {
    /// Whether passing is possible (a reaction window).
    pub(crate) fn can_pass(&self) -> bool {
        self.pass
    }
}
