//! Stage 1, text -> AST. Owns the pest parser generated from
//! `grammar/rules.pest`, the AST types, and the conversion of parse failures
//! into diagnostics. Nothing here knows what a name means.

pub mod ast;
mod errors;
mod parse;

pub use errors::parse_file;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/rules.pest"]
pub struct RulesParser;
