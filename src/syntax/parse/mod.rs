//! Builds the AST from pest's parse tree: one function per grammar rule,
//! split by grammar area into `decl.rs` (declarations), `stmt.rs`
//! (statements and option arms), `label.rs` (string labels with `{expr}`
//! parts) and `expr.rs` (expressions). This file owns the `Builder`, its
//! token helpers (spans, names, numbers, strings) and the entry points.

mod decl;
mod expr;
mod label;
mod stmt;

use super::ast::*;
use super::{Rule, RulesParser};
use crate::diag::code;
use crate::diag::{Diagnostic, Span};
use pest::Parser;
use pest::iterators::{Pair, Pairs};

pub(crate) struct Builder {
    pub errors: Vec<Diagnostic>,
    /// Offset added to every span (for labels parsed out of a string).
    offset: usize,
}

impl Builder {
    pub fn new() -> Builder {
        Builder {
            errors: Vec::new(),
            offset: 0,
        }
    }

    pub fn set_offset(&mut self, offset: usize) {
        self.offset = offset;
    }

    pub(super) fn span(&self, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        Span::new(s.start() + self.offset, s.end() + self.offset)
    }

    pub(super) fn name(&self, p: Pair<Rule>) -> Name {
        Name {
            text: p.as_str().to_string(),
            span: self.span(&p),
        }
    }

    pub(super) fn int(&mut self, p: Pair<Rule>) -> i64 {
        self.int_read(p).unwrap_or(0)
    }

    /// A number, or `None` when it does not fit (reported here), so that a
    /// declaration can skip checks that would only echo this error.
    pub(super) fn int_read(&mut self, p: Pair<Rule>) -> Option<i64> {
        match p.as_str().parse::<i64>() {
            Ok(v) if v.abs() <= i32::MAX as i64 => Some(v),
            _ => {
                let span = self.span(&p);
                self.errors.push(
                    Diagnostic::error(code::NUMBER_TOO_LARGE, "number too large")
                        .label(span, "this does not fit in 32 bits")
                        .help("numbers in rules files range from -2147483647 to 2147483647"),
                );
                None
            }
        }
    }

    pub(super) fn string(&self, p: Pair<Rule>) -> String {
        p.into_inner()
            .next()
            .map(|i| i.as_str().to_string())
            .unwrap_or_default()
    }

    pub fn file(&mut self, p: Pair<Rule>) -> File {
        let mut file = File::default();
        for item in p.into_inner() {
            if item.as_rule() == Rule::EOI {
                continue;
            }
            file.items.push(self.item(item));
        }
        file
    }
}

/// `c3` -> (2, 2): the letter is the column (x), the number the row (y), both from 0.
pub fn cell_coords(name: &str) -> (i64, i64) {
    let x = name.as_bytes()[0] as i64 - b'a' as i64;
    let y = name[1..].parse::<i64>().unwrap_or(0) - 1;
    (x, y)
}

/// Parse a whole file (errors are returned raw; `errors.rs` turns them into diagnostics).
pub(crate) fn parse_raw(text: &str) -> Result<Pairs<'_, Rule>, pest::error::Error<Rule>> {
    RulesParser::parse(Rule::file, text)
}
