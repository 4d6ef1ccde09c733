//! What the server knows about one open document: its text joined after its
//! bases (a variant's `extends` chain), the checker's diagnostics, and an
//! index of every declared name and every use of a name, with spans in the
//! joined text. The index is built from the tokens and from the
//! declarations that parsed, so a file with a syntax error keeps its
//! outline, hover and completion for the rest.

pub use super::decls::{Decl, DeclKind, ItemExtent, Local};
use super::text::{LineIndex, path_to_uri, uri_to_path};
use crate::diag::{Diagnostic, Source, Span};
use crate::fmt::lex::{self, Kind, Token};
use crate::load::variant_base;

use lsp_types::Uri;
use std::collections::HashMap;
use std::path::Path;

/// What a word in the text stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// A declaration's own name (index into `decls`).
    Decl(usize),
    /// A use of a top-level name or enum value.
    Ref(String),
    /// A name after `.`: an attribute, or a per-player or per-card variable or zone.
    Field(String),
    /// A parameter or local of the enclosing item.
    Local { item: usize, name: String },
    /// A built-in function, value or type, or a word the index does not know.
    Other,
}

/// One file of the joined text.
#[derive(Clone)]
pub struct FilePart {
    pub uri: Option<Uri>,
    pub text: String,
    pub offset: u32,
    pub lines: std::sync::Arc<LineIndex>,
}

pub struct Analysis {
    /// The bases first, the document itself last.
    pub files: Vec<FilePart>,
    pub joined: String,
    pub tokens: Vec<Token>,
    /// Every word outside strings and inside the `{...}` of strings, with its role.
    pub words: Vec<(Span, Role)>,
    pub decls: Vec<Decl>,
    pub items: Vec<ItemExtent>,
    pub diags: Vec<Diagnostic>,
    /// Diagnostics of rulecheck's static lints (warnings).
    pub lints: Vec<Diagnostic>,
    /// A problem reading the base files, if any.
    pub base_problem: Option<String>,
}

/// Built-in names of expressions (besides the built-in functions).
pub const BUILTIN_VALUES: &[&str] = &["players", "actor", "current", "player_count"];
/// Built-in type names.
pub const BUILTIN_TYPES: &[&str] = &["int", "bool", "player", "card", "zone", "pattern"];

impl Analysis {
    /// Analyse `text` (the document at `uri`); `open` gives the text of
    /// other open documents (bases are read from there first, then disk).
    pub fn new(uri: &Uri, text: &str, open: &dyn Fn(&Uri) -> Option<String>) -> Analysis {
        let mut chain = vec![(Some(uri.clone()), text.to_string())];
        let mut base_problem = None;
        let mut path = uri_to_path(uri);
        for _ in 0..crate::load::MAX_VARIANT_DEPTH {
            let Some(base) = variant_base(&chain[0].1) else {
                break;
            };
            let Some(p) = path.clone() else {
                base_problem = Some(format!("cannot find the base `{base}` of an unsaved file"));
                break;
            };
            let base_path = p.parent().unwrap_or(Path::new(".")).join(&base);
            let base_uri = std::fs::canonicalize(&base_path)
                .ok()
                .and_then(|c| path_to_uri(&c));
            // from disk: a regular file of bounded size (never the editor's
            // own messages through `/dev/stdin`, nor an endless `/dev/zero`)
            let base_text = match base_uri.as_ref().and_then(open) {
                Some(t) => Ok(t),
                None => crate::load::read_base_text(&base_path),
            };
            match base_text {
                Ok(t) => {
                    chain.insert(0, (base_uri, t));
                    path = Some(base_path);
                }
                Err(e) => {
                    base_problem = Some(format!(
                        "cannot read the base `{}`: {e}",
                        base_path.display()
                    ));
                    break;
                }
            }
        }
        let mut joined = String::new();
        let mut files = Vec::new();
        for (i, (u, t)) in chain.into_iter().enumerate() {
            if i > 0 {
                joined.push('\n');
            }
            files.push(FilePart {
                uri: u,
                offset: joined.len() as u32,
                lines: std::sync::Arc::new(LineIndex::new(&t)),
                text: t.clone(),
            });
            joined.push_str(&t);
        }
        let own = files.last().map_or(0, |f| f.offset);
        let mut source = Source::new(uri.as_str(), joined.as_str());
        source.base_len = own;
        // the seams of a variant's bases (a variant of a variant)
        let inner = files.len().saturating_sub(1);
        source.inner_seams = files.iter().take(inner).skip(1).map(|f| f.offset).collect();
        // The checker and rulecheck's static lints in one pass.
        let report = crate::rulecheck::check_source(source, &Default::default());
        let mut diags = Vec::new();
        let mut lints = Vec::new();
        for f in report.findings {
            if f.origin == crate::rulecheck::Origin::Checker {
                diags.push(f.diag);
            } else {
                let mut d = f.diag;
                d.severity = miette::Severity::Warning;
                lints.push(d);
            }
        }
        let (file, _) = crate::syntax::parse_file(&joined);
        let tokens = lex::lex(&joined);
        let items = extents(&joined, &tokens);
        let decls = super::decls::declarations(&joined, &file.items, &items);
        let words = roles(&joined, &tokens, &decls, &items);
        Analysis {
            files,
            joined,
            tokens,
            words,
            decls,
            items,
            diags,
            lints,
            base_problem,
        }
    }

