//! The declarations of a parsed file as the server shows them: each
//! declared name with its kind, a one-line signature (an option's default
//! and range, a zone's owner, shape and visibility, a card kind's
//! attributes, a variable's type, a phase's or fn's parameters) and the
//! comment written above or beside it; and the types of a declaration
//! and of an item's extent and locals, which `analysis.rs` indexes.

use crate::diag::Span;
use crate::fmt::lex::{self, Kind};
use crate::syntax::ast::{self, Item, PhaseKind};

/// What a declared name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclKind {
    Option,
    Enum,
    EnumValue,
    CardKind,
    Attr,
    Deck,
    Zone,
    Var,
    Table,
    Fn,
    Board,
    Region,
    Pattern,
    Phase,
    Game,
    Start,
    Winners,
    Invariant,
    Variant,
}

/// One declaration: its name's span, the extent of its whole item, a
/// one-line signature and the comment written above (or beside) it.
#[derive(Clone, Debug)]
pub struct Decl {
    pub name: String,
    pub kind: DeclKind,
    pub span: Span,
    pub item: Span,
    pub detail: String,
    pub doc: String,
    /// The enum of a value, the card kind of an attribute, the board of a region.
    pub owner: Option<String>,
    pub per_player: bool,
    pub per_card: bool,
}

/// A local name of an item: where it is bound and, when known, its type.
#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub span: Span,
    pub ty: Option<String>,
}

/// A top-level item's extent and its locals.
#[derive(Clone, Debug)]
pub struct ItemExtent {
    pub keyword: String,
    pub span: Span,
    pub locals: Vec<Local>,
}

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
    let mut c = Collector {
        src,
        extents,
        out: Vec::new(),
    };
    for item in items {
        c.item(item);
    }
    c.out
}

/// Builds the list of declarations, one item at a time.
struct Collector<'a> {
    src: &'a str,
    extents: &'a [ItemExtent],
    out: Vec<Decl>,
}

