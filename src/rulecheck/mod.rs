//! rulecheck: grail's soundness checker for rules files.
//!
//! For each file: compile it (every checker diagnostic is a finding), then,
//! when it compiled, run the static lints of [`lints::REGISTRY`] over its
//! HIR and action graph, then simulate games (`run.rs`): every column of
//! the [`Plan`] (variant x option values x player count) plays N games on
//! all cores, and what went wrong becomes findings of the simulation lints
//! (`verdicts.rs`), with the seed and a command that replays the game in
//! the REPL. Silencing comments (`allow.rs`) and `--deny` are applied as
//! findings are added, through [`FileReport::add`].
//!
//! After the random games, `explore.rs` searches the lines of play they
//! missed (guided exploration; `explore_run.rs` sets it up for a file,
//! `explore_play.rs` plays one game, `explore_branch.rs`, `explore_aim.rs`
//! and `explore_proxy.rs` measure how far a game is from a branch,
//! `explore_report.rs` turns what it reached into notes).
//!
//! `playout.rs` plays one game, `simulate.rs` a column on all cores,
//! `stats.rs` holds the mergeable counts, `part.rs` the shard files that
//! `rulecheck merge` combines, `sched.rs` the slice of `--shard auto`;
//! `report.rs` and `table.rs` render reports and the design metrics,
//! `json.rs` emits them as JSON, `html.rs` as a page with the charts of
//! `charts.rs`, `flow.rs` holds the control-flow analysis the lints share.
//! `balance.rs` turns win counts into findings, `compare.rs` and
//! `classify.rs` judge a variant against its base, `seen.rs` finds the
//! values a never-true condition took, `fires.rs` counts how often each
//! rule fired, `zones.rs` follows cards from zone to zone, `repro.rs`
//! writes long reproductions as saved games.
//!
//! ```no_run
//! use grail::rulecheck::{check_paths, Config};
//! let report = check_paths(&["my_game.rules"], &Config::default());
//! print!("{}", report.render_plain());
//! std::process::exit(report.exit_code());
//! ```

mod allow;
mod balance;
pub mod charts;
mod classify;
mod compare;
mod cycle;
mod evidence;
mod exits;
pub mod explore;
mod explore_aim;
mod explore_branch;
mod explore_budget;
mod explore_dist;
mod explore_keep;
mod explore_link;
mod explore_loop;
mod explore_measure;
mod explore_near;
mod explore_play;
mod explore_proxy;
mod explore_report;
mod explore_run;
mod fires;
mod fixed;
mod fixed_bounds;
mod fixed_eval;
mod fixed_flow;
mod fixed_gates;
mod fixed_params;
mod flow;
mod gate;
mod html;
mod json;
mod json_sim;
mod judge;
pub mod lints;
mod part;
pub mod plan;
mod playout;
mod report;
mod repro;
mod run;
pub mod sched;
mod seen;
mod simulate;
pub mod stats;
mod table;
mod values;
mod verdicts;
mod zones;

pub use crate::diag::Parts;
pub use allow::Allows;
pub use compare::Delta;
pub use explore::Budget;
pub use fires::Fire;
pub use flow::Liveness;
pub use lints::{Context, Level, Lint, Pass, REGISTRY};
pub use part::{Part, merge};
pub use plan::{Column, Plan, Shard, Variant, Vary};
pub use report::Verdict;
pub use run::{Run, SimSection, prepare};
pub use simulate::with_jobs;
pub use verdicts::{Evidence, INLINE_MOVES};

use crate::diag::code;
use crate::diag::{Diagnostic, Source, Span};
use crate::load::{Compiled, compile};
use std::path::{Path, PathBuf};

/// What to promote from warning to error.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// `--deny warnings`: every warning is an error.
    pub deny_warnings: bool,
    /// `--deny LINT`: these lints are errors.
    pub deny: Vec<String>,
    /// Where reproductions too long to print inline are written (always
    /// inline when `None`).
    pub repro_dir: Option<PathBuf>,
}

