//! A lossless lexer for rules files: words, numbers, strings, operators and
//! comments with their byte spans. It never fails (an unknown character is a
//! one-character `Punct`), so the formatter and the language server can read
//! broken files. The grammar stays the source of truth for what parses.

use crate::diag::Span;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An identifier or keyword.
    Word,
    /// An integer, with its minus sign when the sign is not an operator.
    Int,
    /// A string literal (possibly unterminated, up to the line's end).
    Str,
    /// An operator or bracket.
    Punct,
    /// A `#` comment up to the line's end.
    Comment,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub span: Span,
}

impl Token {
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.span.start as usize..self.span.end as usize]
    }
}

/// Words that start a top-level declaration (the parser's own list).
pub const DECL_KEYWORDS: &[&str] = crate::syntax::ITEM_WORDS;

/// Every word of the language: the declaration words, then the reserved ones.
pub fn keywords() -> impl Iterator<Item = &'static str> {
    DECL_KEYWORDS.iter().chain(crate::syntax::RESERVED).copied()
}

/// A word of the language: a declaration word or a reserved word.
pub fn is_keyword(w: &str) -> bool {
    DECL_KEYWORDS.contains(&w) || crate::syntax::RESERVED.contains(&w)
}

/// Two-character operators, longest match first.
const OPS2: &[&str] = &["..", "->", "=>", "==", "!=", "<=", ">=", "+=", "-="];

/// Whether a token ends an operand, so a following `-` is binary.
fn ends_operand(t: &Token, src: &str) -> bool {
    match t.kind {
        Kind::Int | Kind::Str => true,
        Kind::Word => {
            let w = t.text(src);
            !is_keyword(w) || matches!(w, "true" | "false" | "none")
        }
        Kind::Punct => matches!(t.text(src), ")" | "]"),
        Kind::Comment => false,
    }
}

/// Split `src` into tokens (whitespace dropped).
pub fn lex(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = if c == b' ' || c == b'\t' || c == b'\r' || c == b'\n' {
            i += 1;
            continue;
        } else if c == b'#' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            Kind::Comment
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            if i < b.len() && b[i] == b'"' {
                i += 1;
            }
            Kind::Str
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            Kind::Word
        } else if c.is_ascii_digit()
            || (c == b'-'
                && b.get(i + 1).is_some_and(u8::is_ascii_digit)
                && !out
                    .iter()
                    .rev()
                    .find(|t| t.kind != Kind::Comment)
                    .is_some_and(|t| ends_operand(t, src)))
        {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            Kind::Int
        } else if OPS2.iter().any(|op| src.get(i..i + 2) == Some(op)) {
            i += 2;
            Kind::Punct
        } else {
            // One character (a whole UTF-8 sequence).
            i += src[i..].chars().next().map_or(1, char::len_utf8);
            Kind::Punct
        };
        out.push(Token {
            kind,
            span: Span::new(start, i),
        });
    }
    out
}

/// The tokens inside the `{...}` parts of a string token (labels and card
/// names), with spans in the file.
pub fn lex_string_parts(src: &str, string: &Token) -> Vec<Token> {
    let text = string.text(src);
    let base = string.span.start as usize;
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(open) = text[rest..].find('{') {
        let from = rest + open + 1;
        let Some(close) = text[from..].find('}') else {
            break;
        };
        for t in lex(&text[from..from + close]) {
            out.push(Token {
                kind: t.kind,
                span: Span::new(
                    base + from + t.span.start as usize,
                    base + from + t.span.end as usize,
                ),
            });
        }
        rest = from + close + 1;
    }
    out
}
