//! `grail fmt`: the canonical layout of rules files. Owns the layout rules
//! (indentation, spacing between tokens, blank lines) and the command. The
//! formatter works on the lossless token stream of [`lex`], so every comment
//! is kept and no token changes: only the whitespace between them does, and a
//! file that does not parse is left alone. See docs/editing.md for the rules.

pub mod lex;

use crate::diag::Diagnostic;
use crate::diag::code;
use lex::{Kind, Token};
use std::path::PathBuf;

/// Arguments of `grail fmt`.
#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// Report the files whose layout is not canonical, change nothing, and
    /// exit with 1 if there is one.
    #[arg(long)]
    pub check: bool,
    /// Rules files to format in place (`-` reads standard input and writes
    /// standard output).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Format a rules file. A file with a syntax error is not formatted: its
/// diagnostics come back instead.
pub fn format(src: &str) -> Result<String, Vec<Diagnostic>> {
    let src = &*lone_cr_to_lf(src);
    let (before, diags) = crate::syntax::parse_file(src);
    if diags.iter().any(Diagnostic::is_error) {
        return Err(diags);
    }
    let out = layout(src);
    // The layout only moves whitespace; refuse rather than change meaning
    // should a rule ever merge or split tokens.
    let (after, _) = crate::syntax::parse_file(&out);
    if ast_shape(&before) != ast_shape(&after) {
        return Err(vec![
            Diagnostic::error(
                code::SYNTAX,
                "the formatter would change what this file means; it was left alone",
            )
            .help("please report this file: it is a bug in `grail fmt`"),
        ]);
    }
    Ok(out)
}

