//! The requests about a name: hover, go to definition, find references,
//! rename and completion, all answered from an [`Analysis`].

use super::analysis::{Analysis, BUILTIN_TYPES, BUILTIN_VALUES, Decl, DeclKind, Role};
use crate::fmt::lex;
use lsp_types::{
    CompletionItem, CompletionItemKind, Hover, HoverContents, Location, MarkupContent, MarkupKind,
    Position, TextEdit, Uri,
};
use std::collections::HashMap;

fn markdown(value: String) -> HoverContents {
    HoverContents::Markup(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

fn describe(d: &Decl) -> String {
    let mut s = format!("```grail\n{}\n```", d.detail);
    if !d.doc.is_empty() {
        s.push_str("\n\n");
        s.push_str(&d.doc);
    }
    s
}

fn builtin_doc(name: &str) -> Option<String> {
    if let Some((_, b)) = crate::hir::Builtin::ALL.iter().find(|(n, _)| *n == name) {
        let (args, ret) = b.signature();
        let args: Vec<String> = args
            .iter()
            .map(|t| format!("{t:?}").to_lowercase())
            .collect();
        return Some(format!(
            "```grail\n{name}({}) -> {}\n```\n\nbuilt-in function",
            args.join(", "),
            format!("{ret:?}").to_lowercase()
        ));
    }
    if BUILTIN_VALUES.contains(&name) {
        return Some(format!("```grail\n{name}\n```\n\nbuilt-in value"));
    }
    BUILTIN_TYPES
        .contains(&name)
        .then(|| format!("```grail\n{name}\n```\n\nbuilt-in type"))
}

pub fn hover(a: &Analysis, pos: Position) -> Option<Hover> {
    let off = a.offset_at(pos);
    let (span, role) = a.word_at(off)?;
    let text = &a.joined[span.start as usize..span.end as usize];
    let value = match role {
        Role::Decl(i) => describe(&a.decls[*i]),
        Role::Ref(n) => describe(a.decls_named(n).first()?),
        Role::Field(n) => {
            let found: Vec<String> = a
                .decls
                .iter()
                .filter(|d| {
                    &d.name == n && (d.kind == DeclKind::Attr || d.per_player || d.per_card)
                })
                .map(describe)
                .collect();
            if found.is_empty() {
                return None;
            }
            found.join("\n\n---\n\n")
        }
        Role::Local { item, name } => {
            let it = &a.items[*item];
            let l = it.locals.iter().find(|l| &l.name == name)?;
            format!(
                "```grail\n{}{}\n```\n\nlocal of this {}",
                l.name,
                l.ty.as_ref().map_or(String::new(), |t| format!(": {t}")),
                it.keyword
            )
        }
        Role::Other => builtin_doc(text)?,
    };
    let (_, range) = a.location(*span)?;
    Some(Hover {
        contents: markdown(value),
        range: Some(range),
    })
}

pub fn definition(a: &Analysis, pos: Position) -> Option<Location> {
    let (span, role) = a.word_at(a.offset_at(pos))?;
    let target = match role {
        Role::Decl(i) => a.decls[*i].span,
        Role::Ref(n) => a.decls_named(n).first()?.span,
        Role::Field(n) => {
            a.decls
                .iter()
                .find(|d| &d.name == n && (d.per_player || d.per_card || d.kind == DeclKind::Attr))?
                .span
        }
        Role::Local { item, name } => a.items[*item].locals.iter().find(|l| &l.name == name)?.span,
        Role::Other => return None,
    };
    let _ = span;
    let (uri, range) = a.location(target)?;
    Some(Location { uri, range })
}

/// The top-level name under a position, if any.
pub fn global_at(a: &Analysis, pos: Position) -> Option<String> {
    let (_, role) = a.word_at(a.offset_at(pos))?;
    a.global_name(role)
}

/// Every use of a top-level name in this analysis's files, as locations.
pub fn locations(a: &Analysis, name: &str) -> Vec<Location> {
    a.occurrences(name)
        .into_iter()
        .filter_map(|s| a.location(s))
        .map(|(uri, range)| Location { uri, range })
        .collect()
}

/// Whether `name` can replace a name: an identifier and no keyword.
pub fn valid_name(name: &str) -> bool {
    let mut cs = name.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !lex::is_keyword(name)
}

/// Edits renaming `name` to `new`, from several analyses (a document and the
/// open variants of it), without duplicates.
pub fn rename_edits(analyses: &[&Analysis], name: &str, new: &str) -> HashMap<Uri, Vec<TextEdit>> {
    let mut out: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for a in analyses {
        for loc in locations(a, name) {
            let edits = out.entry(loc.uri).or_default();
            if !edits.iter().any(|e| e.range == loc.range) {
                edits.push(TextEdit {
                    range: loc.range,
                    new_text: new.to_string(),
                });
            }
        }
    }
    out
}

fn kind_of(k: DeclKind) -> CompletionItemKind {
    match k {
        DeclKind::Option => CompletionItemKind::CONSTANT,
        DeclKind::Enum => CompletionItemKind::ENUM,
        DeclKind::EnumValue => CompletionItemKind::ENUM_MEMBER,
        DeclKind::CardKind => CompletionItemKind::CLASS,
        DeclKind::Attr => CompletionItemKind::FIELD,
        DeclKind::Deck | DeclKind::Zone | DeclKind::Board | DeclKind::Region => {
            CompletionItemKind::MODULE
        }
        DeclKind::Var => CompletionItemKind::VARIABLE,
        DeclKind::Table | DeclKind::Pattern => CompletionItemKind::STRUCT,
        DeclKind::Fn => CompletionItemKind::FUNCTION,
        DeclKind::Phase => CompletionItemKind::METHOD,
        _ => CompletionItemKind::TEXT,
    }
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail.to_string()),
        ..Default::default()
    }
}

