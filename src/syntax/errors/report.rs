//! The diagnostic of a chunk that does not parse: where it failed, what
//! was expected there in plain words, and which message fits (unterminated
//! string, unclosed or extra brace, unfinished line or declaration, unknown
//! statement, unexpected token) with the form of the construct as help.

use super::super::Rule;
use super::words::{EXPR_STARTS, FORMS, OPERATORS, RESERVED, STMT_WORDS, SYNONYMS};
use super::{Braces, ITEM_WORDS, braces, code_end, first_word, unterminated_string};
use crate::diag::code;
use crate::diag::{Diagnostic, Span};
use pest::error::{ErrorVariant, InputLocation};

/// What a grammar rule means to a designer, for "expected ..." lists.
fn describe(rule: &Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rule {
        ident => "a name",
        int => "a number",
        string | string_inner => "a string",
        expr | primary | literal | call | aggregate | agg_fn | op_not | op_neg => "an expression",
        op_or | op_and | op_in | op_eq | op_ne | op_le | op_ge | op_lt | op_gt | op_range
        | op_add | op_sub | op_mul | op_div | op_mod => "an operator",
        block => "`{`",
        let_stmt | if_stmt | loop_stmt | while_stmt | for_stmt | choose_stmt | window_stmt
        | move_stmt | deal_stmt | shuffle_stmt | swap_stmt | peek_stmt | reveal_stmt | end_stmt
        | leave_stmt | return_stmt | break_stmt | call_stmt | assign_stmt => "a statement",
        game_decl | option_decl | enum_decl | card_decl | deck_decl | zone_decl | var_decl
        | phase_decl | turn_decl | reaction_decl | start_decl | winners_decl => "a declaration",
        EOI => "the end of the file",
        type_name => "a type",
        zone_owner => "`shared` or `per player`",
        zone_shape => "`pile`, `row` or `set`",
        visibility => "`public`, `owner`, `hidden` or `top`",
        direction => "`clockwise` or `counterclockwise`",
        extreme => "`lowest` or `highest`",
        option_arm => "an option label (a string)",
        otherwise => "`otherwise`",
        assign_op => "`=`, `+=` or `-=`",
        deck_entry => "a deck entry such as `2 x { value: 1..9 }`",
        field_init => "a field such as `value: 3`",
        params => "`(`",
        players_prop | seating_prop => "`players` or `seating`",
        deck_size => "`size`",
        filter => "`where`",
        binding => "`for`",
        binding_also => "`,` and a second source",
        guard => "`when`",
        at_end => "`at top` or `at bottom`",
        per_player => "`per player`",
        _ => return None,
    })
}

/// The plain-words list of what the parser expected at the error.
pub(super) fn expected(e: &pest::error::Error<Rule>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let positives: &[Rule] = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        ErrorVariant::CustomError { .. } => &[],
    };
    let start = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let (tokens, farther, same) = match e.parse_attempts() {
        Some(a) => {
            let t = a.expected_tokens();
            let farther = a.max_position > start && meaningful(&t);
            let same = a.max_position == start;
            // Tokens that are only a word's lookahead say nothing useful.
            (if same || farther { t } else { Vec::new() }, farther, same)
        }
        None => (Vec::new(), false, false),
    };
    // `ParsingToken` is not exported: read its display form, which
    // is the token itself or `a..z` for a range of characters.
    let tokens: Vec<String> = tokens.iter().map(ToString::to_string).collect();
    // The positives describe `start`: useless when the tokens are farther on.
    let positives = if farther { &[][..] } else { positives };
    if tokens.is_empty() {
        out.extend(positives.iter().filter_map(describe).map(str::to_string));
        if let Some(attempts) = e.parse_attempts().filter(|_| same) {
            for stack in attempts.call_stacks() {
                if let Some(d) = stack.deepest.get_rule().and_then(describe) {
                    out.push(d.to_string());
                }
            }
        }
    } else {
        // The literal tokens are precise; a few rules say more than their characters.
        for r in positives {
            if matches!(r, Rule::type_name | Rule::string | Rule::EOI) {
                out.extend(describe(r).map(str::to_string));
            }
        }
    }
    let (items, stmts) = token_words(&tokens, &mut out);
    // Many keywords of one family read better as the family.
    if items >= 3 {
        out.retain(|x| !ITEM_WORDS.iter().any(|w| *x == format!("`{w}`")));
        out.push("a declaration".into());
    }
    if stmts >= 3 {
        out.retain(|x| !STMT_WORDS.iter().any(|w| *x == format!("`{w}`")));
        out.push("a statement".into());
    }
    narrow(&mut out);
    out.sort_by_key(|x| (!x.starts_with('`'), x == "an operator", x.clone()));
    out.dedup();
    out
}

