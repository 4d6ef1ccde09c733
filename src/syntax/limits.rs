//! Depth guards around the parser: the limits that keep a hostile rules file
//! from overflowing the stack of the parser, the checker, the graph lowering
//! or the evaluator (all of them recurse over the tree).
//!
//! Two checks, both iterative:
//! - before pest runs, a cheap scan of the text measures how deep brackets,
//!   blocks, chained `else if` / `then if` and runs of prefix operators
//!   (`not`, unary `-`) nest, inside labels' `{...}` too ([`MAX_NESTING`]);
//! - after the AST is built, its exact depth is measured with an explicit
//!   stack ([`MAX_DEPTH`]): a flat chain such as `a + b + c + ...` or
//!   `x.f.f.f` has no brackets but builds a tree as deep as it is long.
//!
//! Either failure is one diagnostic E0030 pointing at the place where the
//! limit is passed. Limits are documented in `docs/language.md` ("Limits").

use super::ast::{Block, Expr, ExprKind, File, InterpPart, Item, Stmt, StmtKind};
use crate::diag::code;
use crate::diag::{Diagnostic, Span};

/// Brackets, blocks, chained `if`s and prefix operators nested in each other.
pub const MAX_NESTING: usize = 128;
/// Depth of the syntax tree: statements in statements, operands in operators.
pub const MAX_DEPTH: usize = 512;

/// Parse a rules file (see `errors::parse_file`), refusing input
/// nested deeper than the limits with one diagnostic, before pest or the
/// checker could overflow the stack.
pub fn parse_file(text: &str) -> (File, Vec<Diagnostic>) {
    if let Some(d) = pre_scan(text) {
        return (File::default(), vec![d]);
    }
    let (file, mut errors) = super::errors::parse_file(text);
    if let Some(span) = too_deep(&file) {
        // Dropping a tree this deep would recurse as deep: leak it instead
        // (its size is bounded by the size of the file).
        std::mem::forget(file);
        errors.push(depth_error(
            span,
            format!("the rules nest deeper than {MAX_DEPTH} levels"),
            "a chain of operators (`a + b + ...`, `x.f.f...`) is as deep as it is long: \
             split it with `let` or a `fn`",
        ));
        return (File::default(), errors);
    }
    if let Some((span, message)) = too_many(&file) {
        errors.push(
            Diagnostic::error(code::LIMIT, message)
                .label(span, "the limit is passed here")
                .help(format!(
                    "a game declares at most {MAX_DECLARED_SHOWN} of each kind (they are numbered in 16 bits)"
                )),
        );
        return (File::default(), errors);
    }
    (file, errors)
}

/// Declarations of one kind in a game (options, enums, values of one enum,
/// card kinds, card attributes, decks, zones and boards, regions of one
/// board, patterns, variables, functions, tables, phases and reactions),
/// and written options of one `choose` or window: the engine numbers each
/// in 16 bits, so more would alias two of them silently.
pub const MAX_DECLARED: usize = 65_000;
const MAX_DECLARED_SHOWN: &str = "65,000";

