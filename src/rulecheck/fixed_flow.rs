//! Which cards may ever be in each zone (for `fixed.rs`): every card
//! starts in its deck's zone (a card `start` puts away for good is only
//! in the zone it is put in), and every `move`, `move all`, `deal` and
//! `swap` is a way from the zones its cards can come from to the zones
//! they go to; the cards flow along them to a fixpoint.
//!
//! Where a card comes from is read off its expression: `top(Z)`,
//! `bottom(Z)`, `Z[i]`, `first(c in Z where F)` and a loop's or choice's
//! variable over `Z` (the cards `F` may let through, with the phase's
//! parameters as `fixed.rs` knows them), a local, a phase's parameter or
//! a global variable assigned from one of those. Where it goes: a zone, a
//! board's cell (`cell`, `shift`, a cell of `moves`, `ray` or a region),
//! a local assigned one of those. Anything else (`zone_of`, a per-card
//! variable) may be any card or any zone. Every card local is given the
//! zones its card can come from, for `fixed.rs`.
//!
//! A move that a column's options switch off moves nothing: one inside a
//! gate that fails whatever the state (`if use_x == 1` with `use_x = 0`,
//! `while count(Z) < k` with `k = 0`), or in a phase every call to which
//! is switched off (`fixed_gates.rs`). The options that switched off
//! moves into a zone are kept, to name them where the zone then holds
//! fewer cards.
//!
//! Also the zones a statement touches and the zones any expression reads,
//! for the setup loops that put cards away for good (`fixed.rs`).

use super::fixed_gates::{Off, Opts, each_gated, switched_procs};
use crate::hir::{Builtin, Expr, Hir, Place, Stmt, StmtKind};
use crate::syntax::ast::AggKind;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

/// Zones, or any zone (`None`).
type Zones = Option<BTreeSet<u16>>;

/// Per card: whether it may pass a filter (`None`: any card may).
type Mask = Option<Vec<bool>>;

/// Where a card can come from: zones, the cards a filter lets through,
/// and whether it may be `none` (`None`: any card from any zone, or none).
type Src = Option<(BTreeSet<u16>, Mask, bool)>;

/// Whether a filter in a phase may hold with its variable (slot) bound
/// to a card: `passes(phase, filter, slot, card)`.
pub type Passes<'o> = dyn Fn(usize, &Expr, u16, usize) -> bool + 'o;

fn join_src(a: Src, b: Src) -> Src {
    let ((mut za, ma, na), (zb, mb, nb)) = (a?, b?);
    za.extend(zb);
    let m = match (ma, mb) {
        (Some(x), Some(y)) => Some(x.iter().zip(&y).map(|(a, b)| *a || *b).collect()),
        _ => None,
    };
    Some((za, m, na || nb))
}

/// How deep a local's origin is followed.
const DEPTH: u32 = 16;

fn join(a: Zones, b: Zones) -> Zones {
    let (mut a, b) = (a?, b?);
    a.extend(b);
    Some(a)
}

/// A collection and the filter its elements pass.
type Elem<'a> = (&'a Expr, Option<&'a Expr>);

