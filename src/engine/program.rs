//! The compiled game the engine runs: the action graph plus every
//! expression in it compiled once, at load, into closures (`compile.rs`).
//!
//! The graph is boxed and never changes afterwards, so each expression
//! keeps its address: the compiled code is found by that address in a
//! small open-addressed table (a multiply and a compare or two), and the
//! interpreter's call sites keep passing `&Expr`. An expression from
//! elsewhere (a REPL probe typed at run time) is compiled when it is
//! evaluated (a cold path). `Program` dereferences to the [`Graph`].

use super::compile::{Col, Val, value};
use super::compile_call::coll;
use crate::graph::{Graph, Node};
use crate::hir::{Expr, LabelPart};

pub struct Program {
    graph: Box<Graph>,
    /// The boards' precomputed lanes, shared with every table's layout.
    pub(crate) lanes: std::sync::Arc<super::lanes::Lanes>,
    vals: PtrMap<Val>,
    colls: PtrMap<Col>,
    /// Each phase compiled into flat ops, one per node (`ops.rs`).
    ops: Vec<Box<[super::ops::Op]>>,
    /// The decisions the `Op::Choose` ops point to (`choice.rs`).
    choices: Vec<super::ops::Choice>,
    /// The operands of the `Op::Call` ops' arguments.
    call_args: Vec<super::ops::Operand>,
}

impl std::ops::Deref for Program {
    type Target = Graph;
    fn deref(&self) -> &Graph {
        &self.graph
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("values", &self.vals.len())
            .field("collections", &self.colls.len())
            .finish()
    }
}

impl Program {
    /// Compile every expression of the graph: node operands, guards,
    /// bindings, labels, variable initial values, invariants and the
    /// `winners` rule.
    pub fn new(mut graph: Graph) -> Program {
        graph.byte_vars = super::width::byte_vars(&graph);
        let graph = Box::new(graph);
        let g: &Graph = &graph;
        let (mut vals, mut colls) = (Vec::new(), Vec::new());
        let mut val = |e: &Expr| vals.push((e as *const Expr as usize, value(g, e)));
        for ph in &g.phases {
            for node in &ph.nodes {
                node_values(node, &mut val);
            }
        }
        let t = &g.tables;
        t.vars.iter().for_each(|v| val(&v.init));
        t.invariants.iter().for_each(|(_, e)| val(e));
        t.winners_key.iter().for_each(&mut val);
        t.winners_filter.iter().for_each(&mut val);
        t.winners_tiebreak.iter().for_each(&mut val);
        for ph in &g.phases {
            for node in &ph.nodes {
                match node {
                    Node::ForStart { coll: c, .. } => {
                        colls.push((c as *const Expr as usize, coll(g, c)));
                    }
                    Node::Choose { arms, .. } => {
                        for b in arms.iter().filter_map(|a| a.bind.as_ref()) {
                            colls.push((&b.coll as *const Expr as usize, coll(g, &b.coll)));
                        }
                        for (_, e) in arms.iter().filter_map(|a| a.also.as_ref()) {
                            colls.push((e as *const Expr as usize, coll(g, e)));
                        }
                    }
                    _ => {}
                }
            }
        }
        let vals = PtrMap::new(vals);
        let colls = PtrMap::new(colls);
        let compiled = super::ops::phases(
            g,
            |e| vals.index(e as *const Expr as usize),
            |e| colls.index(e as *const Expr as usize),
        );
        Program {
            lanes: std::sync::Arc::new(super::lanes::Lanes::of(&g.tables.boards)),
            vals,
            colls,
            ops: compiled.ops,
            choices: compiled.choices,
            call_args: compiled.args,
            graph,
        }
    }

    /// The compiled code of an expression of this graph, if it is one.
    #[inline]
    pub(crate) fn value(&self, e: &Expr) -> Option<&Val> {
        self.vals.get(e as *const Expr as usize)
    }

    /// The compiled code at an index given by `ops.rs`.
    #[inline]
    pub(crate) fn code(&self, i: u32) -> &Val {
        &self.vals.items[i as usize]
    }

    /// A phase's ops, one per node.
    #[inline]
    pub(crate) fn ops(&self, phase: u16) -> &[super::ops::Op] {
        &self.ops[phase as usize]
    }

    /// The compiled collection at an index given by `ops.rs`.
    #[inline]
    pub(crate) fn coll_code(&self, i: u32) -> &Col {
        &self.colls.items[i as usize]
    }

