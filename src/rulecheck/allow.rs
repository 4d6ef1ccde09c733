//! Silencing comments in a rules file:
//!
//! ```text
//! # rulecheck: allow(unused-var)              the next code line
//! var spare: int = 0  # rulecheck: allow(unused-var, write-only-var)   this line
//! # rulecheck: allow-file(missing-deck-size)  the whole file
//! ```
//!
//! A directive in a trailing comment applies to its own line; one on a line
//! of its own applies to the next line that is not only a comment (so a
//! directive can sit among the comments that explain it). A finding is
//! silenced when one of its labels starts on a line a directive applies to.
//! Text after the directives is the reason, and is not read
//! (`# rulecheck: allow(never-fired) the joker rule is rare by design`).
//! Malformed directives and unknown lint names are reported as
//! `invalid-allow`, with a did-you-mean.
//!
//! `allow(LINT) at NAME` silences by name instead of by line: the finding
//! is silenced when one of its labels starts inside the declaration called
//! NAME (a phase, turn or reaction with its body, an option, a variable, a
//! zone, an enum or a card kind), wherever that is. A variant uses it to
//! silence a line of its base, which it cannot put a comment above
//! (`# rulecheck: allow(unused-option) at penalty  no penalty here`). The
//! names are looked up once the file is compiled ([`Allows::resolve`]); a
//! name that nothing has is an `invalid-allow`, with a did-you-mean.

use super::lints::{self, INVALID_ALLOW};
use crate::check::hir::{Hir, StmtKind};
use crate::diag::{Diagnostic, Span, did_you_mean};

/// The directives of one file.
#[derive(Clone, Debug, Default)]
pub struct Allows {
    file: Vec<String>,
    /// (1-based line, lint name)
    lines: Vec<(usize, String)>,
    /// `allow(...) at NAME` directives.
    named: Vec<Named>,
    /// Problems with the directives themselves (`invalid-allow`).
    pub problems: Vec<Diagnostic>,
}

/// A directive that silences by name (`allow(LINT) at NAME`).
#[derive(Clone, Debug)]
struct Named {
    lints: Vec<String>,
    name: String,
    /// Where the name is written, for `invalid-allow`.
    span: Span,
    /// What it names, as spans of the checked text (set by `resolve`).
    ranges: Vec<Span>,
}

impl Allows {
    pub fn parse(text: &str) -> Allows {
        let mut a = Allows::default();
        let lines: Vec<(usize, &str)> = line_starts(text);
        for (i, &(start, line)) in lines.iter().enumerate() {
            let Some(hash) = comment_start(line) else {
                continue;
            };
            let body = &line[hash + 1..];
            let trimmed = body.trim_start();
            let Some(rest) = trimmed.strip_prefix("rulecheck:") else {
                continue;
            };
            let at = start + hash + 1 + (body.len() - trimmed.len()) + "rulecheck:".len();
            let own_line = line[..hash].trim().is_empty();
            let target = if own_line {
                lines[i + 1..]
                    .iter()
                    .position(|(_, l)| !l.trim_start().starts_with('#'))
                    .map(|k| i + 1 + k + 1)
            } else {
                Some(i + 1)
            };
            a.directives(rest, at, target);
        }
        a
    }

    /// Whether `lint` is allowed on this 1-based line.
    pub fn silences(&self, lint: &str, line: usize) -> bool {
        self.file.iter().any(|l| l == lint)
            || self.lines.iter().any(|(n, l)| *n == line && l == lint)
    }

    /// Whether `lint` is allowed at this offset of the checked text by an
    /// `allow(...) at NAME` directive.
    pub fn silences_at(&self, lint: &str, offset: u32) -> bool {
        self.named.iter().any(|n| {
            n.lints.iter().any(|l| l == lint)
                && n.ranges
                    .iter()
                    .any(|r| r.start <= offset && offset < r.end.max(r.start + 1))
        })
    }

    /// Look up the names of `allow(...) at NAME` directives among the
    /// declarations of the compiled file; a name nothing has is a problem.
    /// `text` is the checked text (for the options' labels).
    pub fn resolve(&mut self, hir: &Hir, text: &str) {
        let decls = declarations(hir, text);
        for n in &mut self.named {
            n.ranges = decls
                .iter()
                .filter(|(d, _)| *d == n.name)
                .map(|(_, s)| *s)
                .collect();
            if !n.ranges.is_empty() {
                continue;
            }
            let what = "a phase, turn, reaction, option, variable, zone, enum, card kind or a choice's \"option label\"";
            let help = match did_you_mean(&n.name, decls.iter().map(|(d, _)| *d)) {
                Some(s) => format!("did you mean `{s}`? `at NAME` names {what}"),
                None => format!("`at NAME` names {what} of the rules or their base"),
            };
            self.problems.push(
                INVALID_ALLOW
                    .at(
                        n.span,
                        format!(
                            "nothing is named `{}`: this silence silences nothing",
                            n.name
                        ),
                        "no declaration has this name",
                    )
                    .help(help),
            );
        }
    }

