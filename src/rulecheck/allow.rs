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

use super::lints::{self, INVALID_ALLOW};
use crate::diag::{Diagnostic, Span, did_you_mean};

/// The directives of one file.
#[derive(Clone, Debug, Default)]
pub struct Allows {
    file: Vec<String>,
    /// (1-based line, lint name)
    lines: Vec<(usize, String)>,
    /// Problems with the directives themselves (`invalid-allow`).
    pub problems: Vec<Diagnostic>,
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

    /// Parse `allow(a, b) allow-file(c)` starting at byte `at` of the file.
    fn directives(&mut self, text: &str, at: usize, target: Option<usize>) {
        let mut rest = text;
        let mut first = true;
        loop {
            let skipped = rest.len() - rest.trim_start_matches([' ', '\t', ',', '\r']).len();
            rest = &rest[skipped..];
            let here = at + (text.len() - rest.len());
            if rest.is_empty() {
                return;
            }
            let (whole_file, after) = if let Some(r) = rest.strip_prefix("allow-file(") {
                (true, r)
            } else if let Some(r) = rest.strip_prefix("allow(") {
                (false, r)
            } else if !first {
                // the reason, after the directives
                return;
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
                self.name(
                    name,
                    Span::new(span_start, span_start + name.len()),
                    whole_file,
                    target,
                );
            }
            if !any {
                self.malformed(Span::new(here, names_at + close + 1));
            }
            rest = &after[close + 1..];
            first = false;
        }
    }

    fn name(&mut self, name: &str, span: Span, whole_file: bool, target: Option<usize>) {
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
            return;
        }
        match (whole_file, target) {
            (true, _) => self.file.push(name.to_string()),
            (false, Some(line)) => self.lines.push((line, name.to_string())),
            (false, None) => self.problems.push(INVALID_ALLOW.at(
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
