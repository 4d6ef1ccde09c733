//! Which cards may ever be in each zone (for `fixed.rs`): every card
//! starts in its deck's zone (a card `start` puts away for good is only
//! in the zone it is put in), and every `move`, `move all`, `deal` and
//! `swap` is a way from the zones its cards can come from to the zones
//! they go to; the cards flow along them to a fixpoint.
//!
//! Where a card comes from is read off its expression: `top(Z)`,
//! `bottom(Z)`, `Z[i]`, `first(c in Z ...)`, a loop's or choice's variable
//! over `Z`, a local assigned from one of those. Where it goes: a zone, a
//! board's cell (`cell`, `shift`, a cell of `moves`, `ray` or a region),
//! a local assigned one of those. Anything else (a variable, a phase's
//! parameter, `zone_of`) may be any card or any zone.
//!
//! Also the zones a statement touches and the zones any expression reads,
//! for the setup loops that put cards away for good (`fixed.rs`).

use crate::hir::{Builtin, Expr, Hir, Place, Stmt, StmtKind};
use crate::syntax::ast::AggKind;
use std::collections::BTreeSet;

/// Zones, or any zone (`None`).
type Zones = Option<BTreeSet<u16>>;

/// How deep a local's origin is followed.
const DEPTH: u32 = 8;

fn join(a: Zones, b: Zones) -> Zones {
    let (mut a, b) = (a?, b?);
    a.extend(b);
    Some(a)
}

/// What binds each local of every phase: an element of a collection, or a
/// value (every statement that assigns it); a parameter, the arguments of
/// every call.
struct Origins<'a> {
    hir: &'a Hir,
    /// Per phase, per local.
    elem: Vec<Vec<Vec<&'a Expr>>>,
    value: Vec<Vec<Vec<&'a Expr>>>,
    /// Per phase: its calls (the calling phase and the arguments).
    calls: Vec<Vec<(usize, &'a [Expr])>>,
}