impl Config {
    /// Parse one `--deny` value: `warnings` or a lint name.
    pub fn deny(&mut self, what: &str) -> Result<(), String> {
        if what == "warnings" {
            self.deny_warnings = true;
            return Ok(());
        }
        if lints::lookup(what).is_some() {
            self.deny.push(what.to_string());
            return Ok(());
        }
        let names = std::iter::once("warnings").chain(REGISTRY.iter().map(|l| l.name));
        Err(match crate::diag::did_you_mean(what, names) {
            Some(s) => format!("unknown lint `{what}` for --deny (did you mean `{s}`?)"),
            None => {
                format!("unknown lint `{what}` for --deny (use `warnings` or a name from --list)")
            }
        })
    }
}

/// Where a finding comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The compiler's checks (parse and check errors).
    Checker,
    /// A static lint of the registry (or a silencing comment).
    Lint,
    /// A simulation verdict.
    Simulation,
}

#[derive(Clone, Debug)]
pub struct Finding {
    pub origin: Origin,
    pub diag: Diagnostic,
    /// For simulation findings about a game: which one, and how to replay it.
    pub evidence: Option<Evidence>,
}

/// Everything rulecheck found in one file.
#[derive(Clone, Debug)]
pub struct FileReport {
    pub source: Source,
    /// Sorted by position once the file is checked.
    pub findings: Vec<Finding>,
    /// Findings hidden by `# rulecheck: allow(...)` comments.
    pub silenced: usize,
    /// Set when the file could not be read; nothing else was done.
    pub unreadable: Option<String>,
    /// Whether the static lints ran (they need a file that compiles).
    pub linted: bool,
    /// The simulation, when games were played.
    pub sim: Option<SimSection>,
    /// The simulations of rules variants compared with this file: their
    /// columns follow this file's in its table.
    pub compared: Vec<SimSection>,
    /// For a rules variant: the file whose table shows its columns.
    pub shown_with: Option<String>,
    allows: Allows,
    config: Config,
}

impl FileReport {
    fn new(source: Source, config: &Config) -> FileReport {
        FileReport {
            allows: Allows::parse(&source.text),
            source,
            findings: Vec::new(),
            silenced: 0,
            unreadable: None,
            linted: false,
            sim: None,
            compared: Vec::new(),
            shown_with: None,
            config: config.clone(),
        }
    }

    /// Add a lint's finding: silenced if a comment allows it on the line
    /// of any of its labels, promoted to an error if denied.
    pub fn add(&mut self, lint: &Lint, d: Diagnostic) {
        self.add_with(lint, d, None);
    }

    /// Like [`FileReport::add`], with the game behind a simulation finding.
    pub fn add_with(&mut self, lint: &Lint, mut d: Diagnostic, evidence: Option<Evidence>) {
        for (span, _) in &mut d.labels {
            *span = tidy(&self.source.text, *span);
        }
        if self.silences(lint, &d) {
            self.silenced += 1;
            return;
        }
        if self.config.deny_warnings || self.config.deny.iter().any(|n| n == lint.name) {
            d.severity = miette::Severity::Error;
        }
        let origin = match lint.pass {
            Pass::Simulation => Origin::Simulation,
            _ => Origin::Lint,
        };
        self.findings.push(Finding {
            origin,
            diag: d,
            evidence,
        });
    }

    /// Whether a comment silences this finding of `lint`: a directive
    /// above any highlighted line (a never-fired finding labels both the
    /// condition and the statements), or `allow(...) at NAME` with a label
    /// inside what NAME declares.
    pub(crate) fn silences(&self, lint: &Lint, d: &Diagnostic) -> bool {
        let spans = d.labels.iter().map(|(s, _)| tidy(&self.source.text, *s));
        let unlabelled = d.labels.is_empty() && self.allows.silences(lint.name, 0);
        unlabelled
            || spans.into_iter().any(|s| {
                self.allows.silences_at(lint.name, s.start)
                    || self
                        .allows
                        .silences(lint.name, self.source.line_of(s.start))
            })
    }