/// Where `file` declares one more than [`MAX_DECLARED`] of a kind, and
/// what it passed.
fn too_many(file: &File) -> Option<(Span, String)> {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    let mut count = |kind: &'static str, span: Span| {
        let i = match counts.iter().position(|(k, _)| *k == kind) {
            Some(i) => i,
            None => {
                counts.push((kind, 0));
                counts.len() - 1
            }
        };
        counts[i].1 += 1;
        (counts[i].1 > MAX_DECLARED)
            .then(|| (span, format!("more than {MAX_DECLARED_SHOWN} {kind}")))
    };
    let within = |n: usize, what: String, span: Span| {
        (n > MAX_DECLARED).then(|| (span, format!("more than {MAX_DECLARED_SHOWN} {what}")))
    };
    let mut bodies = Vec::new();
    for item in &file.items {
        let over = match item {
            Item::Option(o) => count("options", o.name.span),
            Item::Enum(e) => count("enums", e.name.span).or_else(|| {
                let span = e.values.get(MAX_DECLARED).map_or(e.name.span, |v| v.span);
                within(
                    e.values.len(),
                    format!("values in enum `{}`", e.name.text),
                    span,
                )
            }),
            Item::Card(c) => count("card kinds", c.name.span).or_else(|| {
                c.attrs
                    .iter()
                    .find_map(|(n, _)| count("card attributes (of all cards together)", n.span))
            }),
            Item::Deck(d) => count("decks", d.name.span),
            Item::Zone(z) => count("zones and boards", z.name.span),
            Item::Board(b) => count("zones and boards", b.name.span).or_else(|| {
                let span = b
                    .regions
                    .get(MAX_DECLARED)
                    .map_or(b.name.span, |r| r.0.span);
                within(
                    b.regions.len(),
                    format!("regions in board `{}`", b.name.text),
                    span,
                )
            }),
            Item::Pattern(p) => count("patterns", p.name.span),
            Item::Var(v) => count("variables", v.name.span),
            Item::Fn(f) => count("functions", f.name.span),
            Item::Table(t) => count("tables", t.name.span),
            Item::Phase(p) => {
                bodies.push(&p.body);
                count("phases and reactions", p.name.span)
            }
            Item::Start(b, _) => {
                bodies.push(b);
                None
            }
            _ => None,
        };
        if over.is_some() {
            return over;
        }
    }
    // the written options of each choice (the tree is known to be shallow)
    let mut work: Vec<(Node, usize)> = bodies.into_iter().map(|b| (Node::Block(b), 0)).collect();
    while let Some((node, d)) = work.pop() {
        if let Node::Stmt(s) = &node
            && let StmtKind::Choose { arms, .. } | StmtKind::Window { arms, .. } = &s.kind
            && arms.len() > MAX_DECLARED
        {
            return Some((
                s.span,
                format!("more than {MAX_DECLARED_SHOWN} options in one choice"),
            ));
        }
        children(node, d, &mut work);
    }
    None
}

fn depth_error(span: Span, message: String, help: &str) -> Diagnostic {
    Diagnostic::error(code::LIMIT, message)
        .label(span, "the limit is passed here")
        .help(help.to_string())
}

#[derive(Clone, Copy, PartialEq)]
enum Tok {
    Open,
    Close,
    Quote,
    Word,
    /// `else` or `then`: an `if` after it nests.
    Chain,
    /// `not`, or `-` where an operand is expected.
    Prefix,
    /// An infix operator, `=`, `,`, `:`...: what follows is an operand.
    Op,
    Other,
}

struct Level {
    /// Inside a string label (its brackets do not match the code's).
    string: bool,
    chain: usize,
}

/// The scan before parsing. Returns a diagnostic at the first place nested
/// deeper than [`MAX_NESTING`].
pub fn pre_scan(text: &str) -> Option<Diagnostic> {
    let b = text.as_bytes();
    let mut s = Scan {
        stack: vec![Level {
            string: false,
            chain: 0,
        }],
        chains: 0,
        prefix: 0,
        in_string: false,
        prev: Tok::Op,
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let tok;
        if c == b'\n' && s.in_string {
            // An unclosed string ends at the line (as in the grammar).
            while s.stack.len() > 1 && s.stack.last().is_some_and(|l| !l.string) {
                s.pop();
            }
            s.in_string = false;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' && !s.in_string {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            tok = s.word(&text[start..i], start);
        } else if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            tok = Tok::Word;
        } else {
            (tok, i) = s.punct(text, i);
        }
        s.nest(tok);
        s.prefix = if tok == Tok::Prefix { s.prefix + 1 } else { 0 };
        let depth = s.stack.len() - 1 + s.chains + s.prefix;
        if depth > MAX_NESTING {
            return Some(depth_error(
                Span::new(start, i),
                format!("the rules nest deeper than {MAX_NESTING} levels"),
                "brackets, blocks, chained `else if` and prefix operators (`not`, `-`) \
                 may nest at most 128 deep: move the inner part into a `fn` or a `let`",
            ));
        }
        s.prev = tok;
    }
    None
}

/// What [`pre_scan`] carries from token to token.
struct Scan {
    /// The open brackets and strings, innermost last (the bottom is the file).
    stack: Vec<Level>,
    /// Chained `else if`s open in all levels.
    chains: usize,
    /// Prefix operators in a row just before.
    prefix: usize,
    in_string: bool,
    prev: Tok,
}

