//! Rendering reports: each file's findings as miette diagnostics (through
//! [`Diagnostics`]), a summary line per file, and the overall verdict.

use super::{FileReport, Report};
use crate::diag::Diagnostics;
use std::time::Duration;

/// What rulecheck concludes about a file, or about all of them (the worst).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Nothing to report.
    Sound,
    /// Only warnings: the rules work but something looks wrong.
    Warnings,
    /// Errors (or denied warnings), or the file could not be read.
    Unsound,
}

impl Verdict {
    /// Stable word, used in JSON.
    pub fn key(self) -> &'static str {
        match self {
            Verdict::Sound => "sound",
            Verdict::Warnings => "warnings",
            Verdict::Unsound => "unsound",
        }
    }
    fn words(self) -> &'static str {
        match self {
            Verdict::Sound => "sound",
            Verdict::Warnings => "sound, with warnings",
            Verdict::Unsound => "unsound",
        }
    }
}

/// "1 error", "2 errors".
pub(super) fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

impl FileReport {
    pub fn verdict(&self) -> Verdict {
        if self.errors() > 0 {
            Verdict::Unsound
        } else if self.warnings() > 0 {
            Verdict::Warnings
        } else {
            Verdict::Sound
        }
    }

    /// The findings as a diagnostics list, for miette rendering.
    pub fn diagnostics(&self) -> Diagnostics {
        let mut d = Diagnostics::new(self.source.clone());
        d.items = self.findings.iter().map(|f| f.diag.clone()).collect();
        d
    }

    /// One line: the file, its verdict and its counts.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}: {} ({}, {}",
            self.source.name,
            self.verdict().words(),
            count(self.errors(), "error"),
            count(self.warnings(), "warning")
        );
        if self.silenced > 0 {
            s.push_str(&format!(", {} silenced", self.silenced));
        }
        s.push(')');
        if !self.linted && self.unreadable.is_none() {
            s.push_str("; lints not run until it compiles");
        }
        s
    }

    /// The findings (no colour) and the summary line.
    pub fn render_plain(&self) -> String {
        self.render(false)
    }

    /// `colour`: render as for a terminal (still plain under `NO_COLOR`).
    pub fn render(&self, colour: bool) -> String {
        if let Some(e) = &self.unreadable {
            return format!("error: {e}\n");
        }
        // Each finding on its own, so that the game behind a simulation
        // finding can follow it unwrapped (a command must stay on one line).
        let mut out = String::new();
        let parts = crate::diag::Parts::of(&self.source);
        for f in &self.findings {
            // a variant's finding shows the file and line it is in
            let (src, diag) = match &parts {
                Some(p) => {
                    let (s, d) = p.place(&f.diag);
                    (s.clone(), d)
                }
                None => (self.source.clone(), f.diag.clone()),
            };
            let mut one = Diagnostics::new(src.clone());
            one.items.push(diag);
            let text = if colour {
                one.render_auto()
            } else {
                one.render_plain()
            };
            // Diagnostics ends with its own count line; ours replaces it.
            let errors = usize::from(f.diag.is_error());
            let theirs = format!(
                "{}: {} error(s), {} warning(s)\n",
                src.name,
                errors,
                1 - errors
            );
            out.push_str(text.strip_suffix(theirs.as_str()).unwrap_or(&text));
            if let Some(e) = &f.evidence {
                out.truncate(out.trim_end().len());
                out.push('\n');
                out.push_str(&format!(
                    "  game {} (seed {}, {}): {}\n  reproduce: {}\n\n",
                    e.game, e.seed, e.column, e.detail, e.repro
                ));
            }
        }
        if let Some(sim) = &self.sim {
            match &self.shown_with {
                Some(lead) => {
                    out.push_str(&format!("  (its columns are in the table of {lead})\n"))
                }
                None => {
                    let mut all = vec![sim];
                    all.extend(&self.compared);
                    out.push_str(&super::table::render(&all));
                }
            }
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }
}

impl Report {
    /// The worst verdict of all files (sound when there are none).
    pub fn verdict(&self) -> Verdict {
        self.files
            .iter()
            .map(FileReport::verdict)
            .max()
            .unwrap_or(Verdict::Sound)
    }

    /// 0 when sound (warnings allowed), 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        i32::from(self.verdict() == Verdict::Unsound)
    }

    /// The last line: overall verdict and totals, with the time taken if given.
    pub fn summary(&self, elapsed: Option<Duration>) -> String {
        let errors: usize = self.files.iter().map(FileReport::errors).sum();
        let warnings: usize = self.files.iter().map(FileReport::warnings).sum();
        let mut s = format!(
            "verdict: {} ({} checked, {}, {})",
            self.verdict().words(),
            count(self.files.len(), "file"),
            count(errors, "error"),
            count(warnings, "warning")
        );
        if let Some(t) = elapsed {
            s.push_str(&format!(" in {:.2} ms", t.as_secs_f64() * 1000.0));
        }
        s
    }

    pub fn render_plain(&self) -> String {
        self.render(false, None)
    }

    pub fn render(&self, colour: bool, elapsed: Option<Duration>) -> String {
        let mut out = String::new();
        for f in &self.files {
            out.push_str(&f.render(colour));
        }
        out.push_str(&self.summary(elapsed));
        out.push('\n');
        out
    }
}
