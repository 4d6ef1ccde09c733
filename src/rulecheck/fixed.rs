//! Partial evaluation with a column's option values fixed: which values
//! each local can hold, so that code switched off by an option *through*
//! what its condition reads is known as such (`gate.rs` sees only
//! conditions on options themselves).
//!
//! With the options as constants, an expression is evaluated for every
//! combination of the values its locals can hold:
//!
//! - a **card attribute** is the attribute each possible card carries;
//! - a **function's body** is evaluated with its arguments;
//! - a **loop's or choice's variable** (`for c in Z where F`) holds the
//!   cards (or enum values) that can be in its collection and that `F`
//!   does not rule out;
//! - a **phase's parameter** holds the arguments of every call to it,
//!   evaluated where the call is (to a fixpoint over the calls:
//!   `fixed_params.rs`);
//! - a **zone** holds the cards its moves can bring (`fixed_flow.rs`),
//!   none through a move that the options switch off (a note names the
//!   options that cut moves into it, and the options that put cards away
//!   where cards of their deck can reach it);
//! - a card that `start` puts away for good, by a loop at its top level
//!   (`for c in Z where F { move c to V }`, with nothing before it touching
//!   `Z`) into a zone `V` that no expression reads, is in no other zone:
//!   no rule can name a card in `V` again. (A card held in a variable
//!   from before is the one way back, and the loop's own variable is the
//!   only card it moves.)
//!
//! Anything else (players, the state, a local assigned in its phase) is
//! unknown, and a condition that reads something unknown may hold, except
//! where the unknown is a count of cards, never negative: `count(Z) <
//! k` fails with `k <= 0` whatever `Z` is.

use super::gate::Need;
use crate::hir::{Bind, Expr, Hir, StmtKind};
use std::collections::BTreeSet;

/// Values a slot can hold, beyond which it is taken as unknown.
pub(super) const MAX_VALUES: usize = 512;

/// The values a local can hold and the options that narrowed them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    pub vals: BTreeSet<i32>,
    pub read: BTreeSet<u16>,
}

/// Per local slot: its values, or `None` when unknown.
pub type Scope = Vec<Option<Known>>;

/// What binds a local around the code looked at, outermost first: a
/// loop's or a choice's variable, or a `let` (a local assigned once).
#[derive(Clone, Copy)]
pub enum Binder<'b> {
    Each(&'b Bind),
    Let(u16, &'b Expr),
}

/// One column's fixed options and what follows from them.
pub struct Fixed<'a> {
    pub(super) hir: &'a Hir,
    pub(super) opts: Vec<i32>,
    pub(super) players: i32,
    /// Cards `start` puts away for good, and the options that chose them.
    pub(super) swept: Vec<bool>,
    /// Per zone, per card: whether the card may ever be in the zone.
    pub(super) holds: Vec<Vec<bool>>,
    /// Per zone: the options that switched off moves into it.
    pub(super) cut: Vec<BTreeSet<u16>>,
    /// Per phase, per local: the zones the card it holds can come from.
    pub(super) locals: Vec<Vec<Option<BTreeSet<u16>>>>,
    pub(super) swept_read: BTreeSet<u16>,
    /// Per phase, per parameter: the values it can get.
    pub(super) params: Vec<Scope>,
    /// Per phase, per local: how many statements assign it (a local
    /// assigned more than once, or a parameter assigned, is not followed).
    pub(super) assigned: Vec<Vec<u32>>,
}

