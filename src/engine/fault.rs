//! The faults a running game can hit: something the rules did that has no
//! meaning (a card that is none, a division by zero, a runaway loop). The
//! engine reports each as [`super::EngineError::Fault`] (a runaway as
//! [`super::EngineError::Runaway`]) with the phase, the node and the line
//! where it happened; `Display` is the one-line message.

/// A runtime fault in the rules (not in the engine). The engine reports it
/// as [`super::EngineError::Fault`] with the phase and line of the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    NoPlayer,
    NoCard,
    NoZone,
    MovesNotFromCell,
    RayNotFromCell,
    CollectionAsValue,
    RangeAsValue,
    DivisionByZero,
    /// Arithmetic whose result does not fit in a 32-bit integer.
    Overflow,
    SeatOutOfRange,
    RandomBounds,
    OrderAsValue,
    CellNeedsBoard,
    RayAsValue,
    TableKeyNone,
    LeaveNotRunning,
    TooManyArguments,
    NoDecisionPending,
    CannotPass,
    /// A `for` over more values than [`MAX_FOR_VALUES`](crate::engine::MAX_FOR_VALUES).
    ForTooLong,
    /// Calls nested deeper than [`MAX_CALL_DEPTH`](crate::engine::MAX_CALL_DEPTH).
    CallsTooDeep,
    /// More checkpoints open than [`MAX_CHECKPOINTS`](crate::engine::MAX_CHECKPOINTS).
    TooManyCheckpoints,
    /// No decision within [`super::STEP_BUDGET`] steps.
    Runaway,
    /// Explicit-chance mode: a draw waits for its outcome (not an error;
    /// see `chance.rs`).
    Chance,
    /// Explicit-chance mode: a `random(lo, hi)` with more outcomes than
    /// [`super::chance::MAX_CHANCE_OUTCOMES`].
    ChanceTooWide,
    /// An option with two sources binds a value outside `0..=65535`.
    PairOutOfRange,
}

impl Fault {
    /// The message shown to the rules' author.
    pub fn message(self) -> &'static str {
        match self {
            Fault::NoPlayer => "no such player (the value is none)",
            Fault::NoCard => "no such card (the value is none: is the zone empty?)",
            Fault::NoZone => "no such zone",
            Fault::MovesNotFromCell => "moves(...) starts from something that is not a board cell",
            Fault::RayNotFromCell => "ray(...) starts from something that is not a board cell",
            Fault::CollectionAsValue => "a collection cannot be used as a single value",
            Fault::RangeAsValue => "a range cannot be used as a single value",
            Fault::DivisionByZero => "division by zero",
            Fault::Overflow => "arithmetic overflow (the result does not fit in a 32-bit integer)",
            Fault::SeatOutOfRange => "seat number out of range",
            Fault::RandomBounds => "random(lo, hi) with hi below lo",
            Fault::OrderAsValue => "order(p) is a collection, not a value",
            Fault::CellNeedsBoard => "cell(x, y) needs a board",
            Fault::RayAsValue => "ray(...) and moves(...) are collections, not values",
            Fault::TableKeyNone => "a table key is none",
            Fault::LeaveNotRunning => "`leave` names a phase that is not running",
            Fault::TooManyArguments => "too many arguments (at most 16)",
            Fault::NoDecisionPending => "no decision is pending",
            Fault::CannotPass => "this choice cannot be passed",
            Fault::ForTooLong => "a `for` over more than 1,000,000 values",
            Fault::CallsTooDeep => {
                "phases call each other more than 1000 deep: is there an endless recursion?"
            }
            Fault::TooManyCheckpoints => {
                "more than 64 checkpoints are kept at once (each `checkpoint` needs a `rollback` or the end of its phase)"
            }
            Fault::Runaway => "no decision within the step budget: is there an endless loop?",
            Fault::Chance => "a random draw waits for its outcome (explicit-chance mode)",
            Fault::ChanceTooWide => {
                "random(lo, hi) has more than 65536 outcomes, too many for explicit-chance mode"
            }
            Fault::PairOutOfRange => {
                "an option with two sources binds a value outside 0..65535 (a negative or very large number?)"
            }
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}