/// Each expected token in words, added to `out`; returns how many were
/// declaration keywords and how many statement keywords.
fn token_words(tokens: &[String], out: &mut Vec<String>) -> (usize, usize) {
    let mut items = 0;
    let mut stmts = 0;
    // One expression starter alone (a `(` after a name) is just that token,
    // and one operator alone (the `in` of `for x in`) too.
    let starters = tokens
        .iter()
        .filter(|t| EXPR_STARTS.contains(&t.as_str()))
        .count();
    let operators = tokens
        .iter()
        .filter(|t| OPERATORS.contains(&t.as_str()))
        .count();
    for t in tokens {
        let text = match t.as_str() {
            "0..9" => "0",
            r if r.len() == 4 && r.contains("..") => "_",
            r => r,
        };
        out.push(match text {
            // `-` also starts an expression; `.` and `[` are rarely what is missing.
            " " | "\t" | "\r" | "\n" | "#" | "." | "[" | "-" => continue,
            "0" => "a number".into(),
            "_" => "a name".into(),
            "\"" => "a string".into(),
            t if ITEM_WORDS.contains(&t) => {
                items += 1;
                format!("`{t}`")
            }
            t if STMT_WORDS.contains(&t) => {
                stmts += 1;
                format!("`{t}`")
            }
            t if OPERATORS.contains(&t) && operators > 1 => "an operator".into(),
            t if EXPR_STARTS.contains(&t) && starters > 1 => "an expression".into(),
            t => format!("`{t}`"),
        });
    }
    (items, stmts)
}

/// Broader categories swallow the narrower ones they include.
fn narrow(out: &mut Vec<String>) {
    let has = |out: &Vec<String>, s: &str| out.iter().any(|x| x == s);
    if has(out, "an expression") || has(out, "a statement") {
        out.retain(|x| x != "a name" && x != "a number");
    }
    if has(out, "an expression") {
        // `if ... then ... else ...` is an expression too.
        out.retain(|x| x != "`if`");
    }
    if has(out, "a declaration") {
        out.retain(|x| x != "a name");
    }
    if has(out, "a type") {
        out.retain(|x| x != "a name");
    }
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => one.clone(),
        _ => {
            let (last, rest) = items.split_last().expect("non-empty");
            format!("{} or {last}", rest.join(", "))
        }
    }
}

/// The token at `pos`: a word, a two-character operator or one character.
fn token_at(text: &str, pos: usize) -> &str {
    let rest = &text[pos..];
    let word = first_word(rest);
    if !word.is_empty() {
        return word;
    }
    for op in ["==", "!=", "<=", ">=", "..", "+=", "-="] {
        if rest.starts_with(op) {
            return &rest[..2];
        }
    }
    rest.chars().next().map_or("", |c| &rest[..c.len_utf8()])
}

/// The help line for an error on the line holding `pos`: the form of the
/// statement or declaration that line starts with.
fn form_help(text: &str, pos: usize) -> Option<String> {
    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].trim_start();
    let word = if line.starts_with('"') {
        "\""
    } else {
        first_word(line)
    };
    FORMS
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(w, form)| match *w {
            "\"" => format!("an option of a `choose` or `window` is written {form}"),
            _ => format!("`{w}` is written {form}"),
        })
}

fn line_of(text: &str, pos: usize) -> usize {
    text[..pos].bytes().filter(|b| *b == b'\n').count() + 1
}

/// A pest failure as a diagnostic: the first explanation that fits, from
/// the most particular (an unterminated string, a stray `}`, a chunk that
/// ended early, an unfinished line above, a word that is not a statement)
/// to the general "unexpected X".
pub(super) fn to_diagnostic(
    full: &str,
    offset: usize,
    chunk: &str,
    e: &pest::error::Error<Rule>,
) -> Diagnostic {
    let pos = error_pos(e, chunk);
    if let Some(q) = unterminated_string(chunk)
        && q <= pos
    {
        let at = offset + q;
        return Diagnostic::error(code::UNTERMINATED_STRING, "unterminated string")
            .label(Span::new(at, at + 1), "this string is never closed")
            .help("close it with `\"` on the same line: a string cannot span lines");
    }
    let expected = expected(e);
    let expected_text = join_or(&expected);
    let end = code_end(chunk);
    let b = braces(chunk);
    // A `}` too many, if the parse went wrong after it (before it, the
    // mistake is elsewhere, such as a missing `{`).
    let trigger = b
        .stray
        .map(|stray| b.early.map_or(stray, |(e, _)| e.min(stray)));
    if let Some(stray) = b.stray
        && trigger.is_some_and(|t| pos > t)
    {
        return stray_brace(full, offset, stray, &b);
    }
    if pos >= end {
        return ended_early(full, offset, chunk, &b, &expected, end);
    }
    let found = token_at(chunk, pos);
    if RESERVED.contains(&found) && expected.iter().any(|x| x == "a name") {
        let at = offset + pos;
        return Diagnostic::error(code::RESERVED_WORD, format!("`{found}` is a reserved word"))
            .label(Span::new(at, at + found.len()), "cannot be a name")
            .help(format!(
                "rename it, for example `my_{found}`: docs/language.md lists the reserved words"
            ));
    }
    if let Some(d) = unfinished_line(offset, chunk, pos, &expected) {
        return d;
    }
    if let Some(d) = not_a_statement(offset, chunk, pos, &expected) {
        return d;
    }
    let at = offset + pos;
    if found == "=" && expected.iter().any(|x| x == "an operator") {
        return Diagnostic::error(code::SYNTAX, "unexpected `=`")
            .label(Span::new(at, at + 1), format!("expected {expected_text}"))
            .help("to compare two values write `==`; a single `=` sets a variable");
    }
    let help = form_help(chunk, pos).unwrap_or_else(|| {
        if expected_text == "something else" {
            format!("remove `{found}`, or check the line above it")
        } else {
            format!("write {expected_text} here, or remove `{found}`")
        }
    });
    Diagnostic::error(code::SYNTAX, format!("unexpected `{found}`"))
        .label(
            Span::new(at, at + found.len().max(1)),
            format!("expected {expected_text}"),
        )
        .help(help)
}