    /// The operands of a call's `n` arguments, from the index in an `Op::Call`.
    #[inline]
    pub(crate) fn call_args(&self, at: u32, n: u8) -> &[super::ops::Operand] {
        &self.call_args[at as usize..at as usize + n as usize]
    }

    /// The compiled choice at an index given by an `Op::Choose`.
    #[inline]
    pub(crate) fn choice(&self, i: u32) -> &super::ops::Choice {
        &self.choices[i as usize]
    }

    /// The compiled choice of the node at `pc` in `phase`, if it is one.
    #[inline]
    pub(crate) fn choice_at(&self, phase: u16, pc: u32) -> Option<&super::ops::Choice> {
        match self.ops[phase as usize].get(pc as usize) {
            Some(super::ops::Op::Choose(i)) => Some(self.choice(*i)),
            _ => None,
        }
    }

    /// The compiled collection of a `for` or a choice binding of this graph.
    #[inline]
    pub(crate) fn coll(&self, e: &Expr) -> Option<&Col> {
        self.colls.get(e as *const Expr as usize)
    }
}

/// Every expression a node evaluates as a value.
fn node_values(node: &Node, f: &mut impl FnMut(&Expr)) {
    use crate::hir::Place;
    let place = |p: &Place, f: &mut dyn FnMut(&Expr)| {
        if let Place::PerPlayer(_, e) | Place::PerCard(_, e) = p {
            f(e)
        }
    };
    match node {
        Node::Assign(p, _, e) => {
            f(e);
            place(p, f);
        }
        Node::JumpIfNot(e, _) | Node::Shuffle(e) | Node::Reveal(e) => f(e),
        Node::ForStart { .. } => {}
        Node::ForNext { filter, .. } => filter.iter().for_each(f),
        Node::Choose { who, arms, .. } => {
            f(who);
            for a in arms {
                a.guard.iter().for_each(&mut *f);
                if let Some(b) = &a.bind {
                    b.filter.iter().for_each(&mut *f);
                }
                for part in &a.label {
                    if let LabelPart::Expr(e, _) = part {
                        f(e);
                    }
                }
            }
        }
        Node::Move { what: a, to: b, .. }
        | Node::MoveAll { from: a, to: b, .. }
        | Node::Swap(a, b)
        | Node::Peek(a, b) => {
            f(a);
            f(b);
        }
        Node::Deal(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        Node::Call(_, args) => args.iter().for_each(f),
        Node::Jump(_)
        | Node::Exit { .. }
        | Node::EndGame
        | Node::Leave(_)
        | Node::Return
        | Node::Checkpoint
        | Node::Rollback => {}
    }
}

/// A map from an address to a value: open addressing, a power-of-two table
/// at most half full, Fibonacci hashing. Built once; lookups only.
struct PtrMap<T> {
    keys: Vec<usize>,
    slots: Vec<u32>,
    items: Vec<T>,
    shift: u32,
}

impl<T> PtrMap<T> {
    fn new(entries: Vec<(usize, T)>) -> PtrMap<T> {
        let size = (entries.len() * 2).next_power_of_two().max(2);
        let shift = usize::BITS - size.trailing_zeros();
        let mut map = PtrMap {
            keys: vec![0; size],
            slots: vec![0; size],
            items: Vec::with_capacity(entries.len()),
            shift,
        };
        for (k, item) in entries {
            let mut i = map.home(k);
            while map.keys[i] != 0 && map.keys[i] != k {
                i = (i + 1) & (size - 1);
            }
            if map.keys[i] == k {
                continue; // the same expression reached twice
            }
            map.keys[i] = k;
            map.slots[i] = map.items.len() as u32;
            map.items.push(item);
        }
        map
    }

    #[inline]
    fn home(&self, k: usize) -> usize {
        (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as usize >> self.shift
    }

    #[inline]
    fn get(&self, k: usize) -> Option<&T> {
        self.index(k).map(|i| &self.items[i as usize])
    }

    /// Where the item of a key is in `items`.
    #[inline]
    fn index(&self, k: usize) -> Option<u32> {
        let mask = self.keys.len() - 1;
        let mut i = self.home(k);
        loop {
            let key = self.keys[i];
            if key == k {
                return Some(self.slots[i]);
            }
            if key == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    fn len(&self) -> usize {
        self.items.len()
    }
}
