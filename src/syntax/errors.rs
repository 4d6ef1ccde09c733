//! Turns pest's failures into diagnostics, and recovers so that one run
//! reports a syntax error in every top-level declaration, not only the first.
//!
//! Recovery: when the whole file does not parse, it is cut into chunks at
//! lines that start (in column 0) with a declaration keyword, and each chunk
//! is parsed alone. A chunk that fails gets one diagnostic, and as much of it
//! as can be saved (the chunk with its missing `}` added, or its longest
//! prefix of whole lines that parses once its open blocks are closed) still
//! goes to the checker, so that its name is known and uses elsewhere do not
//! turn into a cascade of "unknown name" errors.

use super::Rule;
use super::ast::{File, Item};
use super::parse::{Builder, parse_raw};
use crate::diag::{Diagnostic, Span};
use pest::error::{ErrorVariant, InputLocation};

/// Words that start a top-level declaration at the beginning of a line.
const ITEM_WORDS: &[&str] = &[
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
];

/// How each construct is written, by its first word: the help line of a
/// syntax error on a line that starts with that word.
const FORMS: &[(&str, &str)] = &[
    ("game", "`game \"Name\" { players 2..4 seating clockwise }`"),
    (
        "option",
        "`option NAME = DEFAULT in MIN..MAX \"what it changes\"`",
    ),
    ("enum", "`enum NAME { first, second, third }`"),
    ("table", "`table NAME: ENUM -> int { first: 1, second: 2 }`"),
    ("fn", "`fn NAME(x: TYPE) -> TYPE = EXPRESSION`"),
    ("variant", "`variant \"NAME\" extends \"BASE\"`"),
    (
        "invariant",
        "`invariant \"what must always hold\": CONDITION`",
    ),
    (
        "board",
        "`board NAME { grid 8 x 8 }`, with `remove`, `merge` or `region NAME =` and cells such as `a1..a8`",
    ),
    (
        "pattern",
        "`pattern NAME: step (0, 1) (1, 0)`, the modes being `step`, `slide` and `leap`",
    ),
    (
        "card",
        "`card NAME { attribute: TYPE  name \"{attribute}\" }`",
    ),
    (
        "deck",
        "`deck NAME of KIND size N in ZONE { 2 x { attribute: 1..9 } }`",
    ),
    (
        "zone",
        "`zone NAME: shared|per player pile|row|set public|owner|hidden|top`",
    ),
    (
        "var",
        "`var NAME: TYPE per player = VALUE` (`per player` and `= VALUE` are optional)",
    ),
    (
        "phase",
        "`phase NAME(p: player) { ... }` (the parameters are optional)",
    ),
    ("turn", "`turn NAME(p: player) { ... }`"),
    ("reaction", "`reaction NAME(c: card) on enter ZONE { ... }`"),
    ("start", "`start { ... }`"),
    (
        "winners",
        "`winners highest EXPRESSION` or `winners lowest EXPRESSION`",
    ),
    ("let", "`let NAME = EXPRESSION`"),
    ("if", "`if CONDITION { ... } else { ... }`"),
    (
        "else",
        "`if CONDITION { ... } else { ... }` or `else if CONDITION { ... }`",
    ),
    ("loop", "`loop { ... }`"),
    ("while", "`while CONDITION { ... }`"),
    (
        "for",
        "`for x in COLLECTION where CONDITION { ... }` (`where` is optional)",
    ),
    (
        "choose",
        "`choose PLAYER { \"label\" { ... } otherwise { ... } }`",
    ),
    (
        "window",
        "`window q from PLAYER where CONDITION { \"label\" { ... } }`",
    ),
    (
        "move",
        "`move CARD to ZONE`, `move CARD to ZONE at bottom` or `move all ZONE to ZONE`",
    ),
    ("deal", "`deal COUNT from ZONE to ZONE`"),
    ("shuffle", "`shuffle ZONE`"),
    ("swap", "`swap CARD with CARD`"),
    ("peek", "`peek PLAYER at CARD`"),
    ("reveal", "`reveal CARD`"),
    ("end", "`end game`"),
    ("leave", "`leave PHASE`"),
    ("return", "`return`, alone: it leaves the current phase"),
    ("break", "`break`, alone: it leaves the innermost loop"),
    ("checkpoint", "`checkpoint`, alone"),
    ("rollback", "`rollback`, alone"),
    (
        "otherwise",
        "`otherwise { ... }`, the last thing in a `choose`",
    ),
    (
        "\"",
        "`\"label\" for x in COLLECTION when CONDITION { ... }` (`for` and `when` are optional)",
    ),
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

fn first_word(line: &str) -> &str {
    let end = line
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(line.len());
    &line[..end]
}

/// The braces of a piece of source, outside strings and comments.
#[derive(Default)]
struct Braces {
    /// Positions of the `{` never closed, outermost first.
    open: Vec<usize>,
    /// A `{` that is probably the one missing its `}`: a `}` closed it while
    /// lined up with an outer block's line.
    suspect: Option<usize>,
    /// The `}` that closed the suspect.
    suspect_close: Option<usize>,
    /// A `}` that closes nothing.
    stray: Option<usize>,
    /// A `}` more indented than the line of the `{` it closes: probably one
    /// too many, closing its block early. With the `{` it closes.
    early: Option<(usize, usize)>,
}

fn braces(text: &str) -> Braces {
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
fn unterminated_string(chunk: &str) -> Option<usize> {
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
        guard => "`when`",
        at_end => "`at top` or `at bottom`",
        per_player => "`per player`",
        _ => return None,
    })
}

