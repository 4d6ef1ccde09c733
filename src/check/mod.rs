//! Stage 2, AST -> HIR. Resolves every name to a typed index, checks
//! types, arities, deck sizes, option ranges and reachability, and collects
//! ALL the problems it finds instead of stopping at the first.
//!
//! `mod.rs` owns declarations (game, options, enums, cards, decks, zones,
//! variables); `expr.rs` resolves expressions; `stmt.rs` statements and the
//! whole-program checks (reachability, end condition).

mod arms;
mod board;
mod decks;
mod declare;
mod expr;
mod matching;
mod names;
mod probe;
mod scope;
mod stmt;

/// The HIR is its own module (`crate::hir`), which the checker produces;
/// this path is kept for older code.
pub use crate::hir;
pub use probe::check_expr;

use crate::diag::code;
use crate::diag::{Diagnostic, Span, did_you_mean};
use crate::hir::*;
use crate::syntax::ast::{self, Item};
use std::collections::HashMap;

/// What a top-level name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sym {
    Option(u16),
    Enum(u16),
    Kind(u16),
    Deck(u16),
    Zone(u16),
    Var(u16),
    Table(u16),
    Func(u16),
    /// A board region: (board, region).
    Region(u16, u16),
    Pattern(u16),
    Proc(u16),
}

impl Sym {
    fn what(self) -> &'static str {
        match self {
            Sym::Option(_) => "option",
            Sym::Enum(_) => "enum",
            Sym::Kind(_) => "card kind",
            Sym::Deck(_) => "deck",
            Sym::Zone(_) => "zone",
            Sym::Var(_) => "variable",
            Sym::Table(_) => "table",
            Sym::Func(_) => "function",
            Sym::Region(..) => "region",
            Sym::Pattern(_) => "pattern",
            Sym::Proc(_) => "phase",
        }
    }
}

pub(crate) struct Checker {
    pub diags: Vec<Diagnostic>,
    pub tables: Tables,
    pub usage: Usage,
    pub names: HashMap<String, (Sym, Span)>,
    /// Enum value name -> (enum, value) candidates.
    pub enum_values: HashMap<String, Vec<(u16, u16)>>,
    pub procs: Vec<Proc>,
    /// Calls seen: (caller, callee) for reachability.
    pub calls: Vec<(u16, u16)>,
    /// Every `end game`: the procedure holding it and its span.
    pub ends: Vec<(u16, Span)>,
    /// Names declared more than once (already reported: later errors about
    /// them would only repeat it).
    pub dups: Vec<String>,
    /// User functions: declaration, parameter types, result type.
    pub funcs: Vec<(ast::FnDecl, Vec<Ty>, Ty)>,
    /// Functions being expanded (to refuse recursion).
    pub expanding: Vec<u16>,
    /// Function expansions so far (bounded: see `expr::MAX_FN_EXPANSIONS`).
    pub expansions: usize,
    /// "Did you mean" answers already worked out, by unknown name and
    /// extra candidates, while the names stay as they were: an unknown
    /// name in a function body is met again at each of its expansions.
    pub suggested: HashMap<(String, String, usize, usize), Option<String>>,
}

impl Checker {
    /// A checker with empty tables, before any declaration is read.
    fn new() -> Checker {
        Checker {
            diags: Vec::new(),
            tables: Tables::default(),
            usage: Usage::default(),
            names: HashMap::new(),
            enum_values: HashMap::new(),
            procs: Vec::new(),
            calls: Vec::new(),
            ends: Vec::new(),
            dups: Vec::new(),
            funcs: Vec::new(),
            expanding: Vec::new(),
            expansions: 0,
            suggested: HashMap::new(),
        }
    }
}

/// Check a parsed file. Returns the HIR (usable only when no diagnostic is
/// an error) and every diagnostic found.
pub fn check(file: &ast::File) -> (Hir, Vec<Diagnostic>) {
    let mut c = Checker::new();
    c.declare_all(file);
    c.check_decks(file);
    c.check_vars(file);
    c.check_procs(file);
    c.check_winners(file);
    c.check_evaluate(file);
    c.check_invariants(file);
    c.check_program(file);
    // A function is checked at every use: report each of its mistakes once.
    let mut seen = std::collections::HashSet::new();
    c.diags
        .retain(|d| seen.insert(format!("{}|{}|{:?}", d.code, d.message, d.labels)));
    if file.items.is_empty() {
        // One message for an empty file, not one per missing declaration.
        c.diags.retain(|d| d.code != code::MISSING_DECLARATION);
        c.diags.push(
            Diagnostic::error(code::MISSING_DECLARATION, "the rules file is empty")
                .label(Span::new(0, 0), "nothing is declared")
                .help("a game needs at least `game \"Name\" { players 2..4 }`, a `start { ... }` block and a `winners` rule"),
        );
    }
    let hir = Hir {
        tables: c.tables,
        procs: c.procs,
        usage: c.usage,
    };
    (hir, c.diags)
}

