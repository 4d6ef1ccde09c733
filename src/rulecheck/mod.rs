//! rulecheck: grail's soundness checker for rules files.
//!
//! For each file: compile it (every checker diagnostic is a finding), then,
//! when it compiled, run the static lints of [`lints::REGISTRY`] over its
//! HIR and action graph. Silencing comments (`allow.rs`) and `--deny`
//! are applied as findings are added, so a later pass (the simulation
//! verdicts) adds its findings through [`FileReport::add`] and gets the same
//! treatment. `report.rs` renders reports and verdicts, `json.rs` emits
//! them as JSON, `flow.rs` holds the control-flow analysis the lints share.
//!
//! ```no_run
//! use grail::rulecheck::{check_paths, Config};
//! let report = check_paths(&["my_game.rules"], &Config::default());
//! print!("{}", report.render_plain());
//! std::process::exit(report.exit_code());
//! ```

mod allow;
mod flow;
mod json;
pub mod lints;
mod report;

pub use allow::Allows;
pub use flow::Liveness;
pub use lints::{Context, Level, Lint, Pass, REGISTRY};
pub use report::Verdict;

use crate::diag::{Diagnostic, Source, Span};
use crate::engine::compile;
use std::path::Path;

/// What to promote from warning to error.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// `--deny warnings`: every warning is an error.
    pub deny_warnings: bool,
    /// `--deny LINT`: these lints are errors.
    pub deny: Vec<String>,
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
    /// A lint of the registry.
    Lint,
}

#[derive(Clone, Debug)]
pub struct Finding {
    pub origin: Origin,
    pub diag: Diagnostic,
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
            config: config.clone(),
        }
    }

    /// Add a lint's finding: silenced if a comment allows it on the line
    /// of its first label, promoted to an error if denied.
    pub fn add(&mut self, lint: &Lint, mut d: Diagnostic) {
        for (span, _) in &mut d.labels {
            *span = tidy(&self.source.text, *span);
        }
        let line = d.span().map(|s| self.source.line_of(s.start)).unwrap_or(0);
        if self.allows.silences(lint.name, line) {
            self.silenced += 1;
            return;
        }
        if self.config.deny_warnings || self.config.deny.iter().any(|n| n == lint.name) {
            d.severity = miette::Severity::Error;
        }
        self.findings.push(Finding {
            origin: Origin::Lint,
            diag: d,
        });
    }

    fn add_checker(&mut self, mut d: Diagnostic) {
        if self.config.deny_warnings {
            d.severity = miette::Severity::Error;
        }
        self.findings.push(Finding {
            origin: Origin::Checker,
            diag: d,
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
pub fn check_source(source: Source, config: &Config) -> FileReport {
    let compiled = compile(source.clone());
    let mut report = FileReport::new(source, config);
    for d in &compiled.diags.items {
        if d.code == "E0107" {
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
    report
}

/// Read and check one rules file; an unreadable file is reported, not fatal.
pub fn check_path(path: impl AsRef<Path>, config: &Config) -> FileReport {
    let path = path.as_ref();
    let name = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => check_source(Source::new(name, text), config),
        Err(e) => {
            let mut r = FileReport::new(Source::new(name.clone(), ""), config);
            r.unreadable = Some(format!("cannot read `{name}`: {e}"));
            r
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