/// Statement words offered by completion: the reserved words and `match`.
fn statement_keywords() -> impl Iterator<Item = &'static &'static str> {
    crate::syntax::RESERVED.iter().chain(&["match"])
}

/// Completion at a position: members after `NAME.`, otherwise the names in
/// scope and the keywords allowed there.
pub fn completion(a: &Analysis, pos: Position) -> Vec<CompletionItem> {
    let off = a.offset_at(pos) as usize;
    let line_start = a.joined[..off].rfind('\n').map_or(0, |n| n + 1);
    let before = &a.joined[line_start..off];
    let partial = before
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
        .len();
    let head = &before[..partial];
    let mut items = Items::default();
    if let Some(recv_end) = head.strip_suffix('.') {
        let recv = &recv_end[recv_end
            .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
            .len()..];
        members(a, off, recv, &mut items);
        return items.out;
    }
    let inside = inside_body(a, off);
    if !inside && head.trim().is_empty() {
        for k in lex::DECL_KEYWORDS {
            items.push(item(k, CompletionItemKind::KEYWORD, "declaration"));
        }
    }
    if inside {
        body_words(a, off, &mut items);
    }
    for n in BUILTIN_TYPES {
        items.push(item(n, CompletionItemKind::TYPE_PARAMETER, "built-in type"));
    }
    for d in &a.decls {
        if !matches!(
            d.kind,
            DeclKind::Attr
                | DeclKind::Game
                | DeclKind::Start
                | DeclKind::Winners
                | DeclKind::Invariant
                | DeclKind::Variant
        ) {
            items.push(item(&d.name, kind_of(d.kind), &d.detail));
        }
    }
    items.out
}

/// Completion items, each label once (the first offered wins).
#[derive(Default)]
struct Items {
    seen: std::collections::HashSet<String>,
    out: Vec<CompletionItem>,
}

impl Items {
    fn push(&mut self, ci: CompletionItem) {
        if self.seen.insert(ci.label.clone()) {
            self.out.push(ci);
        }
    }
}

/// The fields after `recv.`: per-player variables for a player, per-card
/// variables and attributes for a card, both when the type is unknown.
fn members(a: &Analysis, off: usize, recv: &str, items: &mut Items) {
    let ty = receiver_type(a, off as u32, recv);
    let player = ty.as_deref().is_none_or(|t| t == "player");
    let card = ty.as_deref().is_none_or(|t| t != "player");
    for d in &a.decls {
        let fits = (player && d.per_player) || (card && (d.per_card || d.kind == DeclKind::Attr));
        if fits {
            items.push(item(&d.name, kind_of(d.kind), &d.detail));
        }
    }
}

/// Whether `off` is inside braces, or in an item whose body is an
/// expression (`fn`, `invariant`, `winners`, `evaluate`, `var`).
fn inside_body(a: &Analysis, off: usize) -> bool {
    let depth = a
        .tokens
        .iter()
        .take_while(|t| (t.span.end as usize) <= off)
        .fold(0i32, |d, t| match t.text(&a.joined) {
            "{" => d + 1,
            "}" => (d - 1).max(0),
            _ => d,
        });
    depth > 0
        || a.item_at(off as u32).is_some_and(|i| {
            matches!(
                a.items[i].keyword.as_str(),
                "fn" | "invariant" | "winners" | "evaluate" | "var"
            )
        })
}

/// Inside a body: the item's locals declared before `off`, statement
/// keywords, built-in functions and values.
fn body_words(a: &Analysis, off: usize, items: &mut Items) {
    if let Some(i) = a.item_at(off as u32) {
        for l in &a.items[i].locals {
            if l.span.start as usize <= off {
                items.push(item(
                    &l.name,
                    CompletionItemKind::VARIABLE,
                    l.ty.as_deref().unwrap_or("local"),
                ));
            }
        }
    }
    for k in statement_keywords() {
        items.push(item(k, CompletionItemKind::KEYWORD, "keyword"));
    }
    for (n, _) in crate::hir::Builtin::ALL {
        items.push(item(n, CompletionItemKind::FUNCTION, "built-in function"));
    }
    for n in BUILTIN_VALUES {
        items.push(item(n, CompletionItemKind::VALUE, "built-in value"));
    }
}

/// The type of a receiver before `.`: a local's declared type, `player`
/// for players, or unknown.
fn receiver_type(a: &Analysis, off: u32, recv: &str) -> Option<String> {
    if matches!(recv, "actor" | "current") {
        return Some("player".into());
    }
    let item = a.item_at(off)?;
    a.items[item]
        .locals
        .iter()
        .find(|l| l.name == recv)
        .and_then(|l| l.ty.clone())
}
