//! The declarations of a parsed file as the server shows them: each
//! declared name with its kind, a one-line signature (an option's default
//! and range, a zone's owner, shape and visibility, a card kind's
//! attributes, a variable's type, a phase's or fn's parameters) and the
//! comment written above or beside it.

use super::analysis::{Decl, DeclKind, ItemExtent};
use crate::diag::Span;
use crate::fmt::lex::{self, Kind};
use crate::syntax::ast::{Item, PhaseKind};

/// The comment lines right above the line of `at`, and a comment at the end
/// of that line.
fn doc_comment(src: &str, at: u32) -> String {
    let line_start = src[..at as usize].rfind('\n').map_or(0, |n| n + 1);
    let mut above = Vec::new();
    let mut end = line_start;
    while end > 0 {
        let prev_start = src[..end - 1].rfind('\n').map_or(0, |n| n + 1);
        let line = src[prev_start..end - 1].trim();
        match line.strip_prefix('#') {
            Some(c) if !line.starts_with("# ----") && !c.trim_start().starts_with("rulecheck:") => {
                above.push(c.trim().to_string())
            }
            _ => break,
        }
        end = prev_start;
    }
    above.reverse();
    let line_end = src[at as usize..]
        .find('\n')
        .map_or(src.len(), |n| at as usize + n);
    let rest = &src[at as usize..line_end];
    if let Some(t) = lex::lex(rest).iter().find(|t| t.kind == Kind::Comment) {
        above.push(t.text(rest)[1..].trim().to_string());
    }
    above.join("\n")
}