impl<'a> Origins<'a> {
    fn of(hir: &'a Hir) -> Origins<'a> {
        let mut o = Origins {
            hir,
            elem: Vec::new(),
            value: Vec::new(),
            calls: vec![Vec::new(); hir.procs.len()],
        };
        for (pi, p) in hir.procs.iter().enumerate() {
            let n = p.locals as usize;
            let (mut elem, mut value) = (vec![Vec::new(); n], vec![Vec::new(); n]);
            let push = |v: &mut Vec<Vec<&'a Expr>>, l: u16, e: &'a Expr| {
                if let Some(v) = v.get_mut(l as usize) {
                    v.push(e);
                }
            };
            each(&p.body, &mut |s| match &s.kind {
                StmtKind::Assign(Place::Local(l), _, e) => push(&mut value, *l, e),
                StmtKind::For(b, _) => push(&mut elem, b.slot, &b.coll),
                StmtKind::Choose { arms, .. } | StmtKind::Window { arms, .. } => {
                    for a in arms {
                        if let Some(b) = &a.bind {
                            push(&mut elem, b.slot, &b.coll);
                        }
                        if let Some((slot, coll)) = &a.also {
                            push(&mut elem, *slot, coll);
                        }
                    }
                }
                StmtKind::Call(callee, args) => {
                    if let Some(c) = o.calls.get_mut(*callee as usize) {
                        c.push((pi, args.as_slice()));
                    }
                }
                _ => {}
            });
            o.elem.push(elem);
            o.value.push(value);
        }
        o
    }

    /// Every board's zone.
    fn boards(&self) -> Zones {
        Some(self.hir.tables.boards.iter().map(|b| b.zone).collect())
    }

    /// The binders of local `s` of phase `p`: elements, values, and the
    /// arguments of the calls (`None`: the engine binds it: anything).
    #[allow(clippy::type_complexity)]
    fn binders(
        &self,
        p: usize,
        s: u16,
    ) -> Option<(&[&'a Expr], &[&'a Expr], Vec<(usize, &'a Expr)>)> {
        let proc = self.hir.procs.get(p)?;
        let (e, v) = (
            self.elem.get(p)?.get(s as usize)?,
            self.value.get(p)?.get(s as usize)?,
        );
        let mut args = Vec::new();
        if (s as usize) < proc.params.len() {
            if proc.kind != crate::hir::ProcKind::Phase {
                return None;
            }
            for (caller, a) in self.calls.get(p)? {
                args.push((*caller, a.get(s as usize)?));
            }
        } else if e.is_empty() && v.is_empty() {
            return None;
        }
        Some((e.as_slice(), v.as_slice(), args))
    }

    /// The zones a card-valued expression's card can come from.
    fn source(&self, p: usize, e: &Expr, args: &[(u16, &Expr)], depth: u32) -> Zones {
        if depth > DEPTH {
            return None;
        }
        match e {
            Expr::Nothing => Some(BTreeSet::new()),
            Expr::Call(Builtin::Top | Builtin::Bottom, a) => {
                self.zones(p, a.first()?, args, depth + 1)
            }
            Expr::Index(z, _) => self.zones(p, z, args, depth + 1),
            Expr::Agg {
                kind: AggKind::First,
                coll,
                body: None,
                ..
            } => self.zones(p, coll, args, depth + 1),
            Expr::Cond(_, a, b) => join(
                self.source(p, a, args, depth + 1),
                self.source(p, b, args, depth + 1),
            ),
            Expr::Bind(binds, body) => {
                let mut inner = args.to_vec();
                inner.extend(binds.iter().map(|(s, x)| (*s, x)));
                self.source(p, body, &inner, depth + 1)
            }
            Expr::Local(s) => {
                if let Some((_, x)) = args.iter().rev().find(|(b, _)| b == s) {
                    return self.source(p, x, &[], depth + 1);
                }
                let (elems, values, calls) = self.binders(p, *s)?;
                let mut out = Some(BTreeSet::new());
                for c in elems {
                    out = join(out, self.zones(p, c, &[], depth + 1));
                }
                for v in values {
                    out = join(out, self.source(p, v, &[], depth + 1));
                }
                for (caller, a) in calls {
                    out = join(out, self.source(caller, a, &[], depth + 1));
                }
                out
            }
            _ => None,
        }
    }

    /// The zones a zone-valued (or collection) expression may name.
    fn zones(&self, p: usize, e: &Expr, args: &[(u16, &Expr)], depth: u32) -> Zones {
        if depth > DEPTH {
            return None;
        }
        match e {
            Expr::Nothing => Some(BTreeSet::new()),
            Expr::Zone(z, _) | Expr::ZoneAll(z) => Some(BTreeSet::from([*z])),
            Expr::Region(b, _) => Some(BTreeSet::from([self
                .hir
                .tables
                .boards
                .get(*b as usize)?
                .zone])),
            Expr::Call(Builtin::Cell | Builtin::Shift | Builtin::Moves | Builtin::Ray, _) => {
                self.boards()
            }
            Expr::Cond(_, a, b) => join(
                self.zones(p, a, args, depth + 1),
                self.zones(p, b, args, depth + 1),
            ),
            Expr::Bind(binds, body) => {
                let mut inner = args.to_vec();
                inner.extend(binds.iter().map(|(s, x)| (*s, x)));
                self.zones(p, body, &inner, depth + 1)
            }
            Expr::Local(s) => {
                if let Some((_, x)) = args.iter().rev().find(|(b, _)| b == s) {
                    return self.zones(p, x, &[], depth + 1);
                }
                let (elems, values, calls) = self.binders(p, *s)?;
                let mut out = Some(BTreeSet::new());
                for c in elems {
                    // an element of a collection of cells is a cell
                    out = join(out, self.cells(c));
                }
                for v in values {
                    out = join(out, self.zones(p, v, &[], depth + 1));
                }
                for (caller, a) in calls {
                    out = join(out, self.zones(caller, a, &[], depth + 1));
                }
                out
            }
            _ => None,
        }
    }

    /// The zones the elements of a collection of cells may be.
    fn cells(&self, coll: &Expr) -> Zones {
        match coll {
            Expr::Region(..) | Expr::Call(Builtin::Moves | Builtin::Ray, _) => self.boards(),
            Expr::ZoneAll(z) if self.hir.tables.zones.get(*z as usize)?.board.is_some() => {
                Some(BTreeSet::from([*z]))
            }
            _ => None,
        }
    }
}

/// Call `f` on every statement of a block, outer before inner.
fn each<'a>(block: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for s in block {
        f(s);
        for b in super::flow::child_blocks(s) {
            each(b, f);
        }
    }
}