/// The syntax tree printed without its spans: equal for two texts that say
/// the same thing in a different layout.
pub fn ast_shape(file: &crate::syntax::ast::File) -> String {
    let full = format!("{file:?}");
    let mut out = String::with_capacity(full.len());
    let mut rest = full.as_str();
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail.find('}').map_or(tail.len(), |e| e + 1);
        out.push_str("Span");
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

fn is_cont_start(t: &str) -> bool {
    matches!(
        t,
        "and"
            | "or"
            | "then"
            | "else"
            | "where"
            | "in"
            | "+"
            | "-"
            | "*"
            | "/"
            | "%"
            | "=="
            | "!="
            | "<"
            | ">"
            | "<="
            | ">="
            | ".."
            | "."
            | "->"
            | "=>"
            | "|"
    )
}

fn is_open_end(t: &str) -> bool {
    matches!(
        t,
        "=" | "->"
            | "=>"
            | "|"
            | "+="
            | "-="
            | "=="
            | "!="
            | "<"
            | ">"
            | "<="
            | ">="
            | "+"
            | "-"
            | "*"
            | "/"
            | "%"
            | ".."
            | "and"
            | "or"
            | "not"
            | "then"
            | "else"
            | "in"
            | "where"
            | "when"
            | ":"
    )
}

/// Width of a line's leading whitespace (a tab counts 2).
fn indent_width(line: &str) -> usize {
    line.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .map(|c| if c == '\t' { 2 } else { 1 })
        .sum()
}

fn ends_operand(t: Option<&Token>, src: &str) -> bool {
    t.is_some_and(|t| match t.kind {
        Kind::Int | Kind::Str => true,
        Kind::Word => {
            let w = t.text(src);
            !lex::is_keyword(w) || matches!(w, "true" | "false" | "none")
        }
        Kind::Punct => matches!(t.text(src), ")" | "]"),
        Kind::Comment => false,
    })
}

/// Whether one space goes between `prev` and `next` on a line.
/// `before` is the token before `prev`.
/// `pattern` is set in a `pattern` declaration, `vector` inside its `(dx,dy)`.
fn space(
    src: &str,
    before: Option<&Token>,
    prev: &Token,
    next: &Token,
    pattern: bool,
    vector: bool,
) -> bool {
    let (p, n) = (prev.text(src), next.text(src));
    if p == "-" && prev.kind == Kind::Punct && !ends_operand(before, src) {
        // Unary minus sticks to its operand; `- 1` stays apart, since `-1`
        // would be a different token.
        return next.kind == Kind::Int;
    }
    if matches!(n, "," | ")" | "]" | "." | ":") || matches!(p, "(" | "[" | ".") {
        return false;
    }
    if p == ".." || n == ".." {
        return false;
    }
    if p == "," {
        return !vector;
    }
    if n == "(" {
        if pattern {
            return true;
        }
        let call = prev.kind == Kind::Word && (!lex::is_keyword(p) || p == "all");
        return !call;
    }
    if n == "[" {
        return !ends_operand(Some(prev), src);
    }
    true
}

/// Old Mac line endings read as newlines, as the loader reads them:
/// without this the layout saw the whole file as one line.
pub use crate::load::lone_cr_to_lf;

/// The canonical layout of a token stream (no parse check): see the module
/// docs and docs/editing.md.
pub fn layout(src: &str) -> String {
    let src_lf;
    let src = if src.contains('\r') {
        src_lf = src.replace("\r\n", "\n");
        src_lf.as_str()
    } else {
        src
    };
    let tokens = lex::lex(src);
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(src.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    // Pass 1: the lines, and the indentation of each line of code.
    let mut lines = plan_lines(src, &tokens, &line_starts);
    indent_comments(&mut lines);
    // Pass 2: write the lines.
    write_lines(src, &tokens, &line_starts, &lines)
}

/// One line of the input as the layout sees it.
struct Line {
    no: usize,
    toks: std::ops::Range<usize>,
    orig: usize,
    /// Indentation: for a comment line, the depth's (filled in below).
    indent: usize,
    comment: bool,
    closes: bool,
    /// In a `pattern` declaration; the bracket depth at the line's start.
    pattern: bool,
    parens: usize,
}

/// The brace and bracket depth, the last code token and the statement
/// being continued, carried from line to line by [`plan_lines`].
#[derive(Default)]
struct Depth {
    braces: usize,
    parens: usize,
    last_code: Option<usize>,
    /// The canonical and original indentation of the statement's first line.
    stmt: (usize, usize),
    pattern: bool,
}

/// Splits the tokens into lines and works out each code line's indentation:
/// two spaces per open brace, continuation lines kept relative to their
/// statement.
fn plan_lines(src: &str, tokens: &[Token], line_starts: &[usize]) -> Vec<Line> {
    let line_of = |off: u32| line_starts.partition_point(|&s| s <= off as usize) - 1;
    let mut lines: Vec<Line> = Vec::new();
    let mut d = Depth::default();
    let mut i = 0;
    while i < tokens.len() {
        let no = line_of(tokens[i].span.start);
        let mut j = i;
        while j < tokens.len() && line_of(tokens[j].span.start) == no {
            j += 1;
        }
        let text_line =
            &src[line_starts[no]..line_starts.get(no + 1).copied().unwrap_or(src.len())];
        let orig = indent_width(text_line);
        let first = &tokens[i];
        let ft = first.text(src);
        let comment = first.kind == Kind::Comment;
        let last_text = d.last_code.map(|k| tokens[k].text(src));
        let open_before = d.parens > 0 || last_text.is_some_and(is_open_end);
        let cont = !comment
            && (open_before
                || (is_cont_start(ft)
                    && matches!(first.kind, Kind::Punct | Kind::Word)
                    && !(ft == "else" && last_text == Some("}"))));
        if !comment && d.braces == 0 && d.parens == 0 && !cont && first.kind == Kind::Word {
            d.pattern = ft == "pattern";
        }
        let canon = 2 * d.braces.saturating_sub(usize::from(ft == "}"));
        let indent = if cont {
            d.stmt.0 + orig.saturating_sub(d.stmt.1).max(2)
        } else {
            if !comment {
                d.stmt = (canon, orig);
            }
            canon
        };
        lines.push(Line {
            no,
            toks: i..j,
            orig,
            indent,
            comment,
            closes: ft == "}",
            pattern: d.pattern,
            parens: d.parens,
        });
        track_depth(src, tokens, i..j, &mut d);
        i = j;
    }
    lines
}

/// Counts the braces and brackets of one line's tokens into `d`.
fn track_depth(src: &str, tokens: &[Token], toks: std::ops::Range<usize>, d: &mut Depth) {
    for k in toks {
        let t = &tokens[k];
        if t.kind == Kind::Punct {
            match t.text(src) {
                "{" => d.braces += 1,
                "}" => d.braces = d.braces.saturating_sub(1),
                "(" | "[" => d.parens += 1,
                ")" | "]" => d.parens = d.parens.saturating_sub(1),
                _ => {}
            }
        }
        if t.kind != Kind::Comment {
            d.last_code = Some(k);
        }
    }
}

/// A comment line takes the indentation of the code it comes before
/// (but not of a closing `}`).
fn indent_comments(lines: &mut [Line]) {
    let mut next_code: Option<(usize, bool)> = None;
    for l in lines.iter_mut().rev() {
        if l.comment {
            if let Some((indent, false)) = next_code {
                l.indent = indent;
            }
        } else {
            next_code = Some((l.indent, l.closes));
        }
    }
}

/// Writes the planned lines: indentation, then the tokens with the spaces
/// between them; a comment continuing the trailing comment of the line
/// above stays in its column.
fn write_lines(src: &str, tokens: &[Token], line_starts: &[usize], lines: &[Line]) -> String {
    let mut out = String::with_capacity(src.len() + src.len() / 8);
    // The original and new column of the last line's trailing comment.
    let mut trailing: Option<(usize, usize)> = None;
    let mut prev_no: Option<usize> = None;
    for l in lines {
        if let Some(pl) = prev_no {
            out.push('\n');
            if l.no > pl + 1 {
                out.push('\n');
            }
        }
        let indent = match trailing {
            // A comment continuing the trailing comment of the line above.
            Some((o, n)) if l.comment && o == l.orig => n,
            _ => l.indent,
        };
        for _ in 0..indent {
            out.push(' ');
        }
        let line_out = out.len() - indent;
        let next_trailing = write_tokens(src, tokens, line_starts[l.no], l, &mut out, line_out);
        if l.comment {
            if trailing.is_none_or(|(o, _)| o != l.orig) {
                trailing = None;
            }
        } else {
            trailing = next_trailing;
        }
        prev_no = Some(l.no);
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Writes one line's tokens after its indentation (`out[line_out..]` is the
/// line so far); returns the original and new column of a trailing comment.
fn write_tokens(
    src: &str,
    tokens: &[Token],
    line_start: usize,
    l: &Line,
    out: &mut String,
    line_out: usize,
) -> Option<(usize, usize)> {
    let mut next_trailing = None;
    let mut parens = l.parens;
    for k in l.toks.clone() {
        let t = &tokens[k];
        if k > l.toks.start {
            let prev = &tokens[k - 1];
            if t.kind == Kind::Comment {
                let gap = (t.span.start - prev.span.end).max(1);
                for _ in 0..gap {
                    out.push(' ');
                }
                let orig_col = src[line_start..t.span.start as usize].chars().count();
                let new_col = out[line_out..].chars().count();
                next_trailing = Some((orig_col, new_col));
            } else {
                let before = (k >= 2).then(|| &tokens[k - 2]);
                if space(src, before, prev, t, l.pattern, l.pattern && parens > 0) {
                    out.push(' ');
                }
            }
        }
        out.push_str(t.text(src));
        match t.text(src) {
            "(" | "[" if t.kind == Kind::Punct => parens += 1,
            ")" | "]" if t.kind == Kind::Punct => parens = parens.saturating_sub(1),
            _ => {}
        }
    }
    next_trailing
}

/// How many lines differ between two texts (a longest-common-subsequence
/// count of changed lines, for `--check`'s report).
pub fn changed_lines(a: &str, b: &str) -> usize {
    let (x, y): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    if x.len() * y.len() > 25_000_000 {
        return x.len().max(y.len());
    }
    let mut row = vec![0u32; y.len() + 1];
    for xi in &x {
        let mut diag = 0;
        for (j, yj) in y.iter().enumerate() {
            let keep = row[j + 1];
            row[j + 1] = if xi == yj {
                diag + 1
            } else {
                row[j + 1].max(row[j])
            };
            diag = keep;
        }
    }
    let common = row[y.len()] as usize;
    x.len().max(y.len()) - common
}

/// Standard input, at most [`crate::load::MAX_RULES_FILE`] bytes; `None`
/// after saying what went wrong.
fn read_stdin() -> Option<String> {
    let mut s = String::new();
    let max = crate::load::MAX_RULES_FILE;
    let stdin = std::io::Read::take(std::io::stdin(), max + 1);
    match std::io::Read::read_to_string(&mut { stdin }, &mut s) {
        Ok(n) if n as u64 > max => {
            eprintln!("error: standard input is larger than {} MiB", max >> 20);
            None
        }
        Ok(_) => Some(s),
        Err(e) => {
            eprintln!("error: cannot read standard input: {e}");
            None
        }
    }
}

/// A rules file's text, at most [`crate::load::MAX_RULES_FILE`] bytes;
/// `None` after saying what went wrong.
fn read_file(path: &std::path::Path) -> Option<String> {
    let read = crate::load::read_at_most(path, crate::load::MAX_RULES_FILE).and_then(|b| {
        String::from_utf8(b).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    });
    match read {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            eprintln!(
                "error: `{}` is not UTF-8 text (`grail check` says where); not formatted",
                path.display()
            );
            None
        }
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", path.display());
            None
        }
    }
}

/// Run `grail fmt`: returns the exit code.
pub fn run(args: FmtArgs) -> u8 {
    let mut code = 0;
    for path in &args.files {
        let stdin = path.as_os_str() == "-";
        let text = if stdin {
            match read_stdin() {
                Some(t) => t,
                None => return 2,
            }
        } else {
            match read_file(path) {
                Some(t) => t,
                None => {
                    code = 2;
                    continue;
                }
            }
        };
        // A byte-order mark is not layout: it is set aside, and kept.
        let (bom, text) = match text.strip_prefix('\u{feff}') {
            Some(rest) => ("\u{feff}", rest.to_string()),
            None => ("", text),
        };
        let name = if stdin {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        // refused as `grail check` refuses it: it would be printed raw
        if let Some(d) = crate::load::hidden_character(std::path::Path::new(&name), &text) {
            eprint!("{}", d.render_auto());
            eprintln!("error: `{name}` holds a character no tool prints as it is; not formatted");
            code = 2;
            if stdin {
                print!("{bom}{text}");
                return code;
            }
            continue;
        }
        let formatted = match format(&text) {
            Ok(f) => format!("{bom}{f}"),
            Err(diags) => {
                // the places are those of the text as `format` read it
                let mut d = crate::diag::Diagnostics::new(crate::diag::Source::new(
                    name.as_str(),
                    lone_cr_to_lf(&text).as_ref(),
                ));
                d.items = diags;
                eprint!("{}", d.render_auto());
                eprintln!("error: `{name}` has syntax errors; not formatted");
                code = code.max(1);
                if stdin {
                    print!("{bom}{text}");
                }
                continue;
            }
        };
        let text = format!("{bom}{text}");
        if stdin {
            if args.check && formatted != text {
                eprintln!("<stdin>: not formatted");
                code = code.max(1);
            } else if !args.check {
                print!("{formatted}");
            }
        } else if formatted != text {
            if args.check {
                let n = changed_lines(&text, &formatted);
                println!("{name}: {n} line(s) not formatted");
                code = code.max(1);
            } else if let Err(e) = std::fs::write(path, &formatted) {
                eprintln!("error: cannot write `{name}`: {e}");
                code = 2;
            }
        }
    }
    code
}
