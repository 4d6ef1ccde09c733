//! grail: a declarative rules language for card and board games.
//!
//! The pipeline, one module per stage, each depending only on those above:
//!
//! ```text
//! grammar/rules.pest
//!   sanitize   control and invisible characters escaped in printed text
//!   syntax/    text -> AST (spans on every node; parse errors as diagnostics)
//!   check/     AST -> HIR (names -> typed indices; all errors collected)
//!   hir/       the HIR: check produces it, graph and the engine consume it
//!   graph/     HIR -> action graph (flat nodes per phase; DOT and RON)
//!   load/      read a file (a variant after its bases), parse, check, lower
//!   engine/    graph + state: run to a decision, legal actions, apply, views
//!   playout    the one loop that plays games for sim, rulecheck and agents
//!     agent/     players: random, greedy
//!     repl/      the designer's REPL over the engine API
//!     sim/       batch playouts and statistics
//!     rulecheck/ lints and simulation verdicts
//!     serve/     playtest tables in the browser (`grail serve`)
//!   fmt/       the canonical layout (`grail fmt`)
//!   lsp/       the language server (`grail lsp`)
//! ```
//!
//! Start with [`Game::load`] and [`State::new`].

pub mod agent;
pub mod check;
#[doc(hidden)]
pub mod cli_numbers;
#[doc(hidden)]
pub mod closed_pipe;
pub mod diag;
pub mod engine;
pub mod fmt;
pub mod graph;
pub mod hir;
pub mod interrupt;
pub mod load;
pub mod lsp;
pub mod playout;
pub mod repl;
pub mod rulecheck;
pub mod sanitize;
pub mod serve;
pub mod sim;
pub mod syntax;

pub use engine::{
    Action, ActionSpace, Conservation, EngineError, Fault, Game, Illegal, OptionError,
    PendingChoice, PlayersError, Probe, SetError, SetupError, State, Status, Viewer,
};
