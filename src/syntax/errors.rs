//! Turns pest's failures into diagnostics, and recovers so that one run
//! reports a syntax error in every top-level declaration, not only the first.
//!
//! Recovery: when the whole file does not parse, it is cut into chunks at
//! lines that start (in column 0) with a declaration keyword, and each chunk
//! is parsed alone. A chunk that fails gets one diagnostic, and as much of it
//! as can be saved still goes to the checker (the chunk completed by a token
//! the parser expected at its end, or with its missing `}` added, or cut at
//! the error or at a line before it, its open blocks closed), so that its
//! name is known and uses elsewhere do not turn into a cascade of "unknown
//! name" errors. Text is only ever added after the code kept, so every span
//! stays true to the file.
//!
//! `errors/report.rs` words the diagnostic of a failed chunk;
//! `errors/words.rs` holds the keyword lists and the form of each construct.

use super::Rule;
use super::ast::{File, Item};
use super::parse::{Builder, parse_raw};
use crate::diag::Diagnostic;

mod report;
mod words;
pub(crate) use words::RESERVED;

use report::{error_pos, expected, to_diagnostic};

/// Words that start a top-level declaration at the beginning of a line.
pub(crate) const ITEM_WORDS: &[&str] = &[
    "game",
    "option",
    "enum",
    "card",
    "deck",
    "zone",
    "var",
    "table",
    "fn",
    "invariant",
    "board",
    "pattern",
    "variant",
    "phase",
    "turn",
    "reaction",
    "start",
    "winners",
    "evaluate",
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
        Err(whole) => recover(text, whole),
    }
}

fn recover(text: &str, whole: pest::error::Error<Rule>) -> (File, Vec<Diagnostic>) {
    let mut file = File::default();
    let mut errors = Vec::new();
    let mut syntax_errors = 0;
    for (start, end) in chunks(text) {
        let chunk = &text[start..end];
        match parse_raw(chunk) {
            Ok(pairs) => build(pairs, start, &mut file, &mut errors, false),
            Err(e) => {
                syntax_errors += 1;
                let e = detailed(chunk).unwrap_or(e);
                let d = to_diagnostic(text, start, chunk, &e);
                let cut = d.span().map_or(start, |s| s.start as usize) - start;
                errors.push(d);
                // At the end of the chunk, a missing word can be supplied
                // without moving any span: try the tokens the parser expected.
                let tail = if error_pos(&e, chunk) >= code_end(chunk) {
                    tail_tokens(&expected(&e))
                } else {
                    Vec::new()
                };
                salvage(chunk, start, cut, &tail, &mut file, &mut errors);
            }
        }
    }
    if syntax_errors == 0 {
        // The chunks parse alone but not together (a declaration keyword in
        // column 0 inside a block): report the whole file's error.
        errors.push(to_diagnostic(text, 0, text, &whole));
    }
    (file, errors)
}

/// The expected tokens that may complete a chunk cut short. A word is
/// tried only where no name can stand (else it would become one, with a
/// span past the end of the code).
fn tail_tokens(expected: &[String]) -> Vec<String> {
    let names_fit = expected.iter().any(|x| {
        matches!(
            x.as_str(),
            "a name" | "an expression" | "a statement" | "a declaration"
        )
    });
    expected
        .iter()
        .filter_map(|x| x.strip_prefix('`')?.strip_suffix('`'))
        .filter(|t| match *t {
            ")" | "]" | "}" => true,
            w if w.chars().all(|c| c.is_ascii_alphabetic()) => !names_fit,
            _ => false,
        })
        .map(str::to_string)
        .collect()
}

/// Parse a failing chunk again, asking pest for the literal tokens it
/// expected (`to`, `}`, ...), not only the rules. The switch is global and
/// makes parsing about three times slower, so it is on only for this parse,
/// one thread at a time.
fn detailed(chunk: &str) -> Option<pest::error::Error<Rule>> {
    static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    struct Off;
    impl Drop for Off {
        fn drop(&mut self) {
            pest::set_error_detail(false);
        }
    }
    let _lock = DETAIL.lock().unwrap_or_else(|e| e.into_inner());
    pest::set_error_detail(true);
    let _off = Off;
    parse_raw(chunk).err()
}

/// Add the declarations of a parsed chunk to `file`.
fn build(
    mut pairs: pest::iterators::Pairs<Rule>,
    offset: usize,
    file: &mut File,
    errors: &mut Vec<Diagnostic>,
    truncated: bool,
) {
    let mut b = Builder::new();
    b.set_offset(offset);
    let sub = b.file(pairs.next().expect("file"));
    for mut item in sub.items {
        if truncated && let Item::Deck(d) = &mut item {
            // Entries were cut off: the declared size cannot be checked.
            d.size = None;
        }
        file.items.push(item);
    }
    errors.extend(b.errors);
}

