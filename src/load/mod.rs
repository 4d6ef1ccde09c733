//! The load pipeline: a rules file (or a text) in, a checked action graph
//! out. Read the file (`read.rs`: UTF-8, a variant after its base), parse
//! it, merge a variant's declarations over its base's, check it, and lower
//! it to the graph. Every problem becomes a diagnostic; nothing here runs a
//! game.
//!
//! API boundary: [`load`] and [`load_text`] give a [`Loaded`] game (what
//! `engine::Game` wraps), [`compile`] the whole front end's result for
//! tools that want the HIR and every diagnostic (rulecheck, the tests).
//! This module depends on `syntax`, `check`, `hir`, `graph` and `diag`,
//! never on the engine; the engine depends on it.

mod read;

pub use read::{
    MAX_RULES_FILE, MAX_VARIANT_DEPTH, hidden_character, lone_cr_to_lf, read_at_most,
    read_base_text, read_rules, read_small_text, regular_file, rules_files, variant_base,
};

use crate::diag::code;
use crate::diag::{Diagnostic, Diagnostics, Source};
use crate::graph::Graph;
use crate::hir::Hir;
use crate::syntax;
use std::path::Path;

/// The result of running a source through the front end.
pub struct Compiled {
    pub hir: Hir,
    pub graph: Option<Graph>,
    pub diags: Diagnostics,
}

/// Parse, check and (when there is no error) build the action graph.
pub fn compile(source: Source) -> Compiled {
    let (mut file, mut found) = syntax::parse_file(&source.text);
    // each file replaces the declarations of the files before it
    for seam in source.seams() {
        syntax::merge_variant(&mut file, seam);
    }
    let parse_failed = found.iter().any(Diagnostic::is_error);
    let (mut hir, check_diags) = crate::check::check(&file);
    if let Some(syntax::ast::Item::Variant(name, ..)) = file
        .items
        .iter()
        .find(|i| matches!(i, syntax::ast::Item::Variant(..)))
    {
        hir.tables.name = format!("{} ({name})", hir.tables.name);
    }
    // After a syntax error, missing declarations are noise: keep the checker's
    // findings only about what did parse.
    if parse_failed {
        found.extend(check_diags.into_iter().filter(|d| {
            !matches!(
                d.code.as_str(),
                code::NO_END | code::MISSING_DECLARATION | code::UNREACHABLE_PHASE
            )
        }));
    } else {
        found.extend(check_diags);
    }
    let mut diags = Diagnostics::new(source);
    diags.items = found;
    diags.sort();
    let graph = (!diags.has_errors()).then(|| crate::graph::build(&hir));
    Compiled { hir, graph, diags }
}

/// A game that compiled: its graph, the text it came from, its warnings,
/// and the digest saved games are checked against.
pub struct Loaded {
    pub graph: Graph,
    pub source: Source,
    /// Warnings found while compiling (the game compiled, so no errors).
    pub warnings: Diagnostics,
    pub digest: u64,
}

/// Read and compile a rules file (a variant with its bases).
pub fn load(path: &Path) -> Result<Loaded, Diagnostics> {
    from_source(read_rules(path)?)
}

/// Compile rules from a string; `name` is used in diagnostics. (A
/// variant's base is found relative to `name`, so to the current directory
/// when `name` is a bare file name.)
pub fn load_text(name: &str, text: &str) -> Result<Loaded, Diagnostics> {
    let source = match variant_base(text) {
        Some(_) => read::with_base(Path::new(name), text.to_string(), 0)?,
        None => Source::new(name, text),
    };
    from_source(source)
}

/// Compile a source already read: the game, or every diagnostic when it
/// has an error.
pub fn from_source(source: Source) -> Result<Loaded, Diagnostics> {
    let c = compile(source.clone());
    match c.graph {
        Some(graph) => Ok(Loaded {
            graph,
            digest: digest(&source.text),
            source,
            warnings: c.diags,
        }),
        None => Err(c.diags),
    }
}

/// A stable hash of a rules text (FNV-1a: the same across runs and
/// platforms, unlike std's hasher), stored in saved games.
pub fn digest(text: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}