/// What binds each local of every phase: an element of a collection, or a
/// value (every statement that assigns it); a parameter, the arguments of
/// every call.
struct Origins<'a, 'o> {
    hir: &'a Hir,
    passes: &'o Passes<'o>,
    /// Per phase, per local: the collections it is an element of (with
    /// their filters), the values assigned to it.
    elem: Vec<Vec<Vec<Elem<'a>>>>,
    value: Vec<Vec<Vec<&'a Expr>>>,
    /// Per phase: its calls (the calling phase and the arguments).
    calls: Vec<Vec<(usize, &'a [Expr])>>,
    /// Per global variable: the values assigned to it (and the phase).
    global: Vec<Vec<(usize, &'a Expr)>>,
    /// The masks already worked out, by phase, filter (its address in the
    /// tree) and slot: a local's origin is followed from every place that
    /// reads it, and each mask asks every card.
    masks: RefCell<HashMap<(usize, *const Expr, u16), Mask>>,
}

impl<'a, 'o> Origins<'a, 'o> {
    fn of(hir: &'a Hir, passes: &'o Passes<'o>) -> Origins<'a, 'o> {
        let mut o = Origins {
            hir,
            passes,
            elem: Vec::new(),
            value: Vec::new(),
            calls: vec![Vec::new(); hir.procs.len()],
            global: hir.tables.vars.iter().map(|v| vec![(0, &v.init)]).collect(),
            masks: RefCell::default(),
        };
        for (pi, p) in hir.procs.iter().enumerate() {
            let n = p.locals as usize;
            let (mut elem, mut value) = (vec![Vec::new(); n], vec![Vec::new(); n]);
            let push = |v: &mut Vec<Vec<&'a Expr>>, l: u16, e: &'a Expr| {
                if let Some(v) = v.get_mut(l as usize) {
                    v.push(e);
                }
            };
            let mut push_elem = |l: u16, e: Elem<'a>| {
                if let Some(v) = elem.get_mut(l as usize) {
                    v.push(e);
                }
            };
            each(&p.body, &mut |s| match &s.kind {
                StmtKind::Assign(Place::Local(l), _, e) => push(&mut value, *l, e),
                StmtKind::Assign(Place::Global(g), _, e) => {
                    if let Some(v) = o.global.get_mut(*g as usize) {
                        v.push((pi, e));
                    }
                }
                StmtKind::For(b, _) => push_elem(b.slot, (&b.coll, b.filter.as_ref())),
                StmtKind::Choose { arms, .. } | StmtKind::Window { arms, .. } => {
                    for a in arms {
                        if let Some(b) = &a.bind {
                            push_elem(b.slot, (&b.coll, b.filter.as_ref()));
                        }
                        if let Some((slot, coll)) = &a.also {
                            push_elem(*slot, (coll, None));
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
    ) -> Option<(&[Elem<'a>], &[&'a Expr], Vec<(usize, &'a Expr)>)> {
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

    /// The cards a filter lets through, its variable in `slot`.
    fn mask(&self, p: usize, filter: Option<&Expr>, slot: u16) -> Mask {
        let (n, filter) = (self.hir.tables.card_home.len(), filter?);
        let key = (p, filter as *const Expr, slot);
        if let Some(m) = self.masks.borrow().get(&key) {
            return m.clone();
        }
        let m: Mask = Some((0..n).map(|c| (self.passes)(p, filter, slot, c)).collect());
        self.masks.borrow_mut().insert(key, m.clone());
        m
    }

    /// The zones a card-valued expression's card can come from, and the
    /// cards the filters it was taken with let through.
    fn source(&self, p: usize, e: &Expr, args: &[(u16, &Expr)], depth: u32) -> Src {
        if depth > DEPTH {
            return None;
        }
        match e {
            Expr::Nothing => Some((BTreeSet::new(), None, true)),
            Expr::Call(Builtin::Top | Builtin::Bottom, a) => {
                Some((self.zones(p, a.first()?, args, depth + 1)?, None, false))
            }
            Expr::Index(z, _) => Some((self.zones(p, z, args, depth + 1)?, None, false)),
            Expr::Agg {
                kind: AggKind::First,
                slot,
                coll,
                filter,
                body: None,
            } => Some((
                self.zones(p, coll, args, depth + 1)?,
                self.mask(p, filter.as_deref(), *slot),
                true,
            )),
            Expr::Cond(_, a, b) => join_src(
                self.source(p, a, args, depth + 1),
                self.source(p, b, args, depth + 1),
            ),
            Expr::Bind(binds, body) => {
                let mut inner = args.to_vec();
                inner.extend(binds.iter().map(|(s, x)| (*s, x)));
                self.source(p, body, &inner, depth + 1)
            }
            Expr::Global(g) => {
                let mut out = None;
                for (q, v) in self.global.get(*g as usize)? {
                    acc(&mut out, self.source(*q, v, &[], depth + 1));
                }
                joined(out)
            }
            Expr::Local(s) => {
                if let Some((_, x)) = args.iter().rev().find(|(b, _)| b == s) {
                    return self.source(p, x, &[], depth + 1);
                }
                let (elems, values, calls) = self.binders(p, *s)?;
                let mut out = None;
                for (c, filter) in elems {
                    let zones = self.zones(p, c, &[], depth + 1)?;
                    acc(&mut out, Some((zones, self.mask(p, *filter, *s), false)));
                }
                for v in values {
                    acc(&mut out, self.source(p, v, &[], depth + 1));
                }
                for (caller, a) in calls {
                    acc(&mut out, self.source(caller, a, &[], depth + 1));
                }
                joined(out)
            }
            _ => None,
        }
    }

    /// The zones the card in local `s` of phase `p` can come from, if it
    /// holds a card.
    fn card_zones(&self, p: usize, s: u16) -> Option<Opts> {
        let ty = self.hir.procs.get(p)?.local_types.get(s as usize)?;
        if !matches!(ty, crate::hir::Ty::Card) {
            return None;
        }
        // a card that may be `none` is not one of the zones' cards
        let (zones, _, none) = self.source(p, &Expr::Local(s), &[], 0)?;
        (!none).then_some(zones)
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
                for (c, _) in elems {
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

/// Join `next` into `out` (`None`: nothing joined yet).
fn acc(out: &mut Option<Src>, next: Src) {
    *out = Some(match out.take() {
        None => next,
        Some(o) => join_src(o, next),
    });
}

/// What was joined, or no card at all.
fn joined(out: Option<Src>) -> Src {
    out.unwrap_or(Some((BTreeSet::new(), None, true)))
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

/// Where the cards go, with a column's options fixed.
pub struct Flow {
    /// Per zone, per card: whether the card may ever be in the zone.
    pub holds: Vec<Vec<bool>>,
    /// Per zone: the options that switched off moves into it.
    pub cut: Vec<Opts>,
    /// Per phase, per local: the zones the card it holds can come from
    /// (`None`: anywhere, or it is no card).
    pub locals: Vec<Vec<Option<Opts>>>,
}

/// Per zone, per card: whether the card may ever be in the zone (`swept`:
/// the cards put away for good, which no rule can name again); and per
/// zone, the options that switched off moves that could have put cards
/// there. A move inside a gate that fails whatever the state (`off`), or
/// in a phase every call to which is, moves nothing.
pub fn holds(hir: &Hir, swept: &[bool], off: &Off, passes: &Passes) -> Flow {
    let (nz, nc) = (hir.tables.zones.len(), swept.len());
    let mut edges: Vec<(Src, Zones)> = Vec::new();
    let mut cut = vec![Opts::new(); nz];
    let o = Origins::of(hir, passes);
    let all = |z: Zones| z.map(|z| (z, None, false));
    let dead = switched_procs(hir, off);
    for (p, proc) in hir.procs.iter().enumerate() {
        each_gated(&proc.body, off, dead[p].as_ref(), &mut |s, sw| {
            let found = match &s.kind {
                StmtKind::Move { what, to, .. } => {
                    vec![(o.source(p, what, &[], 0), o.zones(p, to, &[], 0))]
                }
                StmtKind::MoveAll { from, to, .. } | StmtKind::Deal(_, from, to) => {
                    vec![(all(o.zones(p, from, &[], 0)), o.zones(p, to, &[], 0))]
                }
                StmtKind::Swap(a, b) => {
                    let at = |e: &Expr| match e {
                        Expr::Zone(..) | Expr::ZoneAll(_) => all(o.zones(p, e, &[], 0)),
                        _ => o.source(p, e, &[], 0),
                    };
                    let (x, y) = (at(a), at(b));
                    let zones = |s: &Src| s.as_ref().map(|(z, ..)| z.clone());
                    vec![(x.clone(), zones(&y)), (y, zones(&x))]
                }
                _ => return,
            };
            let Some(read) = sw else {
                edges.extend(found);
                return;
            };
            for (_, to) in found {
                let to: Vec<usize> = match to {
                    None => (0..nz).collect(),
                    Some(zs) => zs.iter().map(|z| *z as usize).collect(),
                };
                for z in to {
                    if let Some(c) = cut.get_mut(z) {
                        c.extend(read);
                    }
                }
            }
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
                Some((zs, mask, _)) => (0..nc)
                    .map(|c| {
                        mask.as_ref()
                            .is_none_or(|m| m.get(c).copied().unwrap_or(true))
                            && zs
                                .iter()
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
    let locals = hir
        .procs
        .iter()
        .enumerate()
        .map(|(p, proc)| (0..proc.locals).map(|l| o.card_zones(p, l)).collect())
        .collect();
    Flow { holds, cut, locals }
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