impl Checker {
    pub(crate) fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn define(&mut self, name: &ast::Name, sym: Sym) -> bool {
        if let Some((prev, span)) = self.names.get(&name.text) {
            let what = prev.what();
            let span = *span;
            let again = sym.what();
            self.error(
                Diagnostic::error(code::DUPLICATE, format!("`{}` is defined twice", name.text))
                    .label(name.span, format!("defined again here, as a {again}"))
                    .label(span, format!("first defined here, as a {what}"))
                    .help(
                        "options, enums, card kinds, decks, zones, variables, tables, functions and phases \
                         share one set of names: rename one of the two",
                    ),
            );
            self.dups.push(name.text.clone());
            return false;
        }
        self.names.insert(name.text.clone(), (sym, name.span));
        true
    }

    /// Resolve a type name.
    pub(crate) fn ty(&mut self, name: &ast::Name) -> Ty {
        match name.text.as_str() {
            "int" => return Ty::Int,
            "bool" => return Ty::Bool,
            "player" => return Ty::Player,
            "card" => return Ty::Card,
            "zone" => return Ty::Zone,
            "pattern" => return Ty::Pattern,
            _ => {}
        }
        if let Some((Sym::Enum(e), _)) = self.names.get(&name.text) {
            let e = *e;
            self.usage.enums_used[e as usize] = true;
            return Ty::Enum(e);
        }
        let mut all: Vec<&str> = vec!["int", "bool", "player", "card", "zone"];
        all.extend(self.tables.enums.iter().map(|e| e.name.as_str()));
        let hint = match did_you_mean(&name.text, all.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!(
                "types are int, bool, player, card, zone or an enum: {}",
                all.join(", ")
            ),
        };
        self.error(
            Diagnostic::error(code::UNKNOWN_TYPE, format!("unknown type `{}`", name.text))
                .label(name.span, "not a type")
                .help(hint),
        );
        Ty::Error
    }

    fn check_vars(&mut self, file: &ast::File) {
        for item in &file.items {
            if let Item::Var(v) = item {
                let Some((Sym::Var(id), span)) = self.names.get(&v.name.text).copied() else {
                    continue;
                };
                if span != v.name.span {
                    continue;
                }
                if let Some(init) = &v.init {
                    let want = self.tables.vars[id as usize].ty;
                    let mut scope = expr::Scope::default();
                    let e = self.expect(init, want, &mut scope, "the initial value");
                    self.tables.vars[id as usize].init = e;
                }
            }
        }
    }

    fn check_invariants(&mut self, file: &ast::File) {
        for item in &file.items {
            if let Item::Invariant(text, e, _) = item {
                let mut scope = expr::Scope::default();
                let x = self.expect(e, Ty::Bool, &mut scope, "an invariant");
                self.tables.invariants.push((text.clone(), x));
            }
        }
    }

    fn check_winners(&mut self, file: &ast::File) {
        let mut found: Option<Span> = None;
        for item in &file.items {
            if let Item::Winners(w) = item {
                // Label the keyword: the declaration's span runs on past its line.
                let word = Span::new(
                    w.span.start as usize,
                    w.span.start as usize + "winners".len(),
                );
                if let Some(first) = found {
                    self.error(
                        Diagnostic::error(code::DUPLICATE, "`winners` is declared twice")
                            .label(word, "declared again here")
                            .label(first, "first declared here")
                            .help("a game has one `winners` rule: keep one of them"),
                    );
                    continue;
                }
                found = Some(word);
                let mut scope = expr::Scope::default();
                scope.push("p", Ty::Player);
                let key = self.expect(&w.key, Ty::Int, &mut scope, "the winners' score");
                self.tables.winners_tiebreak = w
                    .tiebreak
                    .iter()
                    .map(|k| self.expect(k, Ty::Int, &mut scope, "a winners' tie-break"))
                    .collect();
                self.tables.winners_highest = w.highest;
                self.tables.winners_key = Some(key);
                if let Some(f) = &w.filter {
                    let cond = self.expect(f, Ty::Bool, &mut scope, "who may win");
                    self.tables.winners_filter = Some(cond);
                }
                self.tables.winners_locals = scope.next_slot;
            }
        }
        if found.is_none() {
            self.error(
                Diagnostic::error(code::MISSING_DECLARATION, "no `winners` rule")
                    .label(Span::new(0, 0), "the game never says who wins")
                    .help("add for example `winners highest p.score` or `winners lowest p.score`"),
            );
        }
    }