/// A `}` that closes nothing (or one too many, closing a block early).
fn stray_brace(full: &str, offset: usize, stray: usize, b: &Braces) -> Diagnostic {
    let at = offset + stray;
    match b.early {
        Some((early, opened)) if early < stray => {
            let line = line_of(full, offset + opened);
            let early_line = line_of(full, offset + early);
            Diagnostic::error(code::UNBALANCED_BRACE, "one `}` too many")
                .label(
                    Span::new(offset + early, offset + early + 1),
                    format!("this `}}` closes the block opened on line {line}"),
                )
                .label(Span::new(at, at + 1), "so this one closes nothing")
                .help(format!(
                    "remove the extra `}}`, probably the one on line {early_line}"
                ))
        }
        _ => Diagnostic::error(code::UNBALANCED_BRACE, "unmatched `}`")
            .label(Span::new(at, at + 1), "this `}` closes nothing")
            .help("remove it, or add the `{` it was meant to close"),
    }
}

/// The chunk ended before the declaration did.
fn ended_early(
    full: &str,
    offset: usize,
    chunk: &str,
    b: &Braces,
    expected: &[String],
    end: usize,
) -> Diagnostic {
    let expected_text = join_or(expected);
    // The chunk ended too early.
    let at_eof = offset + chunk.len() >= full.trim_end().len();
    if !b.open.is_empty() && expected.iter().any(|x| x == "`}`") {
        return unclosed(full, offset, chunk, b, at_eof);
    }
    let title = if at_eof {
        "unexpected end of file"
    } else {
        "unfinished declaration"
    };
    let help = form_help(chunk, end.saturating_sub(1))
        .or_else(|| form_help(chunk, 0))
        .unwrap_or_else(|| "finish the declaration".to_string());
    let (s, e) = last_token(chunk, end);
    let mut d = Diagnostic::error(code::SYNTAX, title).label(
        Span::new(offset + s, offset + e),
        format!("expected {expected_text} after this"),
    );
    if expected.iter().any(|x| x == "`)`")
        && let Some(open) = unclosed_paren(&chunk[..end])
    {
        d = d.label(
            Span::new(offset + open, offset + open + 1),
            "this `(` is never closed",
        );
    }
    d.help(help)
}

/// Nothing on the failing line can follow the line above: that line is
/// unfinished.
fn unfinished_line(
    offset: usize,
    chunk: &str,
    pos: usize,
    expected: &[String],
) -> Option<Diagnostic> {
    let expected_text = join_or(expected);
    let line_start = chunk[..pos].rfind('\n').map_or(0, |i| i + 1);
    let first_on_line = chunk[line_start..pos].trim().is_empty();
    let line_could_start = expected
        .iter()
        .any(|x| matches!(x.as_str(), "a statement" | "a declaration" | "`}`"));
    let prev_end = code_end(&chunk[..line_start]);
    if !(first_on_line && !line_could_start && prev_end > 0) {
        return None;
    }
    // Nothing on this line can follow: the line above is unfinished.
    let (s, e) = last_token(chunk, prev_end);
    let prev_start = chunk[..s].rfind('\n').map_or(0, |i| i + 1);
    let word = first_word(chunk[prev_start..].trim_start());
    let title = if FORMS.iter().any(|(w, _)| *w == word) {
        format!("unfinished `{word}`")
    } else {
        "unfinished line".to_string()
    };
    let help = form_help(chunk, s)
        .unwrap_or_else(|| format!("write {expected_text} at the end of this line"));
    Some(
        Diagnostic::error(code::SYNTAX, title)
            .label(
                Span::new(offset + s, offset + e),
                format!("expected {expected_text} after this"),
            )
            .help(help),
    )
}

