//! Stage 4, the engine: the API every front end uses. A [`Game`] is a
//! compiled rules file (the load pipeline, `crate::load`, reads and
//! compiles it), immutable and shared; create a [`State`] from
//! players, seed and options; list legal actions with labels; apply one;
//! tell whether the game is over and who won; render a player's view.
//!
//! This file only declares the modules and the public paths. `game.rs`
//! is the compiled game and its options, `play.rs` the state's API (start,
//! legal actions, apply, status, undo), `outcome.rs` winners, scores and
//! invariants, `error.rs` the typed errors; `state.rs` is the data and
//! `table.rs` the table the rules see, `undo.rs` make/unmake, `eval.rs`
//! expressions, `exec.rs` the interpreter, `view.rs` labels and views,
//! `edit.rs` arranging positions by hand (`EditError`).

mod board_view;
mod chance;
mod choice;
mod coll;
mod compile;
mod compile_call;
mod compile_phase;
mod cond;
mod cse;
mod determinize;
mod distinct;
mod edit;
mod error;
mod eval;
mod evaluate;
mod exec;
mod fault;
mod game;
mod geometry;
mod inline;
mod journal;
mod jump;
mod lanes;
mod memo;
mod observe;
mod operand;
#[cfg(test)]
mod operand_tests;
mod ops;
mod outcome;
pub mod perft;
mod play;
mod pools;
mod probe;
mod program;
#[cfg(test)]
mod put_tests;
#[cfg(test)]
mod restart_tests;
mod start;
mod state;
mod switch;
mod table;
mod tensor;
#[cfg(test)]
mod test_files;
mod undo;
mod view;
mod width;
mod would;

pub use chance::{CHANCE_ARM, ChanceNode, MAX_CHANCE_OUTCOMES};
pub use determinize::{Determinizer, card_locals, relabel_locals};
pub use edit::EditError;
pub use error::{Conservation, EngineError, Illegal, SetupError};
pub use eval::Fault;
pub use exec::{MAX_CALL_DEPTH, MAX_CHECKPOINTS, MAX_FOR_VALUES, STEP_BUDGET};
pub use game::{Game, OptionError, PlayersError, SetError, split_setting};
pub use observe::{ActionSpace, DYNAMIC_INT_WIDTH, MAX_ARM_WIDTH};
pub use play::{PendingChoice, Status};
pub use probe::{Code, Probe};
pub use program::Program;
pub use state::Action;
pub use state::Mark;
pub use state::{Core, Frame, State};
pub use table::Journal;
pub use tensor::TensorShape;
pub use view::Viewer;

/// The load pipeline's entry points, kept here for older paths
/// (`grail::engine::compile`); new code uses `grail::load`.
pub use crate::load::{Compiled, MAX_VARIANT_DEPTH, compile, read_rules};