impl Scan {
    /// Closes the innermost level with its chained `if`s.
    fn pop(&mut self) {
        let l = self.stack.pop().expect("level");
        self.chains -= l.chain;
    }

    /// The kind of a word; an `if` after `else`, `then`, a prefix or an
    /// operator chains one level deeper, any other `if` ends the chain.
    fn word(&mut self, word: &str, start: usize) -> Tok {
        match word {
            "else" | "then" => Tok::Chain,
            "not" => Tok::Prefix,
            "if" => {
                let top = self.stack.last_mut().expect("level");
                if matches!(self.prev, Tok::Chain | Tok::Prefix | Tok::Op) && start > 0 {
                    top.chain += 1;
                    self.chains += 1;
                } else {
                    self.chains -= top.chain;
                    top.chain = 0;
                }
                Tok::Word
            }
            "and" | "or" | "in" | "return" | "to" | "with" | "at" | "from" | "when" | "where" => {
                Tok::Op
            }
            _ => Tok::Word,
        }
    }

    /// The punctuation (or other character) at `i`, and where the next
    /// token starts.
    fn punct(&self, text: &str, mut i: usize) -> (Tok, usize) {
        let b = text.as_bytes();
        let c = b[i];
        i += 1;
        let tok = match c {
            b'(' | b'[' | b'{' => Tok::Open,
            b')' | b']' | b'}' => Tok::Close,
            b'"' => Tok::Quote,
            b'-' if matches!(self.prev, Tok::Op | Tok::Open | Tok::Chain | Tok::Prefix) => {
                Tok::Prefix
            }
            b'.' if b.get(i) == Some(&b'.') => {
                i += 1;
                Tok::Op
            }
            b'.' => Tok::Other,
            _ if c.is_ascii() => Tok::Op,
            _ => {
                // Skip the rest of a multi-byte character.
                while i < b.len() && !text.is_char_boundary(i) {
                    i += 1;
                }
                Tok::Other
            }
        };
        (tok, i)
    }

    /// Opens or closes a level for a bracket or a quote.
    fn nest(&mut self, tok: Tok) {
        match tok {
            Tok::Open => self.stack.push(Level {
                string: false,
                chain: 0,
            }),
            // Unbalanced closers (a label's text) never close the code.
            Tok::Close if self.stack.len() > 1 && self.stack.last().is_some_and(|l| !l.string) => {
                self.pop();
            }
            Tok::Quote if !self.in_string => {
                self.in_string = true;
                self.stack.push(Level {
                    string: true,
                    chain: 0,
                });
            }
            Tok::Quote => {
                while let Some(l) = self.stack.pop() {
                    self.chains -= l.chain;
                    if l.string {
                        break;
                    }
                }
                self.in_string = false;
            }
            _ => {}
        }
    }
}

