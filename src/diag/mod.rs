//! Diagnostics: every problem found in a rules file, as a miette report with
//! a stable code, the file, labelled spans and a help line. Stages collect
//! them into a [`Diagnostics`] list instead of stopping at the first.

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, Severity};
use std::fmt;
use std::sync::Arc;

mod parts;
pub use parts::Parts;

/// The stable codes of the front end's diagnostics: `E00xx` syntax,
/// `E01xx` meaning. Code that emits, filters or matches diagnostics names
/// them through these constants (never a string literal); the codes are
/// stable, so tools and tests may match on them.
pub mod code {
    /// A rules file that cannot be read: missing, unreadable, not UTF-8.
    pub const UNREADABLE: &str = "E0000";
    /// Text the grammar does not accept.
    pub const SYNTAX: &str = "E0001";
    /// A string not closed on its line.
    pub const UNTERMINATED_STRING: &str = "E0002";
    /// A `{` in a label that is never closed.
    pub const UNCLOSED_LABEL: &str = "E0003";
    /// A number that does not fit in 32 bits.
    pub const NUMBER_TOO_LARGE: &str = "E0004";
    /// A `{` never closed, or a `}` that closes nothing.
    pub const UNBALANCED_BRACE: &str = "E0005";
    /// A reserved word used as a name.
    pub const RESERVED_WORD: &str = "E0006";
    /// A size limit of the language passed (nesting, length).
    pub const LIMIT: &str = "E0030";
    /// A name that is not declared.
    pub const UNKNOWN_NAME: &str = "E0101";
    /// A name declared twice.
    pub const DUPLICATE: &str = "E0102";
    /// A value of the wrong type.
    pub const TYPE_MISMATCH: &str = "E0103";
    /// A call with the wrong number of arguments.
    pub const ARITY: &str = "E0104";
    /// A deck whose entries do not make its declared size, or an entry
    /// with a negative number of copies.
    pub const DECK_SIZE: &str = "E0105";
    /// An option with an empty range, or a default outside it.
    pub const OPTION_RANGE: &str = "E0106";
    /// A phase nothing reaches (a warning).
    pub const UNREACHABLE_PHASE: &str = "E0107";
    /// A game that can never end.
    pub const NO_END: &str = "E0108";
    /// A declaration every game needs is missing (`game`, `start`, `winners`, a board's size).
    pub const MISSING_DECLARATION: &str = "E0109";
    /// An impossible player count or board size, or cells outside the board.
    pub const BAD_SIZE: &str = "E0110";
    /// A type name that is not a type.
    pub const UNKNOWN_TYPE: &str = "E0111";
    /// `break` outside a loop.
    pub const BREAK_OUTSIDE_LOOP: &str = "E0112";
    /// A table without a value for every key.
    pub const TABLE_INCOMPLETE: &str = "E0113";
    /// A function that calls itself.
    pub const RECURSION: &str = "E0114";
    /// An option assigned by the rules.
    pub const ASSIGN_OPTION: &str = "E0115";
    /// A variant whose base cannot be read, or bases in a circle or too deep.
    pub const VARIANT_BASE: &str = "E0116";
    /// More cards than a game may have.
    pub const TOO_MANY_CARDS: &str = "E0117";
    /// Too many function expansions.
    pub const TOO_MANY_EXPANSIONS: &str = "E0118";
    /// A `match` that does not cover every value of its enum.
    pub const MATCH_NOT_COVERING: &str = "E0120";
    /// A value matched by two arms of a `match`.
    pub const MATCHED_TWICE: &str = "E0121";
}

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// A rules file's name and text, shared by all its diagnostics.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: Arc<str>,
    /// For a variant: where its own text starts, after its base's.
    pub base_len: u32,
    /// For a variant of a variant: where each file of its base starts
    /// (after the first), in order; `base_len` is the last seam.
    pub inner_seams: Vec<u32>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
            base_len: 0,
            inner_seams: Vec::new(),
        }
    }
    /// Where each file after the first starts: a variant's bases' seams,
    /// then its own (empty for a plain file).
    pub fn seams(&self) -> impl Iterator<Item = u32> + '_ {
        let own = (self.base_len > 0).then_some(self.base_len);
        self.inner_seams.iter().copied().chain(own)
    }
    /// 1-based line number of a byte offset.
    pub fn line_of(&self, offset: u32) -> usize {
        let end = (offset as usize).min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1
    }
}

/// `at` moved back to the start of the character it falls in, and into
/// `text`. A span found while repairing a broken file may end inside the
/// repair's own text, which can fall within a character of the file.
fn floor_char(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `at` moved on to the end of the character it falls in, and into `text`.
fn ceil_char(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// One problem in a rules file.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Stable code, for example `E0101`, or a lint name such as `unused-var`.
    pub code: String,
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<(Span, String)>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code: code.to_string(),
            severity: Severity::Error,
            message: message.into(),
            labels: Vec::new(),
            help: None,
        }
    }
    pub fn warning(code: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.labels.push((span, text.into()));
        self
    }
    pub fn help(mut self, text: impl Into<String>) -> Diagnostic {
        self.help = Some(text.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// The first label's span, if any.
    pub fn span(&self) -> Option<Span> {
        self.labels.first().map(|l| l.0)
    }
}

/// A diagnostic bound to its source, so miette can render it.
#[derive(Debug)]
pub struct Report<'a> {
    pub diag: &'a Diagnostic,
    pub src: NamedSource<Arc<str>>,
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.diag.code))
    }
    fn severity(&self) -> Option<Severity> {
        Some(self.diag.severity)
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let src: &str = self.src.inner();
        Some(Box::new(self.diag.labels.iter().map(
            move |(span, text)| {
                // whole characters only: miette slices the text at the span
                let start = floor_char(src, span.start as usize);
                let end = ceil_char(src, (span.end as usize).max(start));
                let len = if end > start {
                    end - start
                } else {
                    // an empty span marks its character (one column at the end)
                    (ceil_char(src, start + 1) - start).max(1)
                };
                LabeledSpan::new(Some(text.clone()), start, len)
            },
        )))
    }
}