impl<'a> Fixed<'a> {
    pub fn new(hir: &'a Hir, opts: &[i32], players: usize) -> Fixed<'a> {
        let assigned = hir.procs.iter().map(assigned_locals).collect();
        let mut f = Fixed {
            hir,
            opts: opts.to_vec(),
            players: players as i32,
            swept: vec![false; hir.tables.cards.len()],
            swept_read: BTreeSet::new(),
            holds: Vec::new(),
            cut: Vec::new(),
            locals: Vec::new(),
            params: Vec::new(),
            assigned,
        };
        f.sweep();
        // the cards a filter lets through depend on the phases'
        // parameters, which depend on the cards the zones hold: the zones
        // without the parameters, the parameters, then both again
        f.flow();
        f.params = f.param_values();
        f.flow();
        f.params = f.param_values();
        f
    }

    /// Which cards each zone may hold, and the options that switched off
    /// moves into it (`fixed_flow.rs`), with the parameters known so far.
    fn flow(&mut self) {
        let width = self.hir.procs.iter().map(|p| p.locals as usize).max();
        let off = |e: &Expr, want: bool| {
            let (mut locals, mut read) = (vec![None; width.unwrap_or(0)], Vec::new());
            let v = self.eval(e, &mut locals, &mut read)?;
            ((v != 0) != want).then_some(read)
        };
        let scopes: Vec<Scope> = (0..self.hir.procs.len())
            .map(|p| self.scope(p, &[]))
            .collect();
        let passes = |p: usize, filter: &Expr, slot: u16, card: usize| {
            let mut locals = vec![None; width.unwrap_or(0)];
            if let Some(l) = locals.get_mut(slot as usize) {
                *l = Some(card as i32);
            }
            if self.eval(filter, &mut locals, &mut Vec::new()) == Some(0) {
                return false;
            }
            let Some(mut scope) = scopes.get(p).cloned() else {
                return true;
            };
            if let Some(s) = scope.get_mut(slot as usize) {
                *s = Some(Known {
                    vals: BTreeSet::from([card as i32]),
                    read: BTreeSet::new(),
                });
            }
            let need = Need {
                expr: filter,
                want: true,
            };
            self.can_hold(&[need], &scope).0
        };
        let flow = super::fixed_flow::holds(self.hir, &self.swept, &off, &passes);
        (self.holds, self.cut, self.locals) = (flow.holds, flow.cut, flow.locals);
    }

    /// Every value `e` can take in `scope` where `needs` may hold (`None`:
    /// unknown).
    pub fn values(&self, e: &Expr, needs: &[Need], scope: &Scope) -> Option<Known> {
        if let Some(k) = self.cards_of(e) {
            return Some(k);
        }
        let mut free = Vec::new();
        e.free_locals(&mut Vec::new(), &mut free);
        let needs = self.known_needs(needs, &free_of(needs), scope, &mut free);
        let mut out = Known::default();
        let (mut unknown, mut read) = (false, Vec::new());
        let mut f = |locals: &mut Vec<Option<i32>>| {
            let fails = needs.iter().any(|n| {
                self.eval(n.expr, locals, &mut read)
                    .is_some_and(|v| (v != 0) != n.want)
            });
            if fails {
                return true;
            }
            match self.eval(e, locals, &mut read) {
                Some(v) if out.vals.len() < MAX_VALUES => {
                    out.vals.insert(v);
                    true
                }
                _ => {
                    unknown = true;
                    false
                }
            }
        };
        if !self.each(&free, scope, &mut out.read, &mut f) || unknown {
            return None;
        }
        out.read.extend(read);
        Some(out)
    }

    /// Whether the conditions `needs` can all hold together in `scope`
    /// (unknown: they may), and the options read on the way.
    pub fn can_hold(&self, needs: &[Need], scope: &Scope) -> (bool, BTreeSet<u16>) {
        self.can_hold_with(needs, &free_of(needs), scope)
    }

    /// `can_hold` with each need's free locals (`free_of`) worked out
    /// already: a loop asks the same filter once per candidate.
    fn can_hold_with(
        &self,
        needs: &[Need],
        frees: &[Vec<u16>],
        scope: &Scope,
    ) -> (bool, BTreeSet<u16>) {
        let (holds, read) = self.jointly(needs, frees, scope);
        if holds && needs.len() > 1 {
            // together they may have too many combinations: each alone
            for (n, f) in needs.iter().zip(frees) {
                let one = std::slice::from_ref(n);
                let (one, r) = self.jointly(one, std::slice::from_ref(f), scope);
                if !one {
                    return (false, r);
                }
            }
        }
        (holds, read)
    }

    /// Whether the conditions `needs` can all hold, evaluated together.
    fn jointly(&self, needs: &[Need], frees: &[Vec<u16>], scope: &Scope) -> (bool, BTreeSet<u16>) {
        let mut free = Vec::new();
        let needs = self.known_needs(needs, frees, scope, &mut free);
        let (mut holds, mut read) = (false, Vec::new());
        let mut out = BTreeSet::new();
        let mut f = |locals: &mut Vec<Option<i32>>| {
            let fails = needs.iter().any(|n| {
                self.eval(n.expr, locals, &mut read)
                    .is_some_and(|v| (v != 0) != n.want)
            });
            holds |= !fails;
            !holds
        };
        if !self.each(&free, scope, &mut out, &mut f) {
            return (true, out);
        }
        out.extend(read);
        (holds, out)
    }

    /// The needs that read only locals with known values, or that hold or
    /// fail whatever their locals are (`count(p.hand) < extras` with
    /// `extras = 0`); the others may hold. Their known locals are added
    /// to `free`.
    fn known_needs<'n>(
        &self,
        needs: &[Need<'n>],
        frees: &[Vec<u16>],
        scope: &Scope,
        free: &mut Vec<u16>,
    ) -> Vec<Need<'n>> {
        let mut out = Vec::new();
        for (n, mine) in needs.iter().zip(frees) {
            if mine
                .iter()
                .all(|s| matches!(scope.get(*s as usize), Some(Some(_))))
            {
                for s in mine {
                    if !free.contains(s) {
                        free.push(*s);
                    }
                }
                out.push(*n);
            } else {
                let mut locals = vec![None; scope.len().max(1)];
                if self.eval(n.expr, &mut locals, &mut Vec::new()).is_some() {
                    out.push(*n);
                }
            }
        }
        out
    }