impl Collector<'_> {
    /// Adds one declared name; the caller may mark it per player or per card.
    fn add(
        &mut self,
        name: &str,
        kind: DeclKind,
        span: Span,
        detail: String,
        owner: Option<&str>,
    ) -> &mut Decl {
        let item = self
            .extents
            .iter()
            .find(|e| e.span.start <= span.start && span.start <= e.span.end)
            .map_or(Span::new(span.start as usize, span.start as usize), |e| {
                e.span
            });
        self.out.push(Decl {
            name: name.to_string(),
            kind,
            span,
            item,
            doc: doc_comment(self.src, span.start),
            detail,
            owner: owner.map(str::to_string),
            per_player: false,
            per_card: false,
        });
        self.out.last_mut().expect("just added")
    }

    /// The names one item declares: one match arm per kind of item, each a
    /// line or two; kept whole so every declaration's signature reads in one
    /// place (compound ones are the methods below).
    fn item(&mut self, item: &Item) {
        match item {
            Item::Game(g) => {
                let detail = format!("game \"{}\"", g.name);
                self.add(&g.name, DeclKind::Game, g.span, detail, None);
            }
            Item::Option(o) => {
                self.add(
                    &o.name.text,
                    DeclKind::Option,
                    o.name.span,
                    option_signature(o),
                    None,
                );
            }
            Item::Enum(e) => self.enumeration(e),
            Item::Card(c) => self.card_kind(c),
            Item::Deck(d) => {
                self.add(
                    &d.name.text,
                    DeclKind::Deck,
                    d.name.span,
                    deck_signature(d),
                    None,
                );
            }
            Item::Zone(z) => {
                let owner = if z.per_player { "per player" } else { "shared" };
                let shape = format!("{:?}", z.shape).to_lowercase();
                let vis = format!("{:?}", z.visibility).to_lowercase();
                let detail = format!("zone {}: {owner} {shape} {vis}", z.name.text);
                self.add(&z.name.text, DeclKind::Zone, z.name.span, detail, None)
                    .per_player = z.per_player;
            }
            Item::Var(v) => {
                let detail = format!("var {}: {}{}", v.name.text, v.ty.text, var_scope(v));
                let d = self.add(&v.name.text, DeclKind::Var, v.name.span, detail, None);
                d.per_player = v.per_player;
                d.per_card = v.per_card;
            }
            Item::Table(t) => {
                let detail = format!("table {}: {} -> {}", t.name.text, t.key.text, t.value.text);
                self.add(&t.name.text, DeclKind::Table, t.name.span, detail, None);
            }
            Item::Fn(f) => {
                let detail = format!(
                    "fn {}({}) -> {}",
                    f.name.text,
                    params(&f.params),
                    f.ret.text
                );
                self.add(&f.name.text, DeclKind::Fn, f.name.span, detail, None);
            }
            Item::Board(b) => self.board(b),
            Item::Pattern(p) => {
                let detail = format!("pattern {} ({} moves)", p.name.text, p.moves.len());
                self.add(&p.name.text, DeclKind::Pattern, p.name.span, detail, None);
            }
            Item::Phase(p) => {
                self.add(
                    &p.name.text,
                    DeclKind::Phase,
                    p.name.span,
                    phase_signature(p),
                    None,
                );
            }
            Item::Start(_, s) => {
                self.add("start", DeclKind::Start, *s, "start".into(), None);
            }
            Item::Winners(w) => {
                let detail = format!("winners {}", if w.highest { "highest" } else { "lowest" });
                self.add("winners", DeclKind::Winners, w.span, detail, None);
            }
            Item::Evaluate(_, s) => {
                self.add("evaluate", DeclKind::Winners, *s, "evaluate".into(), None);
            }
            Item::Invariant(text, _, s) => {
                let detail = format!("invariant \"{text}\"");
                self.add(text, DeclKind::Invariant, *s, detail, None);
            }
            Item::Variant(name, base, s) => {
                let detail = format!("variant \"{name}\" extends \"{base}\"");
                self.add(name, DeclKind::Variant, *s, detail, None);
            }
        }
    }

    /// An enum and each of its values.
    fn enumeration(&mut self, e: &ast::EnumDecl) {
        let values: Vec<&str> = e.values.iter().map(|v| v.text.as_str()).collect();
        let detail = format!("enum {} {{ {} }}", e.name.text, values.join(", "));
        self.add(&e.name.text, DeclKind::Enum, e.name.span, detail, None);
        for v in &e.values {
            let detail = format!("{}: a value of enum {}", v.text, e.name.text);
            self.add(
                &v.text,
                DeclKind::EnumValue,
                v.span,
                detail,
                Some(&e.name.text),
            );
        }
    }

    /// A card kind and each of its attributes.
    fn card_kind(&mut self, c: &ast::CardDecl) {
        let attrs = params(&c.attrs);
        let detail = format!("card {} {{ {attrs} }}", c.name.text);
        self.add(&c.name.text, DeclKind::CardKind, c.name.span, detail, None);
        for (n, t) in &c.attrs {
            let detail = format!("{}: {} (attribute of card {})", n.text, t.text, c.name.text);
            self.add(&n.text, DeclKind::Attr, n.span, detail, Some(&c.name.text));
        }
    }

    /// A board and each of its regions.
    fn board(&mut self, b: &ast::BoardDecl) {
        let detail = match b.size {
            Some((w, h, _)) => format!("board {} (grid {w} x {h})", b.name.text),
            None => format!("board {}", b.name.text),
        };
        self.add(&b.name.text, DeclKind::Board, b.name.span, detail, None);
        for (r, _) in &b.regions {
            let detail = format!("region {} of board {}", r.text, b.name.text);
            self.add(
                &r.text,
                DeclKind::Region,
                r.span,
                detail,
                Some(&b.name.text),
            );
        }
    }
}

/// `option NAME = DEFAULT in MIN..MAX`, and its description on a second line.
fn option_signature(o: &ast::OptionDecl) -> String {
    let doc = o
        .doc
        .as_ref()
        .map_or(String::new(), |d| format!("\n  \"{d}\""));
    format!(
        "option {} = {} in {}..{}{doc}",
        o.name.text, o.default.0, o.min, o.max
    )
}

/// `deck NAME of KIND [size N] in ZONE`.
fn deck_signature(d: &ast::DeckDecl) -> String {
    let size = d.size.map_or(String::new(), |s| format!(" size {}", s.0));
    format!(
        "deck {} of {}{size} in {}",
        d.name.text, d.kind.text, d.home.text
    )
}

/// ` per player`, ` per card` or nothing.
fn var_scope(v: &ast::VarDecl) -> &'static str {
    if v.per_player {
        " per player"
    } else if v.per_card {
        " per card"
    } else {
        ""
    }
}

/// `phase|turn|reaction NAME(PARAMS) [on enter ZONE]`.
fn phase_signature(p: &ast::PhaseDecl) -> String {
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
    format!("{kw} {}{ps}{on}", p.name.text)
}