/// Words of card-game prose that designers write for a statement, and what
/// to write instead.
const SYNONYMS: &[(&str, &str)] = &[
    (
        "draw",
        "to draw, write `move top(PILE) to ZONE` or `deal COUNT from PILE to ZONE`",
    ),
    ("put", "to put a card somewhere, write `move CARD to ZONE`"),
    ("place", "to place a card, write `move CARD to ZONE`"),
    ("take", "to take a card, write `move CARD to ZONE`"),
    ("discard", "to discard, write `move CARD to DISCARD_PILE`"),
    (
        "give",
        "to give cards, write `deal COUNT from ZONE to ZONE` or `move CARD to ZONE`",
    ),
    ("look", "to look at a card, write `peek PLAYER at CARD`"),
    ("show", "to show a card to everyone, write `reveal CARD`"),
    ("flip", "to turn a card face up, write `reveal CARD`"),
    (
        "exchange",
        "to exchange two cards, write `swap CARD with CARD`",
    ),
    (
        "stop",
        "to stop the game, write `end game`; to leave a loop, `break`",
    ),
];

/// Words that start a statement.
const STMT_WORDS: &[&str] = &[
    "let",
    "if",
    "loop",
    "while",
    "for",
    "choose",
    "window",
    "move",
    "deal",
    "shuffle",
    "swap",
    "peek",
    "reveal",
    "end",
    "leave",
    "return",
    "break",
    "checkpoint",
    "rollback",
];

const OPERATORS: &[&str] = &[
    "or", "and", "in", "==", "!=", "<=", ">=", "<", ">", "..", "+", "-", "*", "/", "%",
];
const EXPR_STARTS: &[&str] = &[
    "(", "not", "true", "false", "none", "sum", "min", "max", "count", "any", "all", "first",
];

