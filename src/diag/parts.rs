//! A rules variant is checked as one text (its base, then its own lines),
//! but reported as two files: a finding in the variant's lines shows the
//! variant's path and its own line numbers, one in the base's lines the
//! base's path and lines. [`Parts`] maps offsets and diagnostics of the
//! combined text back to the file they are in; `Diagnostics` renders
//! through it, and rulecheck places its findings with it.

use super::{Diagnostic, Source, Span};

/// The two files behind a variant's combined text.
pub struct Parts {
    pub base: Source,
    pub own: Source,
    base_len: u32,
}

/// How `load::read_rules` names a variant read with its base.
const SEAM: &str = " (after its base ";

impl Source {
    /// The path of the file itself: for a variant, its own path, without
    /// the base that `load::read_rules` names after it.
    pub fn path(&self) -> &str {
        self.name
            .split_once(SEAM)
            .map_or(&self.name, |(own, _)| own)
    }

    /// How many lines a variant's base takes in the combined text (0 for
    /// a plain file).
    fn base_lines(&self) -> usize {
        match self.base_len as usize {
            0 => 0,
            n if n > self.text.len() => 0,
            n => self.line_of(n as u32 - 1),
        }
    }

    /// Where a 1-based line of this text is written: for a variant, the
    /// path of the file it is in (its base's or its own) and its line
    /// there; for a plain file, `None` and the line itself.
    pub fn file_line(&self, line: usize) -> (Option<&str>, usize) {
        let base = self.base_lines();
        let Some((own, base_name)) = self.name.split_once(SEAM).filter(|_| base > 0) else {
            return (None, line);
        };
        if line > base {
            (Some(own), line - base)
        } else {
            (Some(base_name.strip_suffix(')').unwrap_or(base_name)), line)
        }
    }

    /// [`Source::file_line`] of the line holding a byte offset.
    pub fn place(&self, offset: u32) -> (Option<&str>, usize) {
        self.file_line(self.line_of(offset))
    }

    /// The line holding a byte offset as a reader names it: `12` in a
    /// plain file, `3 of v.rules` or `187 of ../b.rules` in a variant (its
    /// own line or its base's), as `grail graph` labels its nodes.
    pub fn line_label(&self, offset: u32) -> String {
        match self.place(offset) {
            (Some(file), line) => format!("{line} of {file}"),
            (None, line) => line.to_string(),
        }
    }
}

impl Parts {
    /// The parts of a variant's source (`None` for a plain file).
    pub fn of(src: &Source) -> Option<Parts> {
        if src.base_len == 0 || src.base_len as usize > src.text.len() {
            return None;
        }
        let (own_name, base_name) = match src.name.split_once(SEAM) {
            Some((a, b)) => (a.to_string(), b.trim_end_matches(')').to_string()),
            None => (src.name.clone(), format!("the base of {}", src.name)),
        };
        let cut = src.base_len as usize;
        Some(Parts {
            base: Source::new(base_name, &src.text[..cut - 1]),
            own: Source::new(own_name, &src.text[cut..]),
            base_len: src.base_len,
        })
    }

    /// The file an offset of the combined text is in, and the offset there.
    pub fn locate(&self, offset: u32) -> (&Source, u32) {
        if offset >= self.base_len {
            (&self.own, offset - self.base_len)
        } else {
            (&self.base, offset.min(self.base.text.len() as u32))
        }
    }

    /// `path:line` of an offset of the combined text.
    pub fn where_is(&self, offset: u32) -> String {
        let (src, at) = self.locate(offset);
        format!("{}:{}", src.name, src.line_of(at))
    }

    /// A diagnostic moved into the file of its first label; labels in the
    /// other file become `also at PATH:LINE` lines of its help.
    pub fn place(&self, d: &Diagnostic) -> (&Source, Diagnostic) {
        let first = d.span().map_or(self.base_len, |s| s.start);
        let own = first >= self.base_len;
        let src = if own { &self.own } else { &self.base };
        let mut out = d.clone();
        out.labels.clear();
        let mut also = Vec::new();
        for (span, text) in &d.labels {
            if (span.start >= self.base_len) == own {
                let shift = if own { self.base_len } else { 0 };
                let end = span.end.max(span.start) - shift;
                let end = end.min(src.text.len() as u32);
                out.labels.push((
                    Span::new((span.start - shift) as usize, end as usize),
                    text.clone(),
                ));
            } else {
                also.push(format!("also at {}: {text}", self.where_is(span.start)));
            }
        }
        if !also.is_empty() {
            let help = out.help.take().map_or(String::new(), |h| h + "\n");
            out.help = Some(help + &also.join("\n"));
        }
        (src, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_their_file() {
        let mut src = Source::new("v.rules (after its base ../b.rules)", "a\nb\nc\nx\ny");
        src.base_len = 6;
        let p = Parts::of(&src).expect("a variant");
        assert_eq!(&*p.base.text, "a\nb\nc");
        assert_eq!(&*p.own.text, "x\ny");
        assert_eq!(p.where_is(2), "../b.rules:2");
        assert_eq!(p.where_is(8), "v.rules:2");
        let d = Diagnostic::warning("x", "m")
            .label(Span::new(8, 9), "here")
            .label(Span::new(0, 1), "there");
        let (s, d) = p.place(&d);
        assert_eq!(s.name, "v.rules");
        assert_eq!(src.path(), "v.rules");
        assert_eq!(p.base.path(), "../b.rules");
        assert_eq!(d.labels[0].0, Span::new(2, 3));
        assert!(d.help.unwrap().contains("also at ../b.rules:1: there"));
        assert_eq!(src.file_line(3), (Some("../b.rules"), 3));
        assert_eq!(src.file_line(4), (Some("v.rules"), 1));
        assert_eq!(src.place(8), (Some("v.rules"), 2));
        let plain = Source::new("p.rules", "a\nb");
        assert_eq!(plain.place(2), (None, 2));
        assert_eq!(plain.line_label(2), "2");
        assert_eq!(src.line_label(8), "2 of v.rules");
        assert_eq!(src.line_label(0), "1 of ../b.rules");
    }
}
