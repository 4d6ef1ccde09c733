//! `--json`: the report as one JSON object, written by hand (no JSON
//! dependency). Shape:
//!
//! ```text
//! {"verdict":"sound|warnings|unsound","errors":N,"warnings":N,"elapsed_ms":F,
//!  "files":[{"file":S,"verdict":S,"errors":N,"warnings":N,"silenced":N,"linted":B,
//!            "unreadable":S|null,"findings":[{"code":S,"origin":"checker|lint|simulation",
//!            "severity":"error|warning","message":S,"line":N,"column":N,
//!            "labels":[{"text":S,"start":N,"end":N,"line":N,"column":N}],"help":S|null,
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
use std::fmt::Write;
use std::time::Duration;

/// Append `s` as a JSON string literal.
pub fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

pub(super) fn opt_string(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.push_str("null"),
    }
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

fn evidence(out: &mut String, e: Option<&Evidence>) {
    let Some(e) = e else {
        out.push_str("null");
        return;
    };
    out.push_str("{\"column\":");
    string(out, &e.column);
    let moves: Vec<String> = e.moves.iter().map(u32::to_string).collect();
    let _ = write!(
        out,
        ",\"players\":{},\"game\":{},\"seed\":{},\"moves\":[{}],\"failing_move\":{},\"detail\":",
        e.players,
        e.game,
        e.seed,
        moves.join(","),
        e.failing_move
    );
    string(out, &e.detail);
    out.push_str(",\"repro\":");
    string(out, &e.repro);
    out.push_str(",\"script\":");
    opt_string(out, e.script.as_deref());
    out.push('}');
}

fn finding(out: &mut String, src: &Source, f: &super::Finding) {
    let (origin, d) = (f.origin, &f.diag);
    out.push_str("{\"code\":");
    string(out, &d.code);
    out.push_str(",\"origin\":");
    string(
        out,
        match origin {
            Origin::Checker => "checker",
            Origin::Lint => "lint",
            Origin::Simulation => "simulation",
        },
    );
    out.push_str(",\"severity\":");
    string(out, if d.is_error() { "error" } else { "warning" });
    out.push_str(",\"message\":");
    string(out, &d.message);
    let parts = super::split::Parts::of(src);
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
    out.push_str(",\"file\":");
    string(out, &file);
    let _ = write!(out, ",\"line\":{line},\"column\":{column},\"labels\":[");
    for (i, (span, text)) in d.labels.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"text\":");
        string(out, text);
        let (file, line, column) = place(span.start);
        out.push_str(",\"file\":");
        string(out, &file);
        let _ = write!(
            out,
            ",\"start\":{},\"end\":{},\"line\":{line},\"column\":{column}}}",
            span.start, span.end
        );
    }
    out.push_str("],\"help\":");
    opt_string(out, d.help.as_deref());
    out.push_str(",\"evidence\":");
    evidence(out, f.evidence.as_ref());
    out.push('}');
}

fn file(out: &mut String, f: &FileReport) {
    out.push_str("{\"file\":");
    string(out, &f.source.name);
    out.push_str(",\"verdict\":");
    string(out, f.verdict().key());
    let _ = write!(
        out,
        ",\"errors\":{},\"warnings\":{},\"silenced\":{},\"linted\":{},\"unreadable\":",
        f.errors(),
        f.warnings(),
        f.silenced,
        f.linted
    );
    opt_string(out, f.unreadable.as_deref());
    out.push_str(",\"findings\":[");
    for (i, x) in f.findings.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        finding(out, &f.source, x);
    }
    out.push_str("],\"shown_with\":");
    opt_string(out, f.shown_with.as_deref());
    out.push_str(",\"simulation\":");
    match &f.sim {
        Some(sim) => super::json_sim::simulation(out, sim),
        None => out.push_str("null"),
    }
    out.push('}');
}

impl Report {
    /// The whole report as one line of JSON (with a final newline).
    pub fn to_json(&self, elapsed: Option<Duration>) -> String {
        let mut out = String::from("{\"verdict\":");
        string(&mut out, self.verdict().key());
        let errors: usize = self.files.iter().map(FileReport::errors).sum();
        let warnings: usize = self.files.iter().map(FileReport::warnings).sum();
        let _ = write!(out, ",\"errors\":{errors},\"warnings\":{warnings}");
        if let Some(t) = elapsed {
            let _ = write!(out, ",\"elapsed_ms\":{:.3}", t.as_secs_f64() * 1000.0);
        }
        out.push_str(",\"files\":[");
        for (i, f) in self.files.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            file(&mut out, f);
        }
        out.push_str("]}\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        let mut s = String::new();
        string(&mut s, "a\"b\\c\nd\te\u{1}f\u{7f}é`");
        assert_eq!(s, r#""a\"b\\c\nd\te\u0001f\u007fé`""#);
    }

    #[test]
    fn positions_count_characters() {
        let src = Source::new("x", "ab\néé x");
        assert_eq!(position(&src, 0), (1, 1));
        assert_eq!(position(&src, 3), (2, 1));
        assert_eq!(position(&src, 8), (2, 4));
    }
}