/// Save what can be saved of a chunk that does not parse: first the chunk
/// completed by one of the `tail` tokens, then the whole chunk with its
/// open blocks closed, then ever shorter prefixes of whole lines before the
/// error (at `cut`), each with its open blocks closed. Every attempt only
/// adds text after the chunk's code, so the spans stay right.
fn salvage(
    chunk: &str,
    offset: usize,
    cut: usize,
    tail: &[String],
    file: &mut File,
    errors: &mut Vec<Diagnostic>,
) {
    let code = &chunk[..code_end(chunk)];
    for t in tail {
        let with = format!("{code} {t}");
        let fixed = format!("{with}\n{}", "}".repeat(braces(&with).open.len()));
        if let Ok(pairs) = parse_raw(&fixed) {
            build(pairs, offset, file, errors, false);
            return;
        }
    }
    let whole = braces(chunk);
    if !whole.open.is_empty() && whole.stray.is_none() {
        let fixed = format!("{}\n{}", chunk.trim_end(), "}".repeat(whole.open.len()));
        if let Ok(pairs) = parse_raw(&fixed) {
            build(pairs, offset, file, errors, false);
            return;
        }
    }
    // Everything before the error, when that is a whole declaration
    // (`var score: int per player` before a stray `0`).
    let head = chunk[..cut.min(chunk.len())].trim_end();
    let b = braces(head);
    if !head.is_empty() && b.stray.is_none() {
        let fixed = format!("{head}\n{}", "}".repeat(b.open.len()));
        if let Ok(pairs) = parse_raw(&fixed) {
            build(pairs, offset, file, errors, true);
            return;
        }
    }
    let mut ends: Vec<usize> = chunk[..cut.min(chunk.len())]
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .collect();
    ends.reverse();
    for end in ends.into_iter().take(16) {
        let prefix = &chunk[..end];
        let b = braces(prefix);
        if b.stray.is_some() {
            continue;
        }
        let fixed = format!("{prefix}{}", "}".repeat(b.open.len()));
        if let Ok(pairs) = parse_raw(&fixed) {
            build(pairs, offset, file, errors, true);
            return;
        }
    }
}

/// Byte ranges of the top-level declarations: each starts at a line that
/// begins (in column 0) with a declaration keyword.
fn chunks(text: &str) -> Vec<(usize, usize)> {
    let mut starts = vec![0];
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if offset > 0 && ITEM_WORDS.contains(&first_word(line)) {
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

pub(crate) fn first_word(line: &str) -> &str {
    let end = line
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(line.len());
    &line[..end]
}

/// The braces of a piece of source, outside strings and comments.
#[derive(Default)]
pub(crate) struct Braces {
    /// Positions of the `{` never closed, outermost first.
    pub open: Vec<usize>,
    /// A `{` that is probably the one missing its `}`: a `}` closed it while
    /// lined up with an outer block's line.
    pub suspect: Option<usize>,
    /// The `}` that closed the suspect.
    pub suspect_close: Option<usize>,
    /// A `}` that closes nothing.
    pub stray: Option<usize>,
    /// A `}` more indented than the line of the `{` it closes: probably one
    /// too many, closing its block early. With the `{` it closes.
    pub early: Option<(usize, usize)>,
}

pub(crate) fn braces(text: &str) -> Braces {
    let mut out = Braces::default();
    // (position of `{`, indentation of its line)
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut line_start = 0;
    let mut in_string = false;
    let mut in_comment = false;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            line_start = i + 1;
            in_string = false;
            in_comment = false;
            continue;
        }
        if in_comment {
            continue;
        }
        if in_string {
            in_string = c != '"';
            continue;
        }
        let indent =
            |at: usize| text[at..].len() - text[at..].trim_start_matches([' ', '\t']).len();
        match c {
            '"' => in_string = true,
            '#' => in_comment = true,
            '{' => stack.push((i, indent(line_start))),
            '}' => match stack.pop() {
                Some((open, open_indent)) => {
                    let first_on_line = text[line_start..i].trim().is_empty();
                    let col = i - line_start;
                    if first_on_line
                        && out.suspect.is_none()
                        && open_indent > col
                        && stack.iter().any(|(_, ind)| *ind == col)
                    {
                        out.suspect = Some(open);
                        out.suspect_close = Some(i);
                    }
                    if first_on_line && out.early.is_none() && col > open_indent {
                        out.early = Some((i, open));
                    }
                }
                None => {
                    if out.stray.is_none() {
                        out.stray = Some(i);
                    }
                }
            },
            _ => {}
        }
    }
    out.open = stack.into_iter().map(|(p, _)| p).collect();
    out
}

/// The position of a `"` that opens a string never closed on its line.
pub(crate) fn unterminated_string(chunk: &str) -> Option<usize> {
    let mut offset = 0;
    for line in chunk.split_inclusive('\n') {
        let mut open: Option<usize> = None;
        for (i, c) in line.char_indices() {
            match (c, open) {
                ('"', None) => open = Some(i),
                ('"', Some(_)) => open = None,
                ('#', None) => break,
                _ => {}
            }
        }
        if let Some(q) = open {
            return Some(offset + q);
        }
        offset += line.len();
    }
    None
}

/// The length of `chunk` without its trailing whitespace and comments.
pub(crate) fn code_end(chunk: &str) -> usize {
    let mut end = 0;
    let mut offset = 0;
    for line in chunk.split_inclusive('\n') {
        let mut code = line.len();
        let mut in_string = false;
        for (i, c) in line.char_indices() {
            match c {
                '"' => in_string = !in_string,
                '#' if !in_string => {
                    code = i;
                    break;
                }
                _ => {}
            }
        }
        let trimmed = line[..code].trim_end().len();
        if trimmed > 0 {
            end = offset + trimmed;
        }
        offset += line.len();
    }
    end
}