/// The plain-words list of what the parser expected at the error.
fn expected(e: &pest::error::Error<Rule>) -> Vec<String> {
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
    let mut items = 0;
    let mut stmts = 0;
    // One expression starter alone (a `(` after a name) is just that token,
    // and one operator alone (the `in` of `for x in`) too.
    let starters = tokens
        .iter()
        .filter(|t| EXPR_STARTS.contains(&t.to_string().as_str()))
        .count();
    let operators = tokens
        .iter()
        .filter(|t| OPERATORS.contains(&t.to_string().as_str()))
        .count();
    for t in tokens {
        // `ParsingToken` is not exported: read its display form, which
        // is the token itself or `a..z` for a range of characters.
        let text = match t.to_string() {
            r if r == "0..9" => "0".to_string(),
            r if r.len() == 4 && r.contains("..") => "_".to_string(),
            r => r,
        };
        out.push(match text.as_str() {
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
    // Many keywords of one family read better as the family.
    if items >= 3 {
        out.retain(|x| !ITEM_WORDS.iter().any(|w| *x == format!("`{w}`")));
        out.push("a declaration".into());
    }
    if stmts >= 3 {
        out.retain(|x| !STMT_WORDS.iter().any(|w| *x == format!("`{w}`")));
        out.push("a statement".into());
    }
    let has = |out: &Vec<String>, s: &str| out.iter().any(|x| x == s);
    // Broader categories swallow the narrower ones they include.
    if has(&out, "an expression") || has(&out, "a statement") {
        out.retain(|x| x != "a name" && x != "a number");
    }
    if has(&out, "an expression") {
        // `if ... then ... else ...` is an expression too.
        out.retain(|x| x != "`if`");
    }
    if has(&out, "a declaration") {
        out.retain(|x| x != "a name");
    }
    if has(&out, "a type") {
        out.retain(|x| x != "a name");
    }
    out.sort_by_key(|x| (!x.starts_with('`'), x == "an operator", x.clone()));
    out.dedup();
    out
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

fn to_diagnostic(
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
        return Diagnostic::error("E0002", "unterminated string")
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
        let at = offset + stray;
        return match b.early {
            Some((early, opened)) if early < stray => {
                let line = line_of(full, offset + opened);
                let early_line = line_of(full, offset + early);
                Diagnostic::error("E0005", "one `}` too many")
                    .label(
                        Span::new(offset + early, offset + early + 1),
                        format!("this `}}` closes the block opened on line {line}"),
                    )
                    .label(Span::new(at, at + 1), "so this one closes nothing")
                    .help(format!(
                        "remove the extra `}}`, probably the one on line {early_line}"
                    ))
            }
            _ => Diagnostic::error("E0005", "unmatched `}`")
                .label(Span::new(at, at + 1), "this `}` closes nothing")
                .help("remove it, or add the `{` it was meant to close"),
        };
    }
    if pos >= end {
        // The chunk ended too early.
        let at_eof = offset + chunk.len() >= full.trim_end().len();
        if !b.open.is_empty() && expected.iter().any(|x| x == "`}`") {
            return unclosed(full, offset, chunk, &b, at_eof);
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
        return Diagnostic::error("E0001", title)
            .label(
                Span::new(offset + s, offset + e),
                format!("expected {expected_text} after this"),
            )
            .help(help);
    }
    let found = token_at(chunk, pos);
    let line_start = chunk[..pos].rfind('\n').map_or(0, |i| i + 1);
    let first_on_line = chunk[line_start..pos].trim().is_empty();
    let line_could_start = expected
        .iter()
        .any(|x| matches!(x.as_str(), "a statement" | "a declaration" | "`}`"));
    let prev_end = code_end(&chunk[..line_start]);
    if first_on_line && !line_could_start && prev_end > 0 {
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
        return Diagnostic::error("E0001", title)
            .label(
                Span::new(offset + s, offset + e),
                format!("expected {expected_text} after this"),
            )
            .help(help);
    }
    let at = offset + pos;
    // A line that starts with a word the parser could only take for a
    // variable being set: most likely a statement that does not exist.
    let indent = chunk[line_start..].len() - chunk[line_start..].trim_start().len();
    let word_start = line_start + indent;
    let word = first_word(&chunk[word_start..]);
    let word_end = word_start + word.len();
    if !word.is_empty()
        && word_end <= pos
        && chunk[word_end..pos].trim().is_empty()
        && expected.iter().any(|x| x == "`=`")
        && !FORMS.iter().any(|(w, _)| *w == word)
    {
        let synonym = SYNONYMS.iter().find(|(w, _)| *w == word).map(|(_, h)| *h);
        let help = match (
            synonym,
            crate::diag::did_you_mean(word, STMT_WORDS.iter().copied()),
        ) {
            (Some(h), _) => h.to_string(),
            (None, Some(w)) => format!("did you mean `{w}`?"),
            (None, None) => {
                "a statement starts with a keyword such as `move`, `deal`, `let` or `if`; \
                     a phase is called as `name(...)` and a variable set with `name = value`"
                    .to_string()
            }
        };
        return Diagnostic::error("E0001", format!("`{word}` is not a statement"))
            .label(
                Span::new(offset + word_start, offset + word_end),
                "not a keyword, a phase call or an assignment",
            )
            .help(help);
    }
    if found == "=" && expected.iter().any(|x| x == "an operator") {
        return Diagnostic::error("E0001", "unexpected `=`")
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
    Diagnostic::error("E0001", format!("unexpected `{found}`"))
        .label(
            Span::new(at, at + found.len().max(1)),
            format!("expected {expected_text}"),
        )
        .help(help)
}

/// The diagnostic for a block still open where its declaration ends.
fn unclosed(full: &str, offset: usize, chunk: &str, b: &Braces, at_eof: bool) -> Diagnostic {
    let open = offset + b.suspect.unwrap_or(*b.open.last().expect("open"));
    let mut d = Diagnostic::error("E0005", "unclosed `{`")
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
fn error_pos(e: &pest::error::Error<Rule>, chunk: &str) -> usize {
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

/// The length of `chunk` without its trailing whitespace and comments.
fn code_end(chunk: &str) -> usize {
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

#[cfg(test)]
mod tests {
    use super::{FORMS, ITEM_WORDS, STMT_WORDS};

    const GRAMMAR: &str = include_str!("../../grammar/rules.pest");

    /// The first literal word of each alternative of a `name = _{ a | b }` rule.
    fn first_words(rule: &str) -> Vec<(String, Option<String>)> {
        let body = GRAMMAR
            .split(&format!("\n{rule} = _{{"))
            .nth(1)
            .and_then(|r| r.split('}').next())
            .expect("rule in the grammar");
        body.split('|')
            .map(str::trim)
            .map(|alt| {
                let def = GRAMMAR
                    .lines()
                    .find(|l| l.starts_with(alt) && l[alt.len()..].trim_start().starts_with('='))
                    .expect("alternative defined");
                let rhs = def.split_once('=').map_or("", |x| x.1).trim_start();
                let rhs = rhs.trim_start_matches(['{', ' ', '@', '$', '_']);
                let word = rhs
                    .strip_prefix('"')
                    .and_then(|r| r.split('"').next())
                    .map(str::to_string);
                (alt.to_string(), word)
            })
            .collect()
    }

    /// Recovery cuts files at declaration keywords: it must know them all.
    #[test]
    fn item_words_follow_the_grammar() {
        for (rule, word) in first_words("item") {
            let word = word.unwrap_or_else(|| panic!("`{rule}` does not start with a keyword"));
            assert!(
                ITEM_WORDS.contains(&word.as_str()),
                "add `{word}` ({rule}) to ITEM_WORDS"
            );
        }
    }

    /// "expected a statement" groups the statement keywords: keep them listed.
    #[test]
    fn stmt_words_follow_the_grammar() {
        for (rule, word) in first_words("stmt") {
            if let Some(word) = word {
                assert!(
                    STMT_WORDS.contains(&word.as_str()),
                    "add `{word}` ({rule}) to STMT_WORDS"
                );
            }
        }
    }

    /// Every declaration and statement keyword has its form for help lines.
    #[test]
    fn every_keyword_has_a_form() {
        for w in ITEM_WORDS.iter().chain(STMT_WORDS) {
            assert!(
                FORMS.iter().any(|(f, _)| f == w),
                "add the form of `{w}` to FORMS"
            );
        }
    }
}