/// All the problems found in one rules file.
#[derive(Clone, Debug)]
pub struct Diagnostics {
    pub source: Source,
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn new(source: Source) -> Diagnostics {
        Diagnostics {
            source,
            items: Vec::new(),
        }
    }
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }
    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.is_error()).count()
    }
    /// Sort by position so reports read top to bottom.
    pub fn sort(&mut self) {
        self.items.sort_by_key(|d| {
            (
                d.span().map(|s| s.start).unwrap_or(u32::MAX),
                d.code.clone(),
            )
        });
    }

    /// Render every diagnostic as miette would, without colour (for tests and pipes).
    pub fn render_plain(&self) -> String {
        self.render_with(
            GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()),
            false,
        )
    }

    /// Render for a terminal: colour unless `NO_COLOR` is set or stderr is not a tty.
    pub fn render_auto(&self) -> String {
        use std::io::IsTerminal;
        if std::env::var_os("NO_COLOR").is_some() || !std::io::stderr().is_terminal() {
            self.render_plain()
        } else {
            self.render_with(GraphicalReportHandler::new(), true)
        }
    }

    /// Rendered with `handler`; control and invisible characters (from a
    /// file name, or a text that was not refused on reading) are shown
    /// escaped, and with `color`, miette's colour sequences are kept.
    fn render_with(&self, handler: GraphicalReportHandler, color: bool) -> String {
        let handler = handler.with_width(100);
        let mut out = String::new();
        // A variant's text is its base's and then its own: each problem is
        // shown in the file its first label is in, with that file's lines.
        let parts = Parts::of(&self.source);
        for d in &self.items {
            let placed = parts.as_ref().map(|p| p.place(d));
            let (src, d) = match &placed {
                Some((src, d)) => (*src, d),
                None => (&self.source, d),
            };
            let report = Report {
                diag: d,
                src: NamedSource::new(src.name.clone(), src.text.clone()),
            };
            if too_wide(src, d) {
                render_unframed(src, &mut out, d);
            } else {
                let _ = handler.render_report(&mut out, &report);
            }
            out.push('\n');
        }
        let errors = self.error_count();
        let warnings = self.items.len() - errors;
        let name = parts.as_ref().map_or(&self.source.name, |p| &p.own.name);
        out.push_str(&format!(
            "{name}: {errors} error(s), {warnings} warning(s)\n"
        ));
        match crate::sanitize::clean_with(&out, color) {
            std::borrow::Cow::Borrowed(_) => out,
            std::borrow::Cow::Owned(clean) => clean,
        }
    }
}

/// Whether a label sits so far along its line that miette cannot draw
/// it (its padding is limited to 65,535 columns).
fn too_wide(source: &Source, d: &Diagnostic) -> bool {
    let text = &source.text;
    d.labels.iter().any(|(span, _)| {
        let end = floor_char(text, span.end as usize);
        let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        end - start > 50_000
    })
}

/// A diagnostic without its source excerpt: title, place, labels, help.
fn render_unframed(source: &Source, out: &mut String, d: &Diagnostic) {
    use std::fmt::Write;
    let _ = writeln!(out, "{}\n\n  × {}", d.code, d.message);
    for (span, label) in &d.labels {
        let at = floor_char(&source.text, span.start as usize);
        let line_start = source.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let col = source.text[line_start..at].chars().count() + 1;
        let line = source.line_of(span.start);
        let _ = writeln!(
            out,
            "   [{}:{line}:{col}] {label} (the line is too long to show)",
            source.name
        );
    }
    if let Some(h) = &d.help {
        let _ = writeln!(out, "  help: {h}");
    }
}

/// Names longer than this get no "did you mean" (the distance costs the
/// product of the two lengths).
const MAX_SUGGEST_LEN: usize = 200;

/// The closest of `candidates` to `name`, for "did you mean" hints. Never
/// `name` itself; a swap of two neighbouring letters counts as one edit.
pub fn did_you_mean<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    if name.len() > MAX_SUGGEST_LEN {
        return None;
    }
    for c in candidates {
        if c == name || c.len() > MAX_SUGGEST_LEN {
            continue;
        }
        let d = if c.eq_ignore_ascii_case(name) {
            0
        } else {
            edit_distance(name, c)
        };
        let limit = (name.chars().count().max(c.chars().count()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and swaps of two neighbouring characters each cost one.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let sub = d[(i - 1) * w + j - 1] + usize::from(a[i - 1] != b[j - 1]);
                let mut v = sub.min(d[(i - 1) * w + j] + 1).min(d[i * w + j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[(i - 2) * w + j - 2] + 1);
                }
                v
            };
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn suggestions() {
        let names = ["black", "red", "threshold", "discard"];
        assert_eq!(did_you_mean("blakc", names.into_iter()), Some("black"));
        assert_eq!(
            did_you_mean("treshold", names.into_iter()),
            Some("threshold")
        );
        assert_eq!(did_you_mean("Red", names.into_iter()), Some("red"));
        assert_eq!(did_you_mean("discard", names.into_iter()), None);
        assert_eq!(did_you_mean("green", names.into_iter()), None);
    }
}
