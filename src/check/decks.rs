//! Card kinds and decks: attribute declarations, the expansion of deck
//! entries (copies x ranges x lists) into individual cards with display
//! names, and the declared-size check.

use super::{Checker, Sym};
use crate::diag::code;
use crate::diag::{Diagnostic, Span};
use crate::hir::*;
use crate::syntax::ast::{self, FieldValue, Item};

/// One attribute an entry sets: (attribute, its values, their names).
type Choice = (u16, Vec<i32>, Vec<String>);

impl Checker {
    pub(super) fn declare_kind(&mut self, k: &ast::CardDecl) {
        let id = self.tables.kinds.len() as u16;
        if !self.define(&k.name, Sym::Kind(id)) {
            return;
        }
        self.tables.kinds.push(k.name.text.clone());
        self.usage.kind_spans.push(k.name.span);
        for (n, t) in &k.attrs {
            let ty = self.ty(t);
            match self.tables.attrs.iter().position(|a| a.name == n.text) {
                Some(i) if self.tables.attrs[i].ty != ty && ty != Ty::Error => {
                    self.error(
                        Diagnostic::error(
                            code::TYPE_MISMATCH,
                            format!("attribute `{}` has two types", n.text),
                        )
                        .label(n.span, "declared here with another type")
                        .help(
                            "an attribute name means the same thing on every card kind: rename one",
                        ),
                    );
                }
                Some(_) => {}
                None => self.tables.attrs.push(AttrInfo {
                    name: n.text.clone(),
                    ty,
                }),
            }
        }
        if let Some((t, span)) = &k.display {
            for (part, from, to) in template_fields(t) {
                if !k.attrs.iter().any(|(n, _)| n.text == part) {
                    // Point at the `{part}` itself (the span includes the quotes).
                    let at = if span.len() == t.len() + 2 {
                        Span::new(span.start as usize + 1 + from, span.start as usize + 1 + to)
                    } else {
                        *span
                    };
                    let known: Vec<&str> = k.attrs.iter().map(|(n, _)| n.text.as_str()).collect();
                    let help = crate::diag::did_you_mean(&part, known.iter().copied())
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| {
                            format!(
                                "the attributes of `{}` are: {}",
                                k.name.text,
                                known.join(", ")
                            )
                        });
                    self.error(
                        Diagnostic::error(
                            code::UNKNOWN_NAME,
                            format!("the card name uses unknown attribute `{part}`"),
                        )
                        .label(at, format!("`{}` has no attribute `{part}`", k.name.text))
                        .help(help),
                    );
                }
            }
        }
    }

    pub(super) fn check_decks(&mut self, file: &ast::File) {
        let kinds: Vec<&ast::CardDecl> = file
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Card(k) => Some(k),
                _ => None,
            })
            .collect();
        let mut deck_id = 0u16;
        for item in &file.items {
            let Item::Deck(d) = item else { continue };
            if !self.define(&d.name, Sym::Deck(deck_id)) {
                continue;
            }
            deck_id += 1;
            let kind = match self.names.get(&d.kind.text) {
                Some((Sym::Kind(k), _)) => *k,
                _ => {
                    self.unknown(&d.kind.text, d.kind.span, "card kind", &[]);
                    continue;
                }
            };
            self.usage.deck_spans.push((kind, d.name.span));
            let home = match self.names.get(&d.home.text) {
                Some((Sym::Zone(z), _)) => *z,
                _ => {
                    self.unknown(&d.home.text, d.home.span, "zone", &[]);
                    continue;
                }
            };
            if self.tables.zones[home as usize].per_player {
                self.error(
                    Diagnostic::error(code::TYPE_MISMATCH, "a deck must start in a shared zone")
                        .label(d.home.span, "this zone is per player")
                        .help("put the deck in a shared pile and deal from it in `start`"),
                );
            }
            self.usage.zones_used[home as usize] = true;
            let decl = kinds.iter().find(|k| k.name.text == d.kind.text).copied();
            let Some(decl) = decl else { continue };
            let before = self.tables.cards.len();
            let errors_before = self.diags.len();
            let mut each = Vec::new();
            for entry in &d.entries {
                let start = self.tables.cards.len();
                self.expand_entry(kind, decl, home, entry);
                each.push((entry.span, self.tables.cards.len() - start));
            }
            let made = self.tables.cards.len() - before;
            // A broken entry was already reported and makes the count meaningless.
            let entries_ok =
                self.diags.len() == errors_before && d.entries.iter().all(|e| e.copies.is_some());
            if let Some((size, span)) = d.size
                && size as usize != made
                && entries_ok
            {
                let mut diag = Diagnostic::error(
                    code::DECK_SIZE,
                    format!(
                        "deck `{}` declares {size} cards but its entries make {made}",
                        d.name.text
                    ),
                )
                .label(span, format!("declared size {size}"));
                if each.len() <= 6 {
                    for (at, n) in each {
                        diag = diag.label(at, format!("{n} cards"));
                    }
                } else {
                    diag = diag.label(d.name.span, format!("the entries below make {made}"));
                }
                self.error(diag.help(format!(
                    "write `size {made}` if the entries are right; an entry makes its copies times every \
                     combination of its ranges and lists (`2 x {{ value: 1..3 }}` makes 6)"
                )));
            }
        }
    }

    fn expand_entry(&mut self, kind: u16, decl: &ast::CardDecl, home: u16, entry: &ast::DeckEntry) {
        // An unreadable count was reported by the parser.
        let Some(copies) = entry.copies else { return };
        if copies < 0 {
            self.error(
                Diagnostic::error(
                    code::DECK_SIZE,
                    format!("a deck entry cannot make {copies} copies"),
                )
                .label(entry.copies_span, "a negative number of copies")
                .help("write how many copies of the entry the deck holds: 1 or more (`0 x` makes none)"),
            );
            return;
        }
        let (choices, name_override) = self.entry_choices(decl, entry);
        let nattrs = self.tables.attrs.len();
        let template = decl.display.as_ref().map(|(t, _)| t.clone());
        if choices.iter().any(|ch| ch.1.is_empty()) {
            return;
        }
        let combos = choices
            .iter()
            .fold(1usize, |a, ch| a.saturating_mul(ch.1.len()));
        if !self.cards_fit(combos, copies, entry) {
            return;
        }
        for _ in 0..copies {
            for k in 0..combos {
                // decode k in mixed radix: the last field varies fastest
                let mut idx = vec![0usize; choices.len()];
                let mut rest = k;
                for c in (0..choices.len()).rev() {
                    idx[c] = rest % choices[c].1.len();
                    rest /= choices[c].1.len();
                }
                let mut values = vec![-1i32; nattrs];
                for (c, (attr, vals, _)) in choices.iter().enumerate() {
                    values[*attr as usize] = vals[idx[c]];
                }
                let name = match (&name_override, &template) {
                    (Some(n), _) => n.clone(),
                    (None, Some(t)) => fill_template(t, |field| {
                        choices
                            .iter()
                            .enumerate()
                            .find_map(|(c, (attr, _, names))| {
                                (self.tables.attrs[*attr as usize].name == field)
                                    .then(|| names[idx[c]].clone())
                            })
                    }),
                    (None, None) => decl.name.text.clone(),
                };
                self.tables.cards.push(CardInfo { name, kind });
                self.tables.card_attrs.extend(values);
                self.tables.card_home.push(home);
            }
        }
    }

    /// For every attribute the entry sets, (attribute, its values, their
    /// names), and the entry's own `name:` if it has one.
    fn entry_choices(
        &mut self,
        decl: &ast::CardDecl,
        entry: &ast::DeckEntry,
    ) -> (Vec<Choice>, Option<String>) {
        let mut choices: Vec<Choice> = Vec::new();
        let mut name_override = None;
        for (n, v) in &entry.fields {
            // `name: "esquive (dodge)"` names the cards of this entry directly.
            if let (true, FieldValue::Str(s, _)) = (n.text == "name", v) {
                name_override = Some(s.clone());
                continue;
            }
            let Some((_, tname)) = decl.attrs.iter().find(|(a, _)| a.text == n.text) else {
                let known: Vec<&str> = decl.attrs.iter().map(|(a, _)| a.text.as_str()).collect();
                let hint = crate::diag::did_you_mean(&n.text, known.iter().copied())
                    .map(|s| format!("did you mean `{s}`?"))
                    .unwrap_or_else(|| {
                        format!(
                            "the attributes of `{}` are: {}",
                            decl.name.text,
                            known.join(", ")
                        )
                    });
                self.error(
                    Diagnostic::error(
                        code::UNKNOWN_NAME,
                        format!("unknown attribute `{}`", n.text),
                    )
                    .label(
                        n.span,
                        format!("`{}` has no attribute `{}`", decl.name.text, n.text),
                    )
                    .help(hint),
                );
                continue;
            };
            let attr = self
                .tables
                .attrs
                .iter()
                .position(|a| a.name == n.text)
                .expect("declared") as u16;
            let ty = self.tables.attrs[attr as usize].ty;
            let mut vals = Vec::new();
            let mut names = Vec::new();
            self.field_values(v, ty, tname, &mut vals, &mut names);
            choices.push((attr, vals, names));
        }
        (choices, name_override)
    }

    fn field_values(
        &mut self,
        v: &FieldValue,
        ty: Ty,
        tname: &ast::Name,
        vals: &mut Vec<i32>,
        names: &mut Vec<String>,
    ) {
        match (v, ty) {
            (FieldValue::Int(i, _), Ty::Int) => {
                vals.push(*i as i32);
                names.push(i.to_string());
            }
            (FieldValue::Range(lo, hi, span), Ty::Int) => {
                if hi.saturating_sub(*lo) >= MAX_CARDS as i64 {
                    self.error(too_many_cards(
                        *span,
                        format!("this range has {} values", hi.saturating_sub(*lo) + 1),
                    ));
                    return;
                }
                for i in *lo..=*hi {
                    vals.push(i as i32);
                    names.push(i.to_string());
                }
            }
            (FieldValue::Name(n), Ty::Enum(e)) => {
                let info = &self.tables.enums[e as usize];
                match info.values.iter().position(|x| *x == n.text) {
                    Some(i) => {
                        vals.push(i as i32);
                        names.push(n.text.clone());
                    }
                    None => {
                        let ename = info.name.clone();
                        let hint = crate::diag::did_you_mean(
                            &n.text,
                            info.values.iter().map(String::as_str),
                        )
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| {
                            format!("the values of `{ename}` are: {}", info.values.join(", "))
                        });
                        self.error(
                            Diagnostic::error(
                                code::UNKNOWN_NAME,
                                format!("`{}` is not a value of `{ename}`", n.text),
                            )
                            .label(n.span, "unknown value")
                            .help(hint),
                        );
                    }
                }
            }
            (FieldValue::List(items, _), _) => {
                for i in items {
                    self.field_values(i, ty, tname, vals, names);
                }
            }
            (_, Ty::Error) => {}
            (other, _) => {
                let span = field_span(other);
                self.error(
                    Diagnostic::error(code::TYPE_MISMATCH, "type mismatch in a deck entry")
                        .label(span, format!("this attribute is declared as `{}`", tname.text))
                        .help("give a number (or range) for int attributes and an enum value for enum attributes"),
                );
            }
        }
    }
}

