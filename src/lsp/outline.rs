//! The requests about a whole document: diagnostics, document symbols,
//! folding ranges and semantic tokens.

use super::analysis::{Analysis, DeclKind, Role};
use crate::diag::Diagnostic;
use crate::diag::code;
use crate::fmt::lex::{self, Kind};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, DocumentSymbol, FoldingRange,
    FoldingRangeKind, Location, NumberOrString, Range, SemanticToken, SemanticTokenType,
    SymbolKind,
};

/// The document's diagnostics: the checker's, then rulecheck's lints; those
/// that lie in a base file are summed up on the first line.
pub fn diagnostics(a: &Analysis) -> Vec<lsp_types::Diagnostic> {
    let own = a.own().offset;
    let mut out = Vec::new();
    let mut in_base = 0;
    for d in a.diags.iter().chain(&a.lints) {
        match d.span() {
            Some(s) if s.start < own => {
                if d.is_error() {
                    in_base += 1;
                }
            }
            _ => out.push(convert(a, d)),
        }
    }
    if in_base > 0 || a.base_problem.is_some() {
        let message = a.base_problem.clone().unwrap_or_else(|| {
            format!("the base file has {in_base} error(s); open it to see them")
        });
        out.insert(
            0,
            lsp_types::Diagnostic {
                range: Range::default(),
                severity: Some(DiagnosticSeverity::ERROR),
                code: Some(NumberOrString::String(code::VARIANT_BASE.into())),
                source: Some("grail".into()),
                message,
                ..Default::default()
            },
        );
    }
    out
}