    /// The cards that may be in the zones `z` names (any zone but the one
    /// the cards put away for good are in, when `z` is not a zone), with
    /// the options that put cards away (if any was).
    fn cards(&self, z: &Expr) -> (Vec<i32>, BTreeSet<u16>) {
        let may = |c: usize| match z {
            Expr::Zone(z, _) | Expr::ZoneAll(z) => self
                .holds
                .get(*z as usize)
                .is_none_or(|h| h.get(c).copied().unwrap_or(true)),
            _ => !self.swept[c],
        };
        let cards: Vec<i32> = (0..self.swept.len())
            .filter(|c| may(*c))
            .map(|c| c as i32)
            .collect();
        // putting cards away matters where cards of their deck's zone can go
        let home = |c: usize| self.hir.tables.card_home.get(c).copied();
        let homes: BTreeSet<Option<u16>> = (0..self.swept.len())
            .filter(|c| self.swept[*c])
            .map(home)
            .collect();
        let put_away = |c: &i32| homes.contains(&home(*c as usize));
        let near = !matches!(z, Expr::Zone(..) | Expr::ZoneAll(_)) || cards.iter().any(put_away);
        let mut read = if near && self.swept.iter().any(|s| *s) {
            self.swept_read.clone()
        } else {
            BTreeSet::new()
        };
        // the moves switched off matter where they leave a card out
        if let Expr::Zone(z, _) | Expr::ZoneAll(z) = z
            && let Some(cut) = self.cut.get(*z as usize)
            && cards.len() < self.swept.iter().filter(|s| !**s).count()
        {
            read.extend(cut);
        }
        (cards, read)
    }

    /// A card taken from a zone (`top(Z)`, `bottom(Z)`): any card it may hold.
    fn cards_of(&self, e: &Expr) -> Option<Known> {
        match e {
            Expr::Call(crate::hir::Builtin::Top | crate::hir::Builtin::Bottom, args)
                if matches!(args.as_slice(), [Expr::Zone(..) | Expr::ZoneAll(_)]) =>
            {
                let (cards, read) = self.cards(&args[0]);
                Some(Known {
                    vals: cards.into_iter().collect(),
                    read,
                })
            }
            _ => None,
        }
    }

    /// The values a loop's or choice's variable can hold in `scope`.
    pub fn bind(&self, b: &Bind, scope: &Scope) -> Option<Known> {
        let (cands, mut read): (Vec<i32>, BTreeSet<u16>) = match &b.coll {
            Expr::EnumAll(e) => {
                let n = self.hir.tables.enums.get(*e as usize)?.values.len();
                ((0..n as i32).collect(), BTreeSet::new())
            }
            Expr::Zone(..) | Expr::ZoneAll(_) => self.cards(&b.coll),
            _ => return None,
        };
        let Some(filter) = &b.filter else {
            return Some(Known {
                vals: cands.into_iter().collect(),
                read,
            });
        };
        let mut vals = BTreeSet::new();
        let mut inner = scope.clone();
        let need = [Need {
            expr: filter,
            want: true,
        }];
        let frees = free_of(&need);
        for c in cands {
            if let Some(slot) = inner.get_mut(b.slot as usize) {
                *slot = Some(Known {
                    vals: BTreeSet::from([c]),
                    read: BTreeSet::new(),
                });
            }
            let (holds, r) = self.can_hold_with(&need, &frees, &inner);
            if holds {
                vals.insert(c);
            } else {
                read.extend(r);
            }
        }
        (vals.len() <= MAX_VALUES).then_some(Known { vals, read })
    }

