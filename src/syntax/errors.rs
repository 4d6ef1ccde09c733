//! Turns pest's failures into diagnostics, and recovers so that one run
//! reports a syntax error in every top-level declaration, not only the first.

use super::Rule;
use super::ast::File;
use super::parse::{Builder, parse_raw};
use crate::diag::{Diagnostic, Span};
use pest::error::{ErrorVariant, InputLocation};

/// Words that start a top-level declaration at the beginning of a line.
const ITEM_WORDS: &[&str] = &[
    "game", "option", "enum", "card", "deck", "zone", "var", "phase", "turn", "reaction", "start",
    "winners",
];

/// Parse a rules file. Returns the AST of every declaration that parsed and
/// a diagnostic for every one that did not.
pub fn parse_file(text: &str) -> (File, Vec<Diagnostic>) {
    let mut b = Builder::new();
    match parse_raw(text) {
        Ok(mut pairs) => {
            let file = b.file(pairs.next().expect("file"));
            (file, b.errors)
        }
        Err(_) => {
            // Parse each top-level declaration on its own to find every error.
            let mut file = File::default();
            let mut errors = Vec::new();
            for (start, end) in chunks(text) {
                let chunk = &text[start..end];
                match parse_raw(chunk) {
                    Ok(mut pairs) => {
                        let mut cb = Builder::new();
                        cb.set_offset(start);
                        let sub = cb.file(pairs.next().expect("file"));
                        file.items.extend(sub.items);
                        errors.extend(cb.errors);
                    }
                    Err(e) => errors.push(to_diagnostic(text, chunk, start, e)),
                }
            }
            errors.extend(b.errors);
            (file, errors)
        }
    }
}

/// Byte ranges of the top-level declarations: each starts at a line that
/// begins (in column 0) with a declaration keyword.
fn chunks(text: &str) -> Vec<(usize, usize)> {
    let mut starts = vec![0];
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let word: String = line
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        if offset > 0 && ITEM_WORDS.contains(&word.as_str()) {
            starts.push(offset);
        }
        offset += line.len();
    }
    let mut out = Vec::new();
    for (i, s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(text.len());
        out.push((*s, e));
    }
    out
}

/// The position of a `"` that opens a string never closed on its line.
fn unterminated_string(chunk: &str) -> Option<usize> {
    let mut offset = 0;
    for line in chunk.split_inclusive('\n') {
        let code = match line.find('#') {
            // a `#` inside a string is not a comment; good enough: only cut
            // when the quote count before it is even
            Some(h) if line[..h].matches('"').count() % 2 == 0 => &line[..h],
            _ => line,
        };
        if code.matches('"').count() % 2 == 1 {
            let q = code.rfind('"').unwrap_or(0);
            return Some(offset + q);
        }
        offset += line.len();
    }
    None
}

fn describe(rule: &Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::ident => "a name",
        Rule::int => "a number",
        Rule::string => "a string",
        Rule::expr | Rule::prefix | Rule::primary => "an expression",
        Rule::block => "`{`",
        Rule::stmt => "a statement",
        Rule::item => "a declaration (game, option, enum, card, deck, zone, var, phase, turn, reaction, start, winners)",
        Rule::EOI => "end of file",
        Rule::infix => "an operator",
        Rule::postfix | Rule::field | Rule::index => "`.` or `[`",
        Rule::type_name => "a type",
        Rule::zone_owner => "`shared` or `per player`",
        Rule::zone_shape => "`pile`, `row` or `set`",
        Rule::visibility => "`public`, `owner`, `hidden` or `top`",
        Rule::direction => "`clockwise` or `counterclockwise`",
        Rule::extreme => "`lowest` or `highest`",
        Rule::option_arm => "an option (a string label)",
        Rule::otherwise => "`otherwise`",
        Rule::assign_op => "`=`, `+=` or `-=`",
        Rule::deck_entry => "a deck entry such as `2 x { value: 1..9 }`",
        Rule::field_init => "a field such as `value: 3`",
        Rule::params => "`(`",
        Rule::players_prop | Rule::seating_prop => "`players` or `seating`",
        Rule::deck_size => "`size`",
        Rule::filter => "`where`",
        Rule::binding => "`for`",
        Rule::guard => "`when`",
        Rule::at_end => "`at top` or `at bottom`",
        Rule::per_player => "`per player`",
        _ => return None,
    })
}

fn to_diagnostic(full: &str, chunk: &str, offset: usize, e: pest::error::Error<Rule>) -> Diagnostic {
    if let Some(q) = unterminated_string(chunk) {
        let at = offset + q;
        return Diagnostic::error("E0002", "unterminated string")
            .label(Span::new(at, at + 1), "this string is never closed")
            .help("close the string with `\"` on the same line; strings cannot span lines");
    }
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    } + offset;
    let at_end = full[pos..].trim().is_empty() || pos >= offset + chunk.trim_end().len();
    let mut expected: Vec<&str> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            positives.iter().filter_map(describe).collect()
        }
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    expected.sort();
    expected.dedup();
    let found = full[pos..]
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap_or("")
        .chars()
        .take(20)
        .collect::<String>();
    let expected_text = match expected.len() {
        0 => "something else".to_string(),
        1 => expected[0].to_string(),
        _ => {
            let (last, rest) = expected.split_last().expect("non-empty");
            format!("{} or {}", rest.join(", "), last)
        }
    };
    if at_end {
        let end = (offset + chunk.trim_end().len()).max(1);
        Diagnostic::error("E0001", "unexpected end of declaration")
            .label(Span::new(end - 1, end), format!("expected {expected_text} after this"))
            .help("a block or declaration is not finished: check for a missing `}` or a missing value")
    } else {
        let len = found.len().max(1);
        Diagnostic::error("E0001", "syntax error")
            .label(
                Span::new(pos, (pos + len).min(full.len())),
                format!("expected {expected_text}"),
            )
            .help(format!(
                "found `{}` here; see docs/language.md for the form of each declaration and statement",
                if found.is_empty() { " " } else { &found }
            ))
    }
}
