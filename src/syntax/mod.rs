//! Stage 1, text -> AST. Owns the pest parser generated from
//! `grammar/rules.pest`, the AST types, and the conversion of parse failures
//! into diagnostics. Nothing here knows what a name means.

pub mod ast;
mod errors;
pub mod limits;
mod parse;

/// Words that cannot name anything (the grammar's `keyword` rule).
pub(crate) use errors::{ITEM_WORDS, RESERVED};
pub use limits::parse_file;

use ast::{File, Item};

/// What a declaration declares, for variants: (namespace, name).
fn item_key(item: &Item) -> Option<(u8, String)> {
    Some(match item {
        Item::Game(_) => (0, String::new()),
        Item::Option(o) => (1, o.name.text.clone()),
        Item::Enum(e) => (2, e.name.text.clone()),
        Item::Card(c) => (3, c.name.text.clone()),
        Item::Deck(d) => (4, d.name.text.clone()),
        Item::Zone(z) => (5, z.name.text.clone()),
        Item::Var(v) => (6, v.name.text.clone()),
        Item::Table(t) => (7, t.name.text.clone()),
        Item::Fn(f) => (8, f.name.text.clone()),
        Item::Board(b) => (9, b.name.text.clone()),
        Item::Pattern(p) => (10, p.name.text.clone()),
        Item::Phase(p) => (11, p.name.text.clone()),
        Item::Start(..) => (12, String::new()),
        Item::Winners(_) => (13, String::new()),
        Item::Evaluate(..) => (15, String::new()),
        Item::Invariant(text, ..) => (14, text.clone()),
        Item::Variant(..) => return None,
    })
}

fn item_start(item: &Item) -> u32 {
    match item {
        Item::Game(g) => g.span.start,
        Item::Option(o) => o.name.span.start,
        Item::Enum(e) => e.name.span.start,
        Item::Card(c) => c.name.span.start,
        Item::Deck(d) => d.span.start,
        Item::Zone(z) => z.name.span.start,
        Item::Var(v) => v.name.span.start,
        Item::Table(t) => t.span.start,
        Item::Fn(f) => f.name.span.start,
        Item::Board(b) => b.name.span.start,
        Item::Pattern(p) => p.name.span.start,
        Item::Phase(p) => p.name.span.start,
        Item::Start(_, s)
        | Item::Invariant(_, _, s)
        | Item::Variant(_, _, s)
        | Item::Evaluate(_, s) => s.start,
        Item::Winners(w) => w.span.start,
    }
}

/// A variant's text follows its base's from byte `boundary` on: each of its
/// declarations replaces the base's declaration of the same name.
pub fn merge_variant(file: &mut File, boundary: u32) {
    let replaced: std::collections::HashSet<(u8, String)> = file
        .items
        .iter()
        .filter(|i| item_start(i) >= boundary)
        .filter_map(item_key)
        .collect();
    file.items.retain(|i| {
        item_start(i) >= boundary || item_key(i).is_none_or(|k| !replaced.contains(&k))
    });
}

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/rules.pest"]
pub struct RulesParser;

/// Parse one expression on its own (the REPL's `expect`): the whole text
/// must be the expression. Spans are offsets into `text`.
pub fn parse_expr(text: &str) -> Result<ast::Expr, String> {
    use pest::Parser as _;
    // the limits of a rules file hold here too, or pest and the checker
    // could overflow the stack
    if let Some(d) = limits::pre_scan(text) {
        return Err(d.message);
    }
    let mut pairs = RulesParser::parse(Rule::expr, text).map_err(|e| {
        let at = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((p, _)) => p,
        };
        format!("cannot read an expression at column {}", at + 1)
    })?;
    let pair = pairs.next().ok_or("an expression is needed")?;
    let end = pair.as_span().end();
    if !text[end..].trim().is_empty() {
        return Err(format!(
            "unexpected `{}` after the expression",
            text[end..].trim()
        ));
    }
    let e = parse::Builder::new().expr(pair);
    if limits::expr_too_deep(&e).is_some() {
        // dropping a tree this deep would recurse as deep (see parse_file)
        std::mem::forget(e);
        return Err(format!(
            "the expression nests deeper than {} levels: split it",
            limits::MAX_DEPTH
        ));
    }
    Ok(e)
}