    /// The scope of phase `proc` inside `binds` (outermost first).
    pub fn scope(&self, proc: usize, binds: &[Binder]) -> Scope {
        let Some(p) = self.hir.procs.get(proc) else {
            return Vec::new();
        };
        let mut scope: Scope = vec![None; p.locals as usize];
        if let Some(params) = self.params.get(proc) {
            for (s, v) in scope.iter_mut().zip(params) {
                s.clone_from(v);
            }
        }
        let assigned = self.assigned.get(proc);
        for b in binds {
            let (slot, v) = match b {
                Binder::Each(b) => (b.slot, self.bind(b, &scope)),
                Binder::Let(l, e) => (*l, self.values(e, &[], &scope)),
            };
            let again = assigned.and_then(|a| a.get(slot as usize)).copied();
            if let (Some(s), Some(0 | 1)) = (scope.get_mut(slot as usize), again) {
                *s = v;
            }
        }
        if let Some(a) = assigned {
            for (i, (s, n)) in scope.iter_mut().zip(a).enumerate() {
                if *n > 1 || (*n == 1 && i < p.params.len()) {
                    *s = None;
                }
            }
        }
        // a card not known otherwise is one its zones can hold
        let zones = self.locals.get(proc);
        for (s, z) in scope.iter_mut().zip(zones.into_iter().flatten()) {
            if let (None, Some(z)) = (&s, z) {
                *s = Some(self.held(z));
            }
        }
        scope
    }

    /// The cards the zones `zones` may hold, with the options that left
    /// some out.
    fn held(&self, zones: &BTreeSet<u16>) -> Known {
        let mut out = Known::default();
        for z in zones {
            let (cards, read) = self.cards(&Expr::ZoneAll(*z));
            out.vals.extend(cards);
            out.read.extend(read);
        }
        out
    }

    /// The cards `start` puts away for good (see the module's doc).
    fn sweep(&mut self) {
        let Some(start) = self.hir.procs.first() else {
            return;
        };
        let read = super::fixed_flow::zones_read(self.hir);
        let mut touched = BTreeSet::new();
        for s in &start.body {
            if let StmtKind::For(b, body) = &s.kind
                && let (Expr::Zone(z, None), Some(filter)) = (&b.coll, &b.filter)
                && let [m] = body.as_slice()
                && let StmtKind::Move {
                    what: Expr::Local(c),
                    to: Expr::Zone(v, None),
                    ..
                } = &m.kind
                && *c == b.slot
                && !touched.contains(z)
                && !read.contains(v)
                && self
                    .hir
                    .tables
                    .zones
                    .get(*v as usize)
                    .is_some_and(|i| i.board.is_none())
            {
                let mut locals = vec![None; start.locals as usize];
                for (card, home) in self.hir.tables.card_home.iter().enumerate() {
                    if home != z || locals.get(*c as usize).is_none() {
                        continue;
                    }
                    locals[*c as usize] = Some(card as i32);
                    let mut r = Vec::new();
                    if self
                        .eval(filter, &mut locals, &mut r)
                        .is_some_and(|x| x != 0)
                    {
                        self.swept[card] = true;
                        self.swept_read.extend(r);
                    }
                }
            }
            super::fixed_flow::zones_in_stmt(self.hir, s, &mut touched, &mut BTreeSet::new());
        }
    }
}

/// How many statements of a phase assign each local slot.
fn assigned_locals(p: &crate::hir::Proc) -> Vec<u32> {
    let mut count = vec![0u32; p.locals as usize];
    super::flow::walk(&p.body, &mut |s| {
        if let StmtKind::Assign(crate::hir::Place::Local(l), ..) = &s.kind
            && let Some(a) = count.get_mut(*l as usize)
        {
            *a += 1;
        }
    });
    count
}

/// Each need's free locals (`Expr::free_locals`), in the needs' order.
fn free_of(needs: &[Need]) -> Vec<Vec<u16>> {
    needs
        .iter()
        .map(|n| {
            let mut mine = Vec::new();
            n.expr.free_locals(&mut Vec::new(), &mut mine);
            mine
        })
        .collect()
}