    /// The index of the file part holding a joined offset.
    pub fn part_of(&self, offset: u32) -> usize {
        self.files
            .iter()
            .rposition(|f| f.offset <= offset)
            .unwrap_or(0)
    }

    /// The document's own part (the last).
    pub fn own(&self) -> &FilePart {
        self.files.last().expect("at least the document")
    }

    /// A joined offset from a position in the document.
    pub fn offset_at(&self, pos: lsp_types::Position) -> u32 {
        let own = self.own();
        own.offset + own.lines.offset(&own.text, pos) as u32
    }

    /// The URI and range of a joined span.
    pub fn location(&self, span: Span) -> Option<(Uri, lsp_types::Range)> {
        let part = &self.files[self.part_of(span.start)];
        let s = (span.start - part.offset) as usize;
        let e = (span.end.saturating_sub(part.offset) as usize).max(s);
        Some((part.uri.clone()?, part.lines.range(&part.text, s, e)))
    }

    /// The word under a joined offset, with its role.
    pub fn word_at(&self, offset: u32) -> Option<&(Span, Role)> {
        self.words
            .iter()
            .find(|(s, _)| s.start <= offset && offset <= s.end)
    }

    /// The item whose extent holds an offset.
    pub fn item_at(&self, offset: u32) -> Option<usize> {
        self.items
            .iter()
            .position(|i| i.span.start <= offset && offset <= i.span.end)
    }

    /// The declarations of a name, the document's own first.
    pub fn decls_named(&self, name: &str) -> Vec<&Decl> {
        let mut found: Vec<&Decl> = self
            .decls
            .iter()
            .filter(|d| d.name == name && !matches!(d.kind, DeclKind::Attr))
            .collect();
        found.sort_by_key(|d| std::cmp::Reverse(d.span.start));
        found
    }

    /// The name a word stands for at the top level, when it stands for one.
    pub fn global_name(&self, role: &Role) -> Option<String> {
        match role {
            Role::Decl(i) if self.decls[*i].kind != DeclKind::Attr => {
                Some(self.decls[*i].name.clone())
            }
            Role::Ref(n) => Some(n.clone()),
            Role::Field(n) if self.is_global(n) => Some(n.clone()),
            _ => None,
        }
    }

    fn is_global(&self, name: &str) -> bool {
        self.decls
            .iter()
            .any(|d| d.name == name && !matches!(d.kind, DeclKind::Attr))
    }

    /// Every span where a top-level name (or enum value) is declared or used.
    pub fn occurrences(&self, name: &str) -> Vec<Span> {
        self.words
            .iter()
            .filter(|(s, r)| {
                self.global_name(r).as_deref() == Some(name)
                    && &self.joined[s.start as usize..s.end as usize] == name
            })
            .map(|(s, _)| *s)
            .collect()
    }
}

/// Top-level items: each starts at a declaration keyword first on its line
/// outside brackets, and ends at its last token before the next one.
fn extents(src: &str, tokens: &[Token]) -> Vec<ItemExtent> {
    let mut starts = Vec::new();
    let mut depth = 0i32;
    let mut last_line_end = None::<usize>;
    for (i, t) in tokens.iter().enumerate() {
        let line_first = src[..t.span.start as usize]
            .rfind('\n')
            .map_or(0, |n| n + 1);
        let first_on_line = src[line_first..t.span.start as usize].trim().is_empty()
            && last_line_end.is_none_or(|e| e < line_first);
        if depth == 0
            && first_on_line
            && t.kind == Kind::Word
            && lex::DECL_KEYWORDS.contains(&t.text(src))
        {
            starts.push(i);
        }
        if t.kind == Kind::Punct {
            match t.text(src) {
                "{" | "(" | "[" => depth += 1,
                "}" | ")" | "]" => depth = (depth - 1).max(0),
                _ => {}
            }
        }
        last_line_end = Some(t.span.end as usize - 1);
    }
    let mut out = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let end_tok = starts.get(k + 1).map_or(tokens.len(), |&n| n);
        let mut last = end_tok - 1;
        while last > s && tokens[last].kind == Kind::Comment {
            last -= 1;
        }
        let toks = &tokens[s..=last];
        out.push(ItemExtent {
            keyword: tokens[s].text(src).to_string(),
            span: Span::new(
                tokens[s].span.start as usize,
                tokens[last].span.end as usize,
            ),
            locals: locals(src, toks),
        });
    }
    out
}

