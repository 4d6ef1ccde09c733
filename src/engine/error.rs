//! Why the engine refused or stopped: [`EngineError`] and the typed reasons
//! it carries. Every variant holds data, not text; `Display` writes the
//! one-line message front ends print (REPL scripts snapshot these lines, so
//! the wording is part of the interface).

use super::Fault;
use std::path::{Path, PathBuf};

/// Why the engine refused or stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// Bad arguments to `State::new`, or a state that is not of this game.
    Setup(SetupError),
    /// The request is not allowed in this position.
    Illegal(Illegal),
    /// The rules did something impossible: `fault` says what (its
    /// `Display` is the one-line message), `phase`/`node`/`line` where.
    /// `line` is a line of `file`: for a variant, the file the line is
    /// written in (the variant's or its base's); `None` for a plain file.
    Fault {
        fault: Fault,
        phase: String,
        node: u32,
        file: Option<PathBuf>,
        line: usize,
    },
    /// The rules ran `steps` steps without a decision (an endless loop?);
    /// `phase`/`node`/`file`/`line` locate the node the run had reached.
    Runaway {
        steps: u64,
        phase: String,
        node: u32,
        file: Option<PathBuf>,
        line: usize,
    },
    /// Cards were lost or duplicated.
    Conservation(Conservation),
}

/// Why a game could not be set up (or a saved state read back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The game is not for this many players.
    Players {
        game: String,
        lo: usize,
        hi: usize,
        got: usize,
    },
    /// Not one value per option.
    OptionCount { expected: usize, got: usize },
    /// The rules faulted while the table was set up (an initial value).
    Start(Fault),
    /// The text is not a saved state (the JSON reader's message).
    NotSaved(String),
    /// A saved state of another game (players or options differ).
    OtherGame,
}

/// A request the position does not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The action is not among the legal actions now.
    NotLegal,
    /// Undo and make/unmake in explicit-chance mode, whose chance
    /// bookkeeping reruns stretches from a copy the journal does not record.
    ChanceNoUndo,
    /// Undo of a position edited by hand, which no history replays to.
    EditedUndo,
    /// Undo with no action taken.
    NothingToUndo,
    /// A chance outcome that is not one of the pending draw's.
    NotAnOutcome(i32),
    /// The information state of a position edited by hand.
    EditedHistory,
}

/// How the cards stopped being conserved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conservation {
    /// A card is in two zones (or twice in one).
    Twice(usize),
    /// A card's zone index disagrees with the zone holding it.
    WrongZone(usize),
    /// A card is in no zone.
    Vanished { card: usize, name: String },
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Setup(e) => e.fmt(f),
            EngineError::Illegal(e) => e.fmt(f),
            EngineError::Conservation(e) => e.fmt(f),
            EngineError::Fault {
                fault,
                phase,
                file,
                line,
                ..
            } => write!(
                f,
                "rules fault in phase `{phase}` ({}): {fault}",
                line_name(file.as_deref(), *line)
            ),
            EngineError::Runaway { steps, .. } => {
                write!(
                    f,
                    "the rules ran {steps} steps without a decision: is there an endless loop?"
                )
            }
        }
    }
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Players { game, lo, hi, got } => {
                write!(f, "{game} is for {lo} to {hi} players, not {got}")
            }
            SetupError::OptionCount { expected, got } => {
                write!(f, "expected {expected} option values, got {got}")
            }
            SetupError::Start(fault) => write!(f, "{fault}"),
            SetupError::NotSaved(why) => write!(f, "not a saved state: {why}"),
            SetupError::OtherGame => {
                f.write_str("the state is not one of this game (players or options differ)")
            }
        }
    }
}

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Illegal::NotLegal => f.write_str("that move is not legal now"),
            Illegal::ChanceNoUndo => f.write_str(
                "undo and make/unmake are not offered in explicit-chance mode: keep a copy (clone) instead",
            ),
            Illegal::EditedUndo => f.write_str("a position edited by hand cannot be undone"),
            Illegal::NothingToUndo => f.write_str("no action to undo"),
            Illegal::NotAnOutcome(value) => {
                write!(f, "{value} is not an outcome of a pending chance node")
            }
            Illegal::EditedHistory => f.write_str("a position edited by hand has no history to show"),
        }
    }
}

impl std::fmt::Display for Conservation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Conservation::Twice(c) => write!(f, "card {c} appears twice"),
            Conservation::WrongZone(c) => write!(f, "card {c} is indexed in the wrong zone"),
            Conservation::Vanished { card, name } => write!(f, "card {card} ({name}) has vanished"),
        }
    }
}

impl EngineError {
    /// The rules' fault, if this is one (a runaway is [`Fault::Runaway`]).
    pub fn fault(&self) -> Option<Fault> {
        match self {
            EngineError::Fault { fault, .. } => Some(*fault),
            EngineError::Runaway { .. } => Some(Fault::Runaway),
            EngineError::Setup(SetupError::Start(fault)) => Some(*fault),
            _ => None,
        }
    }

    /// The phase and 1-based line where the rules faulted or ran away
    /// (a line of [`EngineError::file`]).
    pub fn location(&self) -> Option<(&str, usize)> {
        match self {
            EngineError::Fault { phase, line, .. } | EngineError::Runaway { phase, line, .. } => {
                Some((phase, *line))
            }
            _ => None,
        }
    }

    /// For a variant's fault or runaway, the file its line is in.
    pub fn file(&self) -> Option<&Path> {
        match self {
            EngineError::Fault { file, .. } | EngineError::Runaway { file, .. } => file.as_deref(),
            _ => None,
        }
    }
}

impl std::error::Error for EngineError {}

/// A run-time place as messages name it: `line 3`, or for a variant
/// `v.rules line 3` (the file the line is written in).
pub fn line_name(file: Option<&Path>, line: usize) -> String {
    match file {
        Some(file) => format!("{} line {line}", file.display()),
        None => format!("line {line}"),
    }
}
impl std::error::Error for SetupError {}
impl std::error::Error for Illegal {}
impl std::error::Error for Conservation {}

impl From<SetupError> for EngineError {
    fn from(e: SetupError) -> EngineError {
        EngineError::Setup(e)
    }
}

impl From<Illegal> for EngineError {
    fn from(e: Illegal) -> EngineError {
        EngineError::Illegal(e)
    }
}

impl From<Conservation> for EngineError {
    fn from(e: Conservation) -> EngineError {
        EngineError::Conservation(e)
    }
}
