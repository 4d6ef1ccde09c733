//! The lint registry: every check rulecheck can report, one per file in
//! this folder, each with a kebab-case name, a level, a one-line
//! description and a help line (modelled on starlark-rust's linter).
//!
//! A static lint is a function over a [`Context`] (the checked HIR and the
//! action graph of one rules file) that pushes diagnostics built with
//! [`Lint::at`]. The driver in `rulecheck/mod.rs` applies silencing comments
//! and `--deny` afterwards, so lints never need to know about either.
//! Simulation verdicts register here too, with [`Pass::Simulation`].

mod all_ties;
mod card_lost;
mod constant_condition;
mod does_not_end;
mod first_mover_advantage;
mod invalid_allow;
mod invariant_broken;
mod missing_deck_size;
pub mod never_fired;
mod never_written_var;
mod no_lead_changes;
mod rule_fault;
mod seat_imbalance;
mod single_option_choice;
mod softlock;
mod unreachable_node;
mod unreachable_phase;
mod unreachable_threshold;
mod unused_card_kind;
mod unused_enum;
mod unused_enum_value;
mod unused_option;
mod unused_var;
mod unused_zone;
mod write_only_var;
mod zone_never_left;

use super::fixed::Fixed;
use super::flow::Liveness;
use super::values::Site;
use crate::check::hir::Hir;
use crate::diag::{Diagnostic, Source, Span};
use crate::graph::Graph;
use std::cell::{OnceCell, RefCell};
use std::fmt;
use std::rc::Rc;

pub use all_ties::LINT as ALL_TIES;
pub use card_lost::LINT as CARD_LOST;
pub use does_not_end::LINT as DOES_NOT_END;
pub use first_mover_advantage::LINT as FIRST_MOVER_ADVANTAGE;
pub use invalid_allow::LINT as INVALID_ALLOW;
pub use invariant_broken::LINT as INVARIANT_BROKEN;
pub use never_fired::LINT as NEVER_FIRED;
pub use no_lead_changes::LINT as NO_LEAD_CHANGES;
pub use rule_fault::LINT as RULE_FAULT;
pub use seat_imbalance::LINT as SEAT_IMBALANCE;
pub use softlock::LINT as SOFTLOCK;
pub use unreachable_phase::{
    LINT as UNREACHABLE_PHASE, from_checker as unreachable_phase_from_checker,
};

/// How serious a finding is before `--deny` promotes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Warning,
    Error,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Warning => "warning",
            Level::Error => "error",
        })
    }
}

/// When a lint runs.
#[derive(Clone, Copy)]
pub enum Pass {
    /// Over the HIR and action graph of a file that compiled.
    Static(fn(&Context, &mut Vec<Diagnostic>)),
    /// Reported by the driver itself (silencing comments, checker fold-ins).
    Driver,
    /// Reported by the simulation half of rulecheck (playouts of a variant).
    Simulation,
}

/// One check, as listed by `rulecheck --list`.
pub struct Lint {
    /// Kebab-case name: the diagnostic code, and what `allow(...)` names.
    pub name: &'static str,
    pub level: Level,
    /// What the lint finds, in one line.
    pub description: &'static str,
    /// The default help line of its diagnostics.
    pub help: &'static str,
    pub pass: Pass,
}

impl Lint {
    /// A diagnostic of this lint: its name as code, its level, one label
    /// (whose line is the one silencing comments refer to) and its help.
    pub fn at(
        &self,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Diagnostic {
        let d = match self.level {
            Level::Warning => Diagnostic::warning(self.name, message),
            Level::Error => Diagnostic::error(self.name, message),
        };
        d.label(span, label).help(self.help)
    }
}

impl fmt::Debug for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lint")
            .field("name", &self.name)
            .field("level", &self.level)
            .finish()
    }
}

/// Every lint, in the order `--list` shows them.
pub static REGISTRY: &[&Lint] = &[
    &unused_option::LINT,
    &unused_var::LINT,
    &write_only_var::LINT,
    &never_written_var::LINT,
    &unused_zone::LINT,
    &zone_never_left::LINT,
    &unused_enum::LINT,
    &unused_enum_value::LINT,
    &unused_card_kind::LINT,
    &missing_deck_size::LINT,
    &unreachable_phase::LINT,
    &unreachable_node::LINT,
    &single_option_choice::LINT,
    &constant_condition::LINT,
    &unreachable_threshold::LINT,
    &invalid_allow::LINT,
    &does_not_end::LINT,
    &softlock::LINT,
    &invariant_broken::LINT,
    &card_lost::LINT,
    &rule_fault::LINT,
    &never_fired::LINT,
    &first_mover_advantage::LINT,
    &seat_imbalance::LINT,
    &all_ties::LINT,
    &no_lead_changes::LINT,
];

/// The lint with this name.
pub fn lookup(name: &str) -> Option<&'static Lint> {
    REGISTRY.iter().copied().find(|l| l.name == name)
}

/// What a static lint sees of one rules file.
pub struct Context<'a> {
    pub source: &'a Source,
    pub hir: &'a Hir,
    pub graph: &'a Graph,
    live: OnceCell<Liveness>,
    sites: OnceCell<Vec<Site>>,
    /// Each column's partial evaluation (by options and players), made
    /// once: the exploration asks again after every round.
    fixed: RefCell<Vec<FixedFor<'a>>>,
}

/// A column's options and players, and its partial evaluation.
type FixedFor<'a> = ((Vec<i32>, usize), Rc<Fixed<'a>>);

impl<'a> Context<'a> {
    pub fn new(source: &'a Source, hir: &'a Hir, graph: &'a Graph) -> Context<'a> {
        Context {
            source,
            hir,
            graph,
            live: OnceCell::new(),
            sites: OnceCell::new(),
            fixed: RefCell::new(Vec::new()),
        }
    }

    /// The partial evaluation of the rules with these options fixed
    /// (`rulecheck/fixed.rs`), made once per column.
    pub fn fixed(&self, opts: &[i32], players: usize) -> Rc<Fixed<'a>> {
        let mut cache = self.fixed.borrow_mut();
        if let Some((_, f)) = cache.iter().find(|((o, p), _)| o == opts && *p == players) {
            return f.clone();
        }
        let f = Rc::new(Fixed::new(self.hir, opts, players));
        cache.push(((opts.to_vec(), players), f.clone()));
        f
    }

    /// Which nodes and phases can run (computed once, shared by the lints).
    pub fn liveness(&self) -> &Liveness {
        self.live.get_or_init(|| Liveness::of(self.graph))
    }

    /// Every comparison impossible one way (computed once, shared by
    /// `constant-condition` and `unreachable-threshold`).
    pub fn comparisons(&self) -> &[Site] {
        self.sites
            .get_or_init(|| super::judge::comparisons(self.hir, &self.source.text))
    }

    /// The source text of a span.
    pub fn text(&self, span: Span) -> &str {
        self.source
            .text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }
}

/// Run every static lint over a file that compiled.
pub fn run_static(cx: &Context) -> Vec<(&'static Lint, Diagnostic)> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for lint in REGISTRY {
        if let Pass::Static(run) = lint.pass {
            run(cx, &mut buf);
            out.extend(buf.drain(..).map(|d| (*lint, d)));
        }
    }
    out
}