fn convert(a: &Analysis, d: &Diagnostic) -> lsp_types::Diagnostic {
    let range = d
        .span()
        .and_then(|s| a.location(s))
        .map_or(Range::default(), |l| l.1);
    let mut message = d.message.clone();
    if let Some((_, label)) = d.labels.first().filter(|l| !l.1.is_empty()) {
        message.push_str(&format!(" ({label})"));
    }
    if let Some(h) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(h);
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .skip(1)
        .filter_map(|(s, text)| {
            let (uri, range) = a.location(*s)?;
            Some(DiagnosticRelatedInformation {
                location: Location { uri, range },
                message: text.clone(),
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range,
        severity: Some(if d.is_error() {
            DiagnosticSeverity::ERROR
        } else {
            DiagnosticSeverity::WARNING
        }),
        code: Some(NumberOrString::String(d.code.clone())),
        source: Some(
            if d.code.starts_with('E') {
                "grail"
            } else {
                "rulecheck"
            }
            .into(),
        ),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

fn symbol_kind(k: DeclKind) -> SymbolKind {
    match k {
        DeclKind::Option => SymbolKind::CONSTANT,
        DeclKind::Enum => SymbolKind::ENUM,
        DeclKind::EnumValue => SymbolKind::ENUM_MEMBER,
        DeclKind::CardKind => SymbolKind::CLASS,
        DeclKind::Attr => SymbolKind::FIELD,
        DeclKind::Deck | DeclKind::Zone | DeclKind::Board => SymbolKind::ARRAY,
        DeclKind::Region => SymbolKind::ARRAY,
        DeclKind::Var => SymbolKind::VARIABLE,
        DeclKind::Table | DeclKind::Pattern => SymbolKind::STRUCT,
        DeclKind::Fn => SymbolKind::FUNCTION,
        DeclKind::Phase | DeclKind::Start | DeclKind::Winners => SymbolKind::METHOD,
        DeclKind::Game | DeclKind::Variant => SymbolKind::MODULE,
        DeclKind::Invariant => SymbolKind::BOOLEAN,
    }
}

/// The outline: one symbol per declaration of the document itself, enum
/// values, attributes and regions as children.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written
pub fn symbols(a: &Analysis) -> Vec<DocumentSymbol> {
    let own = a.own().offset;
    let mut out: Vec<DocumentSymbol> = Vec::new();
    for d in a.decls.iter().filter(|d| d.span.start >= own) {
        let Some((_, sel)) = a.location(d.span) else {
            continue;
        };
        let Some((_, full)) = a.location(d.item.to(d.span)) else {
            continue;
        };
        let child = matches!(
            d.kind,
            DeclKind::EnumValue | DeclKind::Attr | DeclKind::Region
        );
        let sym = DocumentSymbol {
            name: d.name.clone(),
            detail: Some(d.detail.lines().next().unwrap_or("").to_string()),
            kind: symbol_kind(d.kind),
            tags: None,
            deprecated: None,
            range: if child { sel } else { full },
            selection_range: sel,
            children: None,
        };
        match out.last_mut() {
            Some(parent) if child => parent.children.get_or_insert_with(Vec::new).push(sym),
            _ => out.push(sym),
        }
    }
    out
}

/// Folding: brace blocks over several lines, items over several lines, and
/// runs of comment lines.
pub fn folding(a: &Analysis) -> Vec<FoldingRange> {
    let own = a.own();
    let text = &own.text;
    let tokens = lex::lex(text);
    let line = |off: u32| own.lines.position(text, off as usize).line;
    let mut out = Vec::new();
    let mut stack = Vec::new();
    let mut comment_run: Option<(u32, u32)> = None;
    let flush = |run: &mut Option<(u32, u32)>, out: &mut Vec<FoldingRange>| {
        if let Some((s, e)) = run.take().filter(|(s, e)| e > s) {
            out.push(FoldingRange {
                start_line: s,
                end_line: e,
                kind: Some(FoldingRangeKind::Comment),
                ..Default::default()
            });
        }
    };
    for t in &tokens {
        let l = line(t.span.start);
        if t.kind == Kind::Comment {
            let line_start = text[..t.span.start as usize]
                .rfind('\n')
                .map_or(0, |n| n + 1);
            if text[line_start..t.span.start as usize].trim().is_empty() {
                comment_run = match comment_run {
                    Some((s, e)) if e + 1 == l => Some((s, l)),
                    _ => {
                        flush(&mut comment_run, &mut out);
                        Some((l, l))
                    }
                };
            }
            continue;
        }
        flush(&mut comment_run, &mut out);
        match t.text(text) {
            "{" => stack.push(l),
            "}" => {
                if let Some(s) = stack.pop().filter(|s| l > *s) {
                    out.push(FoldingRange {
                        start_line: s,
                        end_line: l,
                        kind: Some(FoldingRangeKind::Region),
                        ..Default::default()
                    });
                }
            }
            _ => {}
        }
    }
    flush(&mut comment_run, &mut out);
    for it in a.items.iter().filter(|i| i.span.start >= own.offset) {
        let (s, e) = (
            line(it.span.start - own.offset),
            line(it.span.end - own.offset),
        );
        if e > s && !out.iter().any(|f| f.start_line == s) {
            out.push(FoldingRange {
                start_line: s,
                end_line: e,
                kind: Some(FoldingRangeKind::Region),
                ..Default::default()
            });
        }
    }
    out
}

/// The semantic token types, in the order of their indices.
pub const TOKEN_TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::TYPE,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::COMMENT,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::NAMESPACE,
];

fn decl_type(k: DeclKind) -> Option<u32> {
    Some(match k {
        DeclKind::Enum | DeclKind::CardKind => 1,
        DeclKind::EnumValue => 2,
        DeclKind::Option | DeclKind::Var => 3,
        DeclKind::Fn | DeclKind::Phase => 4,
        DeclKind::Attr => 5,
        DeclKind::Deck | DeclKind::Zone | DeclKind::Board | DeclKind::Region => 11,
        DeclKind::Table | DeclKind::Pattern => 3,
        _ => return None,
    })
}

/// Semantic tokens of the document (relative encoding, no modifiers).
pub fn semantic_tokens(a: &Analysis) -> Vec<SemanticToken> {
    let own = a.own();
    let base = own.offset;
    let src = &a.joined;
    let mut words = a.words.iter().peekable();
    let mut out = Vec::new();
    let (mut last_line, mut last_col) = (0u32, 0u32);
    for t in a.tokens.iter().filter(|t| t.span.start >= base) {
        let text = t.text(src);
        let ty = match t.kind {
            Kind::Comment => Some(8),
            Kind::Str => Some(6),
            Kind::Int => Some(7),
            Kind::Punct => {
                (!matches!(text, "(" | ")" | "{" | "}" | "[" | "]" | "," | "." | ":")).then_some(9)
            }
            Kind::Word if lex::is_keyword(text) || lex::DECL_KEYWORDS.contains(&text) => Some(0),
            Kind::Word => {
                while words.next_if(|(s, _)| s.start < t.span.start).is_some() {}
                match words.peek() {
                    Some((s, role)) if s.start == t.span.start => match role {
                        Role::Decl(i) => decl_type(a.decls[*i].kind),
                        Role::Ref(n) => a.decls_named(n).first().and_then(|d| decl_type(d.kind)),
                        Role::Field(_) => Some(5),
                        Role::Local { .. } => Some(10),
                        Role::Other if super::analysis::BUILTIN_TYPES.contains(&text) => Some(1),
                        Role::Other => None,
                    },
                    _ => None,
                }
            }
        };
        let Some(ty) = ty else { continue };
        let pos = own
            .lines
            .position(&own.text, (t.span.start - base) as usize);
        let len: u32 = text.chars().map(|c| c.len_utf16() as u32).sum();
        let delta_line = pos.line - last_line;
        let delta_start = if delta_line == 0 {
            pos.character - last_col
        } else {
            pos.character
        };
        out.push(SemanticToken {
            delta_line,
            delta_start,
            length: len,
            token_type: ty,
            token_modifiers_bitset: 0,
        });
        (last_line, last_col) = (pos.line, pos.character);
    }
    out
}