enum Node<'a> {
    Expr(&'a Expr),
    Stmt(&'a Stmt),
    Block(&'a Block),
}

/// The span of the first node deeper than [`MAX_DEPTH`], found without
/// recursion.
pub fn too_deep(file: &File) -> Option<Span> {
    let mut work: Vec<(Node, usize)> = Vec::new();
    for item in &file.items {
        match item {
            Item::Var(v) => work.extend(v.init.iter().map(|e| (Node::Expr(e), 1))),
            Item::Fn(f) => work.push((Node::Expr(&f.body), 1)),
            Item::Invariant(_, e, _) => work.push((Node::Expr(e), 1)),
            Item::Phase(p) => work.push((Node::Block(&p.body), 0)),
            Item::Start(b, _) => work.push((Node::Block(b), 0)),
            Item::Winners(w) => work.push((Node::Expr(&w.key), 1)),
            Item::Evaluate(e, _) => work.push((Node::Expr(e), 1)),
            _ => {}
        }
    }
    first_too_deep(work)
}

/// [`too_deep`] for one expression on its own (the REPL's `expect`).
pub fn expr_too_deep(e: &Expr) -> Option<Span> {
    first_too_deep(vec![(Node::Expr(e), 1)])
}

fn first_too_deep(mut work: Vec<(Node<'_>, usize)>) -> Option<Span> {
    while let Some((node, d)) = work.pop() {
        let span = match &node {
            Node::Expr(e) => e.span,
            Node::Stmt(s) => s.span,
            Node::Block(b) => b.span,
        };
        if d > MAX_DEPTH {
            return Some(span);
        }
        children(node, d, &mut work);
    }
    None
}

fn children<'a>(node: Node<'a>, d: usize, work: &mut Vec<(Node<'a>, usize)>) {
    let e = |x: &'a Expr| (Node::Expr(x), d + 1);
    match node {
        Node::Block(b) => work.extend(b.stmts.iter().map(|s| (Node::Stmt(s), d + 1))),
        Node::Expr(x) => match &x.kind {
            ExprKind::Field(a, _) | ExprKind::Unary(_, a) => work.push(e(a)),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                work.push(e(a));
                work.push(e(b));
            }
            ExprKind::Call(_, args) => work.extend(args.iter().map(e)),
            ExprKind::Cond(a, b, c) => work.extend([e(a), e(b), e(c)]),
            ExprKind::Aggregate { body, binding, .. } => {
                work.extend(body.iter().map(|b| e(b)));
                work.push(e(&binding.coll));
                work.extend(binding.filter.iter().map(e));
            }
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::Name(_) => {}
        },
        Node::Stmt(s) => {
            let b = |x: &'a Block| (Node::Block(x), d + 1);
            match &s.kind {
                StmtKind::Let(_, x) | StmtKind::Assign(_, _, _, x) => work.push(e(x)),
                StmtKind::AssignAt(owner, _, _, x) => work.extend([e(owner), e(x)]),
                StmtKind::Match(x, arms) => {
                    work.push(e(x));
                    work.extend(arms.iter().map(|arm| b(&arm.body)));
                }
                StmtKind::If(c, t, f) => {
                    work.push(e(c));
                    work.push(b(t));
                    work.extend(f.iter().map(b));
                }
                StmtKind::Loop(body) => work.push(b(body)),
                StmtKind::While(c, body) => work.extend([e(c), b(body)]),
                StmtKind::For(binding, body) => {
                    work.push(e(&binding.coll));
                    work.extend(binding.filter.iter().map(e));
                    work.push(b(body));
                }
                StmtKind::Choose {
                    who,
                    arms,
                    otherwise,
                } => {
                    work.push(e(who));
                    work.extend(otherwise.iter().map(b));
                    for arm in arms {
                        arm_children(arm, d, work);
                    }
                }
                StmtKind::Window {
                    from, filter, arms, ..
                } => {
                    work.push(e(from));
                    work.extend(filter.iter().map(e));
                    for arm in arms {
                        arm_children(arm, d, work);
                    }
                }
                StmtKind::Move { what, to, .. } => work.extend([e(what), e(to)]),
                StmtKind::Deal(x, y, z) => work.extend([e(x), e(y), e(z)]),
                StmtKind::Shuffle(x) | StmtKind::Reveal(x) => work.push(e(x)),
                StmtKind::Swap(x, y) | StmtKind::Peek(x, y) => work.extend([e(x), e(y)]),
                StmtKind::Call(_, args) => work.extend(args.iter().map(e)),
                StmtKind::EndGame
                | StmtKind::Leave(_)
                | StmtKind::Return
                | StmtKind::Break
                | StmtKind::Checkpoint
                | StmtKind::Rollback => {}
            }
        }
    }
}

fn arm_children<'a>(arm: &'a super::ast::OptionArm, d: usize, work: &mut Vec<(Node<'a>, usize)>) {
    for part in &arm.label.parts {
        if let InterpPart::Expr(x) = part {
            work.push((Node::Expr(x), d + 1));
        }
    }
    if let Some((_, also)) = &arm.also {
        work.push((Node::Expr(also), d + 1));
    }
    if let Some(binding) = &arm.binding {
        work.push((Node::Expr(&binding.coll), d + 1));
        work.extend(binding.filter.iter().map(|x| (Node::Expr(x), d + 1)));
    }
    work.extend(arm.guard.iter().map(|x| (Node::Expr(x), d + 1)));
    work.push((Node::Block(&arm.body), d + 1));
}