    /// Parse `allow(a, b) allow-file(c) [at NAME]` starting at byte `at` of
    /// the file.
    fn directives(&mut self, text: &str, at: usize, target: Option<usize>) {
        let mut rest = text;
        let mut first = true;
        // the lints of `allow(...)`, for the next line or for `at NAME`
        let mut pending: Vec<(String, Span)> = Vec::new();
        let named = loop {
            let skipped = rest.len() - rest.trim_start_matches([' ', '\t', ',', '\r']).len();
            rest = &rest[skipped..];
            let here = at + (text.len() - rest.len());
            if rest.is_empty() {
                break None;
            }
            let (whole_file, after) = if let Some(r) = rest.strip_prefix("allow-file(") {
                (true, r)
            } else if let Some(r) = rest.strip_prefix("allow(") {
                (false, r)
            } else if !first {
                // `at NAME`, or the reason, after the directives
                break at_name(rest, here);
            } else {
                self.malformed(Span::new(here, at + text.trim_end().len()));
                return;
            };
            let Some(close) = after.find(')') else {
                self.malformed(Span::new(here, at + text.trim_end().len()));
                return;
            };
            let names_at = at + (text.len() - after.len());
            let mut any = false;
            let mut offset = 0;
            for raw in after[..close].split(',') {
                let name = raw.trim();
                let span_start = names_at + offset + (raw.len() - raw.trim_start().len());
                offset += raw.len() + 1;
                if name.is_empty() {
                    continue;
                }
                any = true;
                let span = Span::new(span_start, span_start + name.len());
                if !self.known(name, span) {
                    continue;
                }
                if whole_file {
                    self.file.push(name.to_string());
                } else {
                    pending.push((name.to_string(), span));
                }
            }
            if !any {
                self.malformed(Span::new(here, names_at + close + 1));
            }
            rest = &after[close + 1..];
            first = false;
        };
        match named {
            Some((name, span)) if !pending.is_empty() => self.named.push(Named {
                lints: pending.into_iter().map(|(l, _)| l).collect(),
                name,
                span,
                ranges: Vec::new(),
            }),
            Some((name, span)) => self.problems.push(INVALID_ALLOW.at(
                span,
                format!("`at {name}` follows no `allow(...)`"),
                "`at NAME` goes with `allow(LINT)`, not `allow-file(LINT)`",
            )),
            None => {
                for (name, span) in pending {
                    self.line(name, target, span);
                }
            }
        }
    }

    /// Whether `name` is a lint; an unknown name is a problem.
    fn known(&mut self, name: &str, span: Span) -> bool {
        if lints::lookup(name).is_none() {
            let known = lints::REGISTRY.iter().map(|l| l.name);
            let help = match did_you_mean(name, known) {
                Some(s) => format!("did you mean `{s}`? (`rulecheck --list` shows every lint)"),
                None => "`rulecheck --list` shows every lint".to_string(),
            };
            self.problems.push(
                INVALID_ALLOW
                    .at(
                        span,
                        format!("unknown lint `{name}` in a silencing comment"),
                        "no lint has this name",
                    )
                    .help(help),
            );
            return false;
        }
        true
    }

    /// `allow(name)` for the target line (`span`: where the name is).
    fn line(&mut self, name: String, target: Option<usize>, span: Span) {
        match target {
            Some(line) => self.lines.push((line, name)),
            None => self.problems.push(INVALID_ALLOW.at(
                span,
                format!("`allow({name})` applies to no line"),
                "no code follows this comment",
            )),
        }
    }

    fn malformed(&mut self, span: Span) {
        self.problems.push(INVALID_ALLOW.at(
            span,
            "malformed `# rulecheck:` comment",
            "expected `allow(LINT, ...)` or `allow-file(LINT, ...)`",
        ));
    }
}

/// `at NAME` at the start of `rest` (which is at byte `here`): the name
/// and where it is written. Anything else is the reason.
fn at_name(rest: &str, here: usize) -> Option<(String, Span)> {
    let after = rest.strip_prefix("at")?;
    let name = after.trim_start_matches([' ', '\t']);
    if name.len() == after.len() {
        return None; // `attack ...`: a reason
    }
    if let Some(quoted) = name.strip_prefix('"') {
        // an option's label: `at "draw a chip"`
        let len = quoted.find('"')?;
        let start = here + (rest.len() - quoted.len());
        return Some((quoted[..len].to_string(), Span::new(start, start + len)));
    }
    let len = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    let start = here + (rest.len() - name.len());
    (len > 0).then(|| (name[..len].to_string(), Span::new(start, start + len)))
}