/// The most cards a game may have (card ids are 16 bits wide; the limit
/// keeps expansion cheap and is documented in docs/language.md, "Limits").
pub const MAX_CARDS: usize = 50_000;

fn too_many_cards(span: Span, what: String) -> Diagnostic {
    Diagnostic::error(code::TOO_MANY_CARDS, format!("too many cards: {what}"))
        .label(span, format!("a game may have at most {MAX_CARDS} cards"))
        .help(format!(
            "the cards of all decks together may number at most {MAX_CARDS}; use fewer copies or narrower ranges"
        ))
}

impl super::Checker {
    /// Whether `copies x combos` more cards stay within [`MAX_CARDS`]; if
    /// not, the entry is refused (before anything is allocated).
    fn cards_fit(&mut self, combos: usize, copies: i64, entry: &ast::DeckEntry) -> bool {
        let copies = copies.max(0) as u64;
        let total = (combos as u64)
            .saturating_mul(copies)
            .saturating_add(self.tables.cards.len() as u64);
        if total <= MAX_CARDS as u64 {
            return true;
        }
        self.error(too_many_cards(
            entry.span,
            format!("this entry would bring the game to {total} cards"),
        ));
        false
    }
}

fn field_span(v: &FieldValue) -> Span {
    match v {
        FieldValue::Int(_, s)
        | FieldValue::Range(_, _, s)
        | FieldValue::List(_, s)
        | FieldValue::Str(_, s) => *s,
        FieldValue::Name(n) => n.span,
    }
}

/// The `{field}` names in a name template, with the byte range of each
/// `{field}` in the template.
fn template_fields(t: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(open) = t[at..].find('{') {
        let open = at + open;
        let Some(close) = t[open..].find('}') else {
            break;
        };
        let close = open + close;
        out.push((t[open + 1..close].trim().to_string(), open, close + 1));
        at = close + 1;
    }
    out
}

fn fill_template(t: &str, mut value: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = t;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let field = rest[open + 1..open + close].trim();
        out.push_str(&value(field).unwrap_or_default());
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}
