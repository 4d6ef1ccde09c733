//! Labels of option arms: a string split into text and `{expression}` parts,
//! each expression parsed alone with spans pointing into the file.

use super::Builder;
use crate::diag::code;
use crate::diag::{Diagnostic, Span};
use crate::syntax::ast::*;
use crate::syntax::{Rule, RulesParser};
use pest::Parser;
use pest::iterators::Pair;

impl Builder {
    /// Split a label into text and `{expr}` parts, parsing each expression.
    pub(super) fn interp(&mut self, p: Pair<Rule>) -> Interp {
        let span = self.span(&p);
        let inner = p.into_inner().next().expect("string_inner");
        let base = inner.as_span().start() + self.offset;
        let text = inner.as_str();
        let mut parts = Vec::new();
        let mut rest = 0;
        while let Some(open) = text[rest..].find('{') {
            let open = rest + open;
            if open > rest {
                parts.push(InterpPart::Text(text[rest..open].to_string()));
            }
            let Some(close) = text[open..].find('}') else {
                self.errors.push(
                    Diagnostic::error(code::UNCLOSED_LABEL, "unclosed `{` in a label")
                        .label(Span::new(base + open, base + open + 1), "opened here")
                        .help("close the expression with `}`"),
                );
                return Interp { parts, span };
            };
            let close = open + close;
            let src = &text[open + 1..close];
            match RulesParser::parse(Rule::expr_only, src) {
                Ok(mut pairs) => {
                    let saved = self.offset;
                    self.offset = base + open + 1;
                    let e = pairs
                        .next()
                        .expect("expr_only")
                        .into_inner()
                        .next()
                        .expect("expr");
                    parts.push(InterpPart::Expr(self.expr(e)));
                    self.offset = saved;
                }
                Err(_) => self.errors.push(
                    Diagnostic::error(
                        code::UNCLOSED_LABEL,
                        "this label holds an expression that does not parse",
                    )
                    .label(
                        Span::new(base + open, base + close + 1),
                        "not an expression",
                    )
                    .help("inside `{ }` write an expression such as `{c}` or `{pos(c) + 1}`"),
                ),
            }
            rest = close + 1;
        }
        if rest < text.len() {
            parts.push(InterpPart::Text(text[rest..].to_string()));
        }
        Interp { parts, span }
    }
}