/// Every name `at NAME` may give, with the span it covers: each phase,
/// turn and reaction from its name to the end of its body, each option,
/// variable, zone, enum and card kind's declaration, and each option of a
/// choice by its label (`"draw a chip"`, without the quotes).
fn declarations<'a>(hir: &'a Hir, text: &'a str) -> Vec<(&'a str, Span)> {
    let mut out = Vec::new();
    for p in &hir.procs {
        let mut end = p.span.end;
        super::values::walk_stmts(&p.body, &mut |s| {
            end = end.max(s.span.end);
            let (StmtKind::Choose { arms, .. } | StmtKind::Window { arms, .. }) = &s.kind else {
                return;
            };
            for a in arms {
                let label = text
                    .get(a.span.start as usize..a.span.end as usize)
                    .and_then(|t| t.strip_prefix('"'))
                    .and_then(|t| Some(&t[..t.find('"')?]));
                if let Some(label) = label {
                    out.push((label, a.span));
                }
            }
        });
        if p.span != Span::default() {
            out.push((
                p.name.as_str(),
                Span::new(p.span.start as usize, end as usize),
            ));
        }
    }
    let t = &hir.tables;
    let u = &hir.usage;
    let names = t
        .options
        .iter()
        .map(|o| o.name.as_str())
        .zip(&u.option_spans);
    let names = names.chain(t.vars.iter().map(|v| v.name.as_str()).zip(&u.var_spans));
    let names = names.chain(t.zones.iter().map(|z| z.name.as_str()).zip(&u.zone_spans));
    let names = names.chain(t.enums.iter().map(|e| e.name.as_str()).zip(&u.enum_spans));
    let names = names.chain(t.kinds.iter().map(|k| k.as_str()).zip(&u.kind_spans));
    out.extend(names.map(|(n, s)| (n, *s)));
    out
}

/// Each line with the byte offset where it starts.
fn line_starts(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split('\n') {
        out.push((start, line));
        start += line.len() + 1;
    }
    out
}

/// Where a `#` comment starts in a line, outside string literals.
pub(super) fn comment_start(line: &str) -> Option<usize> {
    let mut in_string = false;
    for (i, b) in line.bytes().enumerate() {
        match b {
            b'"' => in_string = !in_string,
            b'#' if !in_string => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        let text = "# intro\n# rulecheck: allow(unused-var)\n# more\nvar x: int\nvar y: int # rulecheck: allow(unused-zone, unused-enum)\n";
        let a = Allows::parse(text);
        assert!(a.problems.is_empty(), "{:?}", a.problems);
        assert!(a.silences("unused-var", 4));
        assert!(!a.silences("unused-var", 5));
        assert!(a.silences("unused-zone", 5) && a.silences("unused-enum", 5));
    }

    #[test]
    fn a_reason_may_follow() {
        let a = Allows::parse(
            "# rulecheck: allow(unused-var) nobody reads it yet, see issue 4\nvar x: int\nvar y: int # rulecheck: allow(unused-zone), allow(unused-enum) because\n",
        );
        assert!(a.problems.is_empty(), "{:?}", a.problems);
        assert!(a.silences("unused-var", 2));
        assert!(a.silences("unused-zone", 3) && a.silences("unused-enum", 3));
    }

    #[test]
    fn whole_file_and_strings() {
        let a = Allows::parse(
            "option o = 1 in 0..2 \"a # rulecheck: allow(unused-var)\"\n#rulecheck:allow-file(unused-option)",
        );
        assert!(a.silences("unused-option", 99));
        assert!(!a.silences("unused-var", 1));
    }

    #[test]
    fn at_a_name() {
        let text = "x\n# rulecheck: allow(unused-option, unused-var) at penalty  no penalty here\ny\n# rulecheck: allow(unused-var) attack is the reason\nz\n# rulecheck: allow-file(unused-var) at x\n";
        let a = Allows::parse(text);
        assert_eq!(a.named.len(), 1, "{:?}", a.named);
        let n = &a.named[0];
        assert_eq!(n.name, "penalty");
        assert_eq!(n.lints, ["unused-option", "unused-var"]);
        assert_eq!(&text[n.span.start as usize..n.span.end as usize], "penalty");
        // `at` names; it does not also apply to the next line
        assert!(!a.silences("unused-option", 3));
        // a reason that starts with `at...` is a reason
        assert!(a.silences("unused-var", 5));
        assert_eq!(a.problems.len(), 1, "{:?}", a.problems);
        assert!(
            a.problems[0]
                .message
                .contains("`at x` follows no `allow(...)`")
        );
    }

    #[test]
    fn problems() {
        let text = "# rulecheck: allow(unused-vars)\nx\n# rulecheck: alow(unused-var)\ny\n# rulecheck: allow()\nz\n# rulecheck: allow(unused-var";
        let a = Allows::parse(text);
        let msgs: Vec<&str> = a.problems.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(msgs.len(), 4, "{msgs:?}");
        assert!(
            a.problems[0]
                .help
                .as_deref()
                .unwrap()
                .contains("`unused-var`")
        );
        let s = a.problems[0].span().unwrap();
        assert_eq!(&text[s.start as usize..s.end as usize], "unused-vars");
    }
}