/// A line that starts with a word the parser could only take for a
/// variable being set: most likely a statement that does not exist.
fn not_a_statement(
    offset: usize,
    chunk: &str,
    pos: usize,
    expected: &[String],
) -> Option<Diagnostic> {
    let line_start = chunk[..pos].rfind('\n').map_or(0, |i| i + 1);
    let indent = chunk[line_start..].len() - chunk[line_start..].trim_start().len();
    let word_start = line_start + indent;
    let word = first_word(&chunk[word_start..]);
    let word_end = word_start + word.len();
    let statement_like = !word.is_empty()
        && word_end <= pos
        && chunk[word_end..pos].trim().is_empty()
        && expected.iter().any(|x| x == "`=`")
        && !FORMS.iter().any(|(w, _)| *w == word);
    if !statement_like {
        return None;
    }
    let synonym = SYNONYMS.iter().find(|(w, _)| *w == word).map(|(_, h)| *h);
    let help = match (
        synonym,
        crate::diag::did_you_mean(word, STMT_WORDS.iter().copied()),
    ) {
        (Some(h), _) => h.to_string(),
        (None, Some(w)) => format!("did you mean `{w}`?"),
        (None, None) => "a statement starts with a keyword such as `move`, `deal`, `let` or `if`; \
                 a phase is called as `name(...)` and a variable set with `name = value`"
            .to_string(),
    };
    Some(
        Diagnostic::error(code::SYNTAX, format!("`{word}` is not a statement"))
            .label(
                Span::new(offset + word_start, offset + word_end),
                "not a keyword, a phase call or an assignment",
            )
            .help(help),
    )
}

/// The diagnostic for a block still open where its declaration ends.
fn unclosed(full: &str, offset: usize, chunk: &str, b: &Braces, at_eof: bool) -> Diagnostic {
    let open = offset + b.suspect.unwrap_or(*b.open.last().expect("open"));
    let mut d = Diagnostic::error(code::UNBALANCED_BRACE, "unclosed `{`")
        .label(Span::new(open, open + 1), "this `{` is never closed");
    if let Some(close) = b.suspect_close {
        let line = line_of(full, offset + close);
        d = d.help(format!(
            "add the missing `}}`: as written, the `}}` on line {line} closes this block, which leaves the one around it open"
        ));
    } else {
        d = d.help("add a `}` where this block ends");
    }
    if at_eof {
        let end = full.trim_end().len();
        d.label(Span::new(end - 1, end), "the file ends here")
    } else {
        let next = offset + chunk.len();
        let word = first_word(&full[next..]);
        d.label(
            Span::new(next, next + word.len()),
            format!("`{word}` starts a new declaration inside the block"),
        )
    }
}

/// Where the parse failed. pest reports where the failing rule started;
/// its detailed attempts know the farthest point reached, which is better
/// unless all it wanted there was more letters of a word (a keyword's
/// lookahead, not a real expectation).
pub(super) fn error_pos(e: &pest::error::Error<Rule>, chunk: &str) -> usize {
    let start = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let pos = match e.parse_attempts() {
        Some(a) if a.max_position > start && meaningful(&a.expected_tokens()) => a.max_position,
        _ => start,
    };
    pos.min(chunk.len())
}

/// Whether pest's expected tokens say more than "whitespace or letters".
fn meaningful<T: std::fmt::Display>(tokens: &[T]) -> bool {
    tokens.iter().any(|t| {
        let t = t.to_string();
        let letters = t.len() == 4 && t.contains("..") || t == "_";
        !(letters || matches!(t.as_str(), " " | "\t" | "\r" | "\n" | "#"))
    })
}

/// The byte range of the token that ends at `end` (a word or one character).
fn last_token(text: &str, end: usize) -> (usize, usize) {
    let before = &text[..end];
    let word = before.len()
        - before
            .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
            .len();
    let len = if word > 0 {
        word
    } else {
        before.chars().next_back().map_or(0, char::len_utf8)
    };
    (end - len, end)
}

/// The last `(` of `text` left open, outside strings and comments.
fn unclosed_paren(text: &str) -> Option<usize> {
    let mut open = Vec::new();
    for line_start in std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)) {
        let line = &text[line_start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let mut in_string = false;
        for (i, c) in line.char_indices() {
            match c {
                '"' => in_string = !in_string,
                '#' if !in_string => break,
                '(' if !in_string => open.push(line_start + i),
                ')' if !in_string => {
                    open.pop();
                }
                _ => {}
            }
        }
    }
    open.pop()
}