/// Per zone, per card: whether the card may ever be in the zone (`swept`:
/// the cards put away for good, which no rule can name again).
pub fn holds(hir: &Hir, swept: &[bool]) -> Vec<Vec<bool>> {
    let (nz, nc) = (hir.tables.zones.len(), swept.len());
    let mut edges: Vec<(Zones, Zones)> = Vec::new();
    let o = Origins::of(hir);
    for (p, proc) in hir.procs.iter().enumerate() {
        super::flow::walk(&proc.body, &mut |s| match &s.kind {
            StmtKind::Move { what, to, .. } => {
                edges.push((o.source(p, what, &[], 0), o.zones(p, to, &[], 0)));
            }
            StmtKind::MoveAll { from, to, .. } | StmtKind::Deal(_, from, to) => {
                edges.push((o.zones(p, from, &[], 0), o.zones(p, to, &[], 0)));
            }
            StmtKind::Swap(a, b) => {
                let at = |e: &Expr| match e {
                    Expr::Zone(..) | Expr::ZoneAll(_) => o.zones(p, e, &[], 0),
                    _ => o.source(p, e, &[], 0),
                };
                let (x, y) = (at(a), at(b));
                edges.push((x.clone(), y.clone()));
                edges.push((y, x));
            }
            _ => {}
        });
    }
    let mut holds = vec![vec![false; nc]; nz];
    for (c, home) in hir.tables.card_home.iter().enumerate() {
        if let Some(h) = holds.get_mut(*home as usize)
            && !swept.get(c).copied().unwrap_or(false)
        {
            h[c] = true;
        }
    }
    let free: Vec<bool> = swept.iter().map(|s| !s).collect();
    loop {
        let mut changed = false;
        for (from, to) in &edges {
            let cards: Vec<bool> = match from {
                None => free.clone(),
                Some(zs) => (0..nc)
                    .map(|c| {
                        zs.iter()
                            .any(|z| holds.get(*z as usize).is_some_and(|h| h[c]))
                    })
                    .collect(),
            };
            let dests: Vec<usize> = match to {
                None => (0..nz).collect(),
                Some(zs) => zs.iter().map(|z| *z as usize).filter(|z| *z < nz).collect(),
            };
            for d in dests {
                for (c, may) in cards.iter().enumerate() {
                    if *may && !holds[d][c] {
                        holds[d][c] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    // a card put away for good is in no zone a rule can read
    holds
}

/// Zones an expression names.
fn zones_of(e: &Expr, out: &mut BTreeSet<u16>) {
    if let Expr::Zone(z, _) | Expr::ZoneAll(z) = e {
        out.insert(*z);
    }
    e.for_each_child(|x| zones_of(x, out));
}

/// The expressions a statement evaluates itself, and where its cards go
/// (a move's or deal's destination), apart.
fn stmt_exprs(s: &Stmt) -> (Vec<&Expr>, Vec<&Expr>) {
    let mut reads: Vec<&Expr> = Vec::new();
    let mut dest: Vec<&Expr> = Vec::new();
    match &s.kind {
        StmtKind::Assign(place, _, e) => {
            reads.push(e);
            if let crate::hir::Place::PerPlayer(_, x) | crate::hir::Place::PerCard(_, x) = place {
                reads.push(x);
            }
        }
        StmtKind::If(c, ..) | StmtKind::While(c, _) => reads.push(c),
        StmtKind::For(b, _) => reads.extend([&b.coll].into_iter().chain(b.filter.as_ref())),
        StmtKind::Choose { who, arms, .. } => {
            reads.push(who);
            for a in arms {
                reads.extend(a.guard.iter());
                if let Some(b) = &a.bind {
                    reads.extend([&b.coll].into_iter().chain(b.filter.as_ref()));
                }
                reads.extend(a.also.iter().map(|(_, c)| c));
            }
        }
        StmtKind::Window {
            from, filter, arms, ..
        } => {
            reads.push(from);
            reads.extend(filter.iter());
            for a in arms {
                reads.extend(a.guard.iter());
            }
        }
        StmtKind::Move { what, to, .. } => {
            reads.push(what);
            dest.push(to);
        }
        StmtKind::MoveAll { from, to, .. } => {
            reads.push(from);
            dest.push(to);
        }
        StmtKind::Deal(n, from, to) => {
            reads.extend([n, from]);
            dest.push(to);
        }
        StmtKind::Shuffle(x) | StmtKind::Reveal(x) => reads.push(x),
        StmtKind::Swap(a, b) | StmtKind::Peek(a, b) => reads.extend([a, b]),
        StmtKind::Call(_, args) => reads.extend(args.iter()),
        _ => {}
    }
    (reads, dest)
}

/// Zones a statement touches (reads or moves cards to), with the phases
/// it calls, transitively.
pub(super) fn zones_in_stmt(
    hir: &Hir,
    s: &Stmt,
    out: &mut BTreeSet<u16>,
    seen: &mut BTreeSet<u16>,
) {
    super::flow::walk(std::slice::from_ref(s), &mut |st| {
        let (reads, dest) = stmt_exprs(st);
        for e in reads.into_iter().chain(dest) {
            zones_of(e, out);
        }
        if let StmtKind::Call(callee, _) = &st.kind
            && seen.insert(*callee)
            && let Some(p) = hir.procs.get(*callee as usize)
        {
            for inner in &p.body {
                zones_in_stmt(hir, inner, out, seen);
            }
        }
    });
}

/// Zones some expression reads (a move's destination is not a read).
pub(super) fn zones_read(hir: &Hir) -> BTreeSet<u16> {
    let mut out = BTreeSet::new();
    for p in &hir.procs {
        super::flow::walk(&p.body, &mut |s| {
            let (reads, dest) = stmt_exprs(s);
            for e in reads {
                zones_of(e, &mut out);
            }
            // a destination computed from a zone (`Z[p]`'s player) reads
            // only that player
            for d in dest {
                if !matches!(d, Expr::Zone(..)) {
                    zones_of(d, &mut out);
                }
            }
        });
    }
    let t = &hir.tables;
    let extra = t
        .invariants
        .iter()
        .map(|(_, e)| e)
        .chain(t.winners_key.iter())
        .chain(t.winners_filter.iter())
        .chain(t.winners_tiebreak.iter())
        .chain(t.evaluate.iter())
        .chain(t.vars.iter().map(|v| &v.init));
    for e in extra {
        zones_of(e, &mut out);
    }
    out
}
