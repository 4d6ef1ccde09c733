//! `missing-deck-size`: a deck without `size N`. The declared size is how
//! the checker proves the entries make the intended number of cards, so a
//! deck without it can lose or gain cards silently when an entry changes.
//!
//! The HIR does not keep the size, so this lint reads the tokens after the
//! deck's name: `of KIND size N in ZONE` (comments and blanks skipped).

use super::{Context, Level, Lint, Pass};
use crate::diag::{Diagnostic, Span};

pub static LINT: Lint = Lint {
    name: "missing-deck-size",
    level: Level::Warning,
    description: "a deck without `size N`, so its card count is not checked",
    help: "write `deck NAME of KIND size N in ZONE`: the checker then proves the entries make N cards",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let t = &cx.hir.tables;
    for &(kind, span) in &cx.hir.usage.deck_spans {
        if has_size(&cx.source.text, span) {
            continue;
        }
        let name = cx.text(span);
        let mut d = LINT.at(
            span,
            format!("deck `{name}` does not declare its size"),
            "no `size N` here",
        );
        // The count can be told when this deck is the only one of its kind.
        let same_kind = cx
            .hir
            .usage
            .deck_spans
            .iter()
            .filter(|(k, _)| *k == kind)
            .count();
        if same_kind == 1 {
            let n = t.cards.iter().filter(|c| c.kind == kind).count();
            let kname = &t.kinds[kind as usize];
            d = d.help(format!(
                "its entries make {n} cards: write `deck {name} of {kname} size {n} in ...` so the checker keeps proving it"
            ));
        }
        out.push(d);
    }
}

/// Whether `of KIND size` follows the deck name ending at `name.end`.
fn has_size(text: &str, name: Span) -> bool {
    let mut rest = text.get(name.end as usize..).unwrap_or("");
    let mut words = Vec::new();
    while words.len() < 3 {
        rest = skip_trivia(rest);
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        words.push(&rest[..len]);
        rest = &rest[len..];
    }
    words.len() == 3 && words[0] == "of" && words[2] == "size"
}

/// Skip blanks and `#` comments, as the grammar does between tokens.
fn skip_trivia(mut s: &str) -> &str {
    loop {
        s = s.trim_start();
        match s.strip_prefix('#') {
            Some(c) => s = c.find('\n').map_or("", |i| &c[i..]),
            None => return s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_found_across_comments() {
        let t = "deck d of K # note\n size 3 in z { }";
        assert!(has_size(t, Span::new(0, 6)));
        assert!(!has_size("deck d of K in z { }", Span::new(0, 6)));
        assert!(!has_size("deck d", Span::new(0, 6)));
    }
}