/// The locals an item binds, found by their token patterns: parameters in
/// the header, `let X`, `for X in`, `window X from`, and `(X in` of
/// aggregates.
fn locals(src: &str, toks: &[Token]) -> Vec<Local> {
    let t = |i: usize| toks.get(i).map_or("", |t| t.text(src));
    let word = |i: usize| {
        toks.get(i)
            .is_some_and(|t| t.kind == Kind::Word && !lex::is_keyword(t.text(src)))
    };
    let mut out: Vec<Local> = Vec::new();
    let mut push = |i: usize, ty: Option<String>| {
        let name = t(i).to_string();
        if !out.iter().any(|l| l.name == name) {
            out.push(Local {
                name,
                span: toks[i].span,
                ty,
            });
        }
    };
    let header = matches!(t(0), "fn" | "phase" | "turn" | "reaction") && t(2) == "(";
    let mut i = 0;
    if header {
        i = 3;
        while i < toks.len() && t(i) != ")" {
            if word(i) && t(i + 1) == ":" {
                push(i, Some(t(i + 2).to_string()));
            }
            i += 1;
        }
    }
    while i < toks.len() {
        let ty_of_coll = |j: usize| match t(j) {
            "players" => Some("player".to_string()),
            _ => None,
        };
        if t(i) == "let" && word(i + 1) {
            push(i + 1, None);
        } else if t(i) == "for" && word(i + 1) && t(i + 2) == "in" {
            push(i + 1, ty_of_coll(i + 3));
        } else if t(i) == "window" && word(i + 1) {
            push(i + 1, Some("player".into()));
        } else if t(i) == "(" && word(i + 1) && t(i + 2) == "in" {
            push(i + 1, ty_of_coll(i + 3));
        }
        i += 1;
    }
    out
}

/// Give every word (outside and inside strings' `{...}`) its role.
fn roles(src: &str, tokens: &[Token], decls: &[Decl], items: &[ItemExtent]) -> Vec<(Span, Role)> {
    let named = |k: DeclKind| {
        !matches!(
            k,
            DeclKind::Game
                | DeclKind::Start
                | DeclKind::Winners
                | DeclKind::Invariant
                | DeclKind::Variant
        )
    };
    let by_span: HashMap<u32, usize> = decls
        .iter()
        .enumerate()
        .filter(|(_, d)| named(d.kind))
        .map(|(i, d)| (d.span.start, i))
        .collect();
    let globals: std::collections::HashSet<&str> = decls
        .iter()
        .filter(|d| named(d.kind) && d.kind != DeclKind::Attr)
        .map(|d| d.name.as_str())
        .collect();
    let mut all: Vec<(Token, bool)> = Vec::with_capacity(tokens.len());
    for t in tokens {
        all.push((*t, false));
        if t.kind == Kind::Str && t.text(src).contains('{') {
            all.extend(lex::lex_string_parts(src, t).into_iter().map(|p| (p, true)));
        }
    }
    let mut out = Vec::new();
    let mut item = 0usize;
    for (k, (t, _)) in all.iter().enumerate() {
        if t.kind != Kind::Word || lex::is_keyword(t.text(src)) {
            continue;
        }
        while item + 1 < items.len() && items[item + 1].span.start <= t.span.start {
            item += 1;
        }
        let text = t.text(src);
        let after_dot = k > 0 && all[k - 1].0.text(src) == ".";
        let role = if let Some(&d) = by_span.get(&t.span.start) {
            Role::Decl(d)
        } else if after_dot {
            Role::Field(text.to_string())
        } else if items.get(item).is_some_and(|it| {
            it.span.start <= t.span.start && it.locals.iter().any(|l| l.name == text)
        }) {
            Role::Local {
                item,
                name: text.to_string(),
            }
        } else if globals.contains(text) {
            Role::Ref(text.to_string())
        } else if decls
            .iter()
            .any(|d| d.kind == DeclKind::Attr && d.name == text)
        {
            Role::Field(text.to_string())
        } else {
            Role::Other
        };
        out.push((t.span, role));
    }
    out
}