fn params(ps: &[(crate::syntax::ast::Name, crate::syntax::ast::Name)]) -> String {
    ps.iter()
        .map(|(n, t)| format!("{}: {}", n.text, t.text))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The declarations of the items that parsed.
pub fn declarations(src: &str, items: &[Item], extents: &[ItemExtent]) -> Vec<Decl> {
    let extent = |at: u32| {
        extents
            .iter()
            .find(|e| e.span.start <= at && at <= e.span.end)
            .map_or(Span::new(at as usize, at as usize), |e| e.span)
    };
    let mut out = Vec::new();
    let add = |out: &mut Vec<Decl>,
               name: &str,
               kind: DeclKind,
               span: Span,
               detail: String,
               owner: Option<String>| {
        out.push(Decl {
            name: name.to_string(),
            kind,
            span,
            item: extent(span.start),
            doc: doc_comment(src, span.start),
            detail,
            owner,
            per_player: false,
            per_card: false,
        });
    };
    for item in items {
        match item {
            Item::Game(g) => add(
                &mut out,
                &g.name,
                DeclKind::Game,
                g.span,
                format!("game \"{}\"", g.name),
                None,
            ),
            Item::Option(o) => add(
                &mut out,
                &o.name.text,
                DeclKind::Option,
                o.name.span,
                format!(
                    "option {} = {} in {}..{}{}",
                    o.name.text,
                    o.default.0,
                    o.min,
                    o.max,
                    o.doc
                        .as_ref()
                        .map_or(String::new(), |d| format!("\n  \"{d}\""))
                ),
                None,
            ),
            Item::Enum(e) => {
                let values: Vec<&str> = e.values.iter().map(|v| v.text.as_str()).collect();
                add(
                    &mut out,
                    &e.name.text,
                    DeclKind::Enum,
                    e.name.span,
                    format!("enum {} {{ {} }}", e.name.text, values.join(", ")),
                    None,
                );
                for v in &e.values {
                    add(
                        &mut out,
                        &v.text,
                        DeclKind::EnumValue,
                        v.span,
                        format!("{}: a value of enum {}", v.text, e.name.text),
                        Some(e.name.text.clone()),
                    );
                }
            }
            Item::Card(c) => {
                let attrs: Vec<String> = c
                    .attrs
                    .iter()
                    .map(|(n, t)| format!("{}: {}", n.text, t.text))
                    .collect();
                add(
                    &mut out,
                    &c.name.text,
                    DeclKind::CardKind,
                    c.name.span,
                    format!("card {} {{ {} }}", c.name.text, attrs.join(", ")),
                    None,
                );
                for (n, t) in &c.attrs {
                    add(
                        &mut out,
                        &n.text,
                        DeclKind::Attr,
                        n.span,
                        format!("{}: {} (attribute of card {})", n.text, t.text, c.name.text),
                        Some(c.name.text.clone()),
                    );
                }
            }
            Item::Deck(d) => add(
                &mut out,
                &d.name.text,
                DeclKind::Deck,
                d.name.span,
                format!(
                    "deck {} of {}{} in {}",
                    d.name.text,
                    d.kind.text,
                    d.size.map_or(String::new(), |s| format!(" size {}", s.0)),
                    d.home.text
                ),
                None,
            ),
            Item::Zone(z) => {
                let owner = if z.per_player { "per player" } else { "shared" };
                let shape = format!("{:?}", z.shape).to_lowercase();
                let vis = format!("{:?}", z.visibility).to_lowercase();
                add(
                    &mut out,
                    &z.name.text,
                    DeclKind::Zone,
                    z.name.span,
                    format!("zone {}: {owner} {shape} {vis}", z.name.text),
                    None,
                );
                out.last_mut().expect("just added").per_player = z.per_player;
            }
            Item::Var(v) => {
                let per = if v.per_player {
                    " per player"
                } else if v.per_card {
                    " per card"
                } else {
                    ""
                };
                add(
                    &mut out,
                    &v.name.text,
                    DeclKind::Var,
                    v.name.span,
                    format!("var {}: {}{per}", v.name.text, v.ty.text),
                    None,
                );
                let d = out.last_mut().expect("just added");
                d.per_player = v.per_player;
                d.per_card = v.per_card;
            }
            Item::Table(t) => add(
                &mut out,
                &t.name.text,
                DeclKind::Table,
                t.name.span,
                format!("table {}: {} -> {}", t.name.text, t.key.text, t.value.text),
                None,
            ),
            Item::Fn(f) => add(
                &mut out,
                &f.name.text,
                DeclKind::Fn,
                f.name.span,
                format!(
                    "fn {}({}) -> {}",
                    f.name.text,
                    params(&f.params),
                    f.ret.text
                ),
                None,
            ),
            Item::Board(b) => {
                add(
                    &mut out,
                    &b.name.text,
                    DeclKind::Board,
                    b.name.span,
                    match b.size {
                        Some((w, h, _)) => format!("board {} (grid {w} x {h})", b.name.text),
                        None => format!("board {}", b.name.text),
                    },
                    None,
                );
                for (r, _) in &b.regions {
                    add(
                        &mut out,
                        &r.text,
                        DeclKind::Region,
                        r.span,
                        format!("region {} of board {}", r.text, b.name.text),
                        Some(b.name.text.clone()),
                    );
                }
            }
            Item::Pattern(p) => add(
                &mut out,
                &p.name.text,
                DeclKind::Pattern,
                p.name.span,
                format!("pattern {} ({} moves)", p.name.text, p.moves.len()),
                None,
            ),
            Item::Phase(p) => {
                let kw = match p.kind {
                    PhaseKind::Phase => "phase",
                    PhaseKind::Turn => "turn",
                    PhaseKind::Reaction => "reaction",
                };
                let ps = if p.params.is_empty() && p.kind != PhaseKind::Turn {
                    String::new()
                } else {
                    format!("({})", params(&p.params))
                };
                let on = p
                    .trigger
                    .as_ref()
                    .map_or(String::new(), |t| format!(" on enter {}", t.text));
                add(
                    &mut out,
                    &p.name.text,
                    DeclKind::Phase,
                    p.name.span,
                    format!("{kw} {}{ps}{on}", p.name.text),
                    None,
                );
            }
            Item::Start(_, s) => add(&mut out, "start", DeclKind::Start, *s, "start".into(), None),
            Item::Winners(w) => add(
                &mut out,
                "winners",
                DeclKind::Winners,
                w.span,
                format!("winners {}", if w.highest { "highest" } else { "lowest" }),
                None,
            ),
            Item::Evaluate(_, s) => add(
                &mut out,
                "evaluate",
                DeclKind::Winners,
                *s,
                "evaluate".into(),
                None,
            ),
            Item::Invariant(text, _, s) => add(
                &mut out,
                text,
                DeclKind::Invariant,
                *s,
                format!("invariant \"{text}\""),
                None,
            ),
            Item::Variant(name, base, s) => add(
                &mut out,
                name,
                DeclKind::Variant,
                *s,
                format!("variant \"{name}\" extends \"{base}\""),
                None,
            ),
        }
    }
    out
}