    fn add_checker(&mut self, mut d: Diagnostic) {
        if self.config.deny_warnings {
            d.severity = miette::Severity::Error;
        }
        self.findings.push(Finding {
            origin: Origin::Checker,
            diag: d,
            evidence: None,
        });
    }

    /// Sort findings by position, as the compiler's diagnostics are.
    pub fn sort(&mut self) {
        self.findings.sort_by_key(|f| {
            let d = &f.diag;
            (
                d.span().map(|s| s.start).unwrap_or(u32::MAX),
                d.code.clone(),
            )
        });
    }

    pub fn errors(&self) -> usize {
        self.findings.iter().filter(|f| f.diag.is_error()).count()
            + usize::from(self.unreadable.is_some())
    }
    pub fn warnings(&self) -> usize {
        self.findings.iter().filter(|f| !f.diag.is_error()).count()
    }
}

/// A span without the blanks and comments that end it (statement spans
/// from the parser run on to the next token).
fn tidy(text: &str, span: Span) -> Span {
    let Some(inner) = text.get(span.start as usize..span.end as usize) else {
        return span;
    };
    let mut end = 0;
    let mut at = 0;
    for line in inner.split_inclusive('\n') {
        let code = allow::comment_start(line).map_or(line, |i| &line[..i]);
        let kept = code.trim_end().len();
        if kept > 0 {
            end = at + kept;
        }
        at += line.len();
    }
    if end == 0 {
        return span;
    }
    Span::new(span.start as usize, span.start as usize + end)
}

/// Check one rules file given as text; `source.name` names it in reports.
/// Static checks only: [`prepare`] runs the simulation too.
pub fn check_source(source: Source, config: &Config) -> FileReport {
    check_compiled(source, config).0
}

/// The static report of a file, and its compiled form for the simulation.
fn check_compiled(source: Source, config: &Config) -> (FileReport, Compiled) {
    let compiled = compile(source.clone());
    let mut report = FileReport::new(source, config);
    for d in &compiled.diags.items {
        if d.code == code::UNREACHABLE_PHASE {
            // folded into `unreachable-phase`; recomputed below when the graph exists
            if compiled.graph.is_none() {
                report.add(
                    &lints::UNREACHABLE_PHASE,
                    lints::unreachable_phase_from_checker(d),
                );
            }
        } else {
            report.add_checker(d.clone());
        }
    }
    if compiled.graph.is_some() {
        report.allows.resolve(&compiled.hir, &report.source.text);
    }
    for d in std::mem::take(&mut report.allows.problems) {
        report.add(&lints::INVALID_ALLOW, d);
    }
    if let Some(graph) = &compiled.graph {
        let cx = Context::new(&report.source, &compiled.hir, graph);
        let found = lints::run_static(&cx);
        for (lint, d) in found {
            report.add(lint, d);
        }
        report.linted = true;
    }
    report.sort();
    (report, compiled)
}

/// Read and check one rules file (static checks only); an unreadable file
/// is reported, not fatal.
pub fn check_path(path: impl AsRef<Path>, config: &Config) -> FileReport {
    read_and_check(path.as_ref(), config).0
}

/// Read a rules file (a variant together with its base) and check it.
fn read_and_check(path: &Path, config: &Config) -> (FileReport, Option<Compiled>) {
    match crate::load::read_rules(path) {
        Ok(source) => {
            let (r, c) = check_compiled(source, config);
            (r, Some(c))
        }
        Err(d) => {
            let mut r = FileReport::new(d.source.clone(), config);
            match d.items.iter().find(|x| x.code == code::UNREADABLE) {
                Some(e) => r.unreadable = Some(e.message.clone()),
                None => {
                    for x in d.items {
                        r.add_checker(x);
                    }
                    r.sort();
                }
            }
            (r, None)
        }
    }
}

/// The reports of several files, in the order given.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub files: Vec<FileReport>,
}

/// Check each file in turn.
pub fn check_paths<P: AsRef<Path>>(paths: &[P], config: &Config) -> Report {
    Report {
        files: paths.iter().map(|p| check_path(p, config)).collect(),
    }
}