    /// `evaluate EXPR`: at most one, a number for each player `p`.
    fn check_evaluate(&mut self, file: &ast::File) {
        let mut found: Option<Span> = None;
        for item in &file.items {
            if let Item::Evaluate(e, span) = item {
                let word = Span::new(span.start as usize, span.start as usize + "evaluate".len());
                if let Some(first) = found {
                    self.error(
                        Diagnostic::error(code::DUPLICATE, "`evaluate` is declared twice")
                            .label(word, "declared again here")
                            .label(first, "first declared here")
                            .help("a game has one `evaluate` rule: keep one of them"),
                    );
                    continue;
                }
                found = Some(word);
                let mut scope = expr::Scope::default();
                scope.push("p", Ty::Player);
                let x = self.expect(e, Ty::Int, &mut scope, "a player's evaluation");
                self.tables.evaluate = Some(x);
                self.tables.evaluate_locals = scope.next_slot;
            }
        }
    }

    /// Look up a top-level name, reporting it with a did-you-mean if unknown.
    pub(crate) fn unknown(&mut self, name: &str, span: Span, what: &str, extra: &[&str]) {
        if self.dups.iter().any(|d| d == name) {
            // Defined twice: already reported, and the use may mean either one.
            return;
        }
        if let Some((sym, decl)) = self.names.get(name).copied() {
            let (is, want) = (a(sym.what()), a(what));
            self.error(
                Diagnostic::error(code::TYPE_MISMATCH, format!("`{name}` is {is}, not {want}"))
                    .label(span, format!("{want} is needed here"))
                    .label(decl, format!("`{name}` is declared here, as {is}"))
                    .help(format!("use the name of {want} here")),
            );
            return;
        }
        let key = (
            name.to_string(),
            extra.join("\n"),
            self.names.len(),
            self.enum_values.len(),
        );
        let best = match self.suggested.get(&key) {
            Some(best) => best.clone(),
            None => {
                let mut cands: Vec<&str> = self.names.keys().map(String::as_str).collect();
                cands.extend(self.enum_values.keys().map(String::as_str));
                cands.extend(extra.iter().copied());
                cands.sort();
                let best = did_you_mean(name, cands.into_iter()).map(str::to_string);
                self.suggested.insert(key, best.clone());
                best
            }
        };
        let help = match best {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!("declare `{name}` first, or check its spelling"),
        };
        self.error(
            Diagnostic::error(code::UNKNOWN_NAME, format!("unknown {what} `{name}`"))
                .label(span, "not found")
                .help(help),
        );
    }
}

/// A noun with its indefinite article: "a zone", "an option".
pub(crate) fn a(noun: &str) -> String {
    match noun {
        "none" => "`none`".to_string(),
        "?" => "a value of unknown type".to_string(),
        _ => {
            let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            format!("{article} {noun}")
        }
    }
}

pub(crate) fn default_value(ty: Ty) -> Expr {
    match ty {
        Ty::Player | Ty::Card | Ty::Zone => Expr::Nothing,
        _ => Expr::Int(0),
    }
}

#[cfg(test)]
mod tests {
    use super::Checker;

    /// An unknown name in a function body is met at every expansion of the
    /// function (here 1,000); its "did you mean" is worked out once (a
    /// fuzzed file with 100,000 expansions took 6.6 s before, 0.6 s after).
    #[test]
    fn an_unknown_name_in_a_function_is_looked_up_once() {
        let text = r#"
game "G" { players 2..2 }
card Chip { value: int }
deck chips of Chip size 1 in pile { 1 x { value: 1 } }
zone pile: shared pile hidden
var score: int per player = 0
fn f0(x: int) -> int = x + scroe
fn f1(x: int) -> int = f0(x) + f0(x) + f0(x) + f0(x) + f0(x) + f0(x) + f0(x) + f0(x) + f0(x) + f0(x)
fn f2(x: int) -> int = f1(x) + f1(x) + f1(x) + f1(x) + f1(x) + f1(x) + f1(x) + f1(x) + f1(x) + f1(x)
fn f3(x: int) -> int = f2(x) + f2(x) + f2(x) + f2(x) + f2(x) + f2(x) + f2(x) + f2(x) + f2(x) + f2(x)
start {
  for p in players { p.score = f3(1) }
  end game
}
winners highest p.score
"#;
        let (file, diags) = crate::syntax::parse_file(text);
        assert!(diags.is_empty(), "{diags:?}");
        let mut c = Checker::new();
        c.declare_all(&file);
        c.check_decks(&file);
        c.check_vars(&file);
        c.check_procs(&file);
        let unknown = c
            .diags
            .iter()
            .filter(|d| d.message.contains("`scroe`"))
            .count();
        assert!(unknown >= 1000, "met at each expansion: {unknown}");
        assert_eq!(c.suggested.len(), 1, "looked up once");
        let help = c.diags.iter().find_map(|d| d.help.clone()).unwrap();
        assert!(help.contains("did you mean `score`?"), "{help}");
    }
}
