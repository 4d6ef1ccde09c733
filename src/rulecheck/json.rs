//! `--json`: the report as one JSON object, built from serde structs
//! (serde_json writes it). Shape:
//!
//! ```text
//! {"verdict":"sound|warnings|unsound","errors":N,"warnings":N,"elapsed_ms":F,
//!  "files":[{"file":S,"verdict":S,"errors":N,"warnings":N,"silenced":N,"linted":B,
//!            "unreadable":S|null,"findings":[{"code":S,"origin":"checker|lint|simulation",
//!            "severity":"error|warning","message":S,"file":S,"line":N,"column":N,
//!            "labels":[{"text":S,"file":S,"start":N,"end":N,"line":N,"column":N}],"help":S|null,
//!            "evidence":null|{"column":S,"players":N,"game":N,"seed":N,"moves":[N],
//!                             "failing_move":B,"detail":S,"repro":S,"script":S|null}}],
//!            "shown_with":S|null,"simulation":null|{...see json_sim.rs...}}]}
//! ```
//!
//! Lines and columns are 1-based (columns count characters); `start` and
//! `end` are byte offsets. `elapsed_ms` is present only when timed.
//! `shown_with` names the file a rules variant (`--variant x.rules`) is
//! compared with; each file's `simulation` holds its own columns.

use super::verdicts::Evidence;
use super::{FileReport, Origin, Report};
use crate::diag::Source;
use serde::Serialize;
use std::time::Duration;

#[derive(Serialize)]
struct JsonReport<'a> {
    verdict: &'static str,
    errors: usize,
    warnings: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    elapsed_ms: Option<f64>,
    files: Vec<JsonFile<'a>>,
}

#[derive(Serialize)]
struct JsonFile<'a> {
    file: &'a str,
    verdict: &'static str,
    errors: usize,
    warnings: usize,
    silenced: usize,
    linted: bool,
    unreadable: Option<&'a str>,
    findings: Vec<JsonFinding<'a>>,
    shown_with: Option<&'a str>,
    simulation: Option<super::json_sim::Simulation<'a>>,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    code: &'a str,
    origin: &'static str,
    severity: &'static str,
    message: &'a str,
    file: String,
    line: usize,
    column: usize,
    labels: Vec<JsonLabel<'a>>,
    help: Option<&'a str>,
    evidence: Option<JsonEvidence<'a>>,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    text: &'a str,
    file: String,
    start: u32,
    end: u32,
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct JsonEvidence<'a> {
    column: &'a str,
    players: usize,
    game: u64,
    seed: u64,
    moves: &'a [u32],
    failing_move: bool,
    detail: &'a str,
    repro: &'a str,
    script: Option<&'a str>,
}

/// 1-based line and character column of a byte offset.
fn position(src: &Source, offset: u32) -> (usize, usize) {
    let text = &src.text;
    let mut at = (offset as usize).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (
        src.line_of(at as u32),
        text[line_start..at].chars().count() + 1,
    )
}

fn evidence(e: &Evidence) -> JsonEvidence<'_> {
    JsonEvidence {
        column: &e.column,
        players: e.players,
        game: e.game,
        seed: e.seed,
        moves: &e.moves,
        failing_move: e.failing_move,
        detail: &e.detail,
        repro: &e.repro,
        script: e.script.as_deref(),
    }
}

fn finding<'a>(src: &Source, f: &'a super::Finding) -> JsonFinding<'a> {
    let d = &f.diag;
    let parts = crate::diag::Parts::of(src);
    // lines are those of the file they are in (a variant or its base)
    let place = |at: u32| match &parts {
        Some(p) => {
            let (s, off) = p.locate(at);
            let (l, c) = position(s, off);
            (s.name.clone(), l, c)
        }
        None => {
            let (l, c) = position(src, at);
            (src.name.clone(), l, c)
        }
    };
    let (file, line, column) = d
        .span()
        .map_or((src.name.clone(), 0, 0), |s| place(s.start));
    let labels = d
        .labels
        .iter()
        .map(|(span, text)| {
            let (file, line, column) = place(span.start);
            JsonLabel {
                text,
                file,
                start: span.start,
                end: span.end,
                line,
                column,
            }
        })
        .collect();
    JsonFinding {
        code: &d.code,
        origin: match f.origin {
            Origin::Checker => "checker",
            Origin::Lint => "lint",
            Origin::Simulation => "simulation",
        },
        severity: if d.is_error() { "error" } else { "warning" },
        message: &d.message,
        file,
        line,
        column,
        labels,
        help: d.help.as_deref(),
        evidence: f.evidence.as_ref().map(evidence),
    }
}

fn file(f: &FileReport) -> JsonFile<'_> {
    JsonFile {
        // the path itself: a variant's name also names its base
        file: f.source.path(),
        verdict: f.verdict().key(),
        errors: f.errors(),
        warnings: f.warnings(),
        silenced: f.silenced,
        linted: f.linted,
        unreadable: f.unreadable.as_deref(),
        findings: f.findings.iter().map(|x| finding(&f.source, x)).collect(),
        shown_with: f.shown_with.as_deref(),
        simulation: f.sim.as_ref().map(super::json_sim::simulation),
    }
}

impl Report {
    /// The whole report as one line of JSON (with a final newline).
    pub fn to_json(&self, elapsed: Option<Duration>) -> String {
        let r = JsonReport {
            verdict: self.verdict().key(),
            errors: self.files.iter().map(FileReport::errors).sum(),
            warnings: self.files.iter().map(FileReport::warnings).sum(),
            elapsed_ms: elapsed.map(|t| (t.as_secs_f64() * 1e6).round() / 1000.0),
            files: self.files.iter().map(file).collect(),
        };
        let mut s = serde_json::to_string(&r).unwrap_or_else(|e| {
            format!("{{\"verdict\":\"unsound\",\"error\":\"cannot write JSON: {e}\"}}")
        });
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        let s = serde_json::to_string("a\"b\\c\nd\te\u{1}f").expect("a string");
        assert_eq!(s, r#""a\"b\\c\nd\te\u0001f""#);
    }

    #[test]
    fn positions_count_characters() {
        let src = Source::new("x", "ab\néé x");
        assert_eq!(position(&src, 0), (1, 1));
        assert_eq!(position(&src, 3), (2, 1));
        assert_eq!(position(&src, 8), (2, 4));
    }
}
