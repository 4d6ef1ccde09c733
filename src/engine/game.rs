//! The compiled game: [`Game`] (immutable, shared by every state of it),
//! its options and player counts, and the typed errors of setting them
//! ([`OptionError`], [`SetError`], [`PlayersError`]).

use super::Program;
use crate::diag::{Diagnostics, Source};
use crate::hir::OptionInfo;
use crate::load::Loaded;
use std::path::Path;
use std::sync::Arc;

/// A compiled game: immutable and cheap to clone (shared).
#[derive(Clone)]
pub struct Game {
    pub(super) data: Arc<Loaded>,
    /// The graph with its expressions compiled (shared, immutable).
    prog: Arc<Program>,
}

impl Game {
    /// Read and compile a rules file (a variant with its bases).
    ///
    /// ```
    /// let path = std::env::temp_dir().join("grail-doc-coin.rules");
    /// std::fs::write(&path, "game \"Coin\" { players 2..4 }\n\
    ///     start { choose seat(0) { \"stop\" { } } end game }\n\
    ///     winners highest 0\n").expect("a temporary file");
    /// let game = grail::Game::load(&path).expect("compiles");
    /// assert_eq!(game.players(), (2, 4));
    /// assert!(grail::Game::load("no/such/file.rules").is_err());
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<Game, Diagnostics> {
        crate::load::load(path.as_ref()).map(Game::from)
    }

    /// Compile rules from a string; `name` is used in diagnostics. (A
    /// variant's base is found relative to the current directory.)
    ///
    /// ```
    /// let text = "game \"Coin\" { players 2..2 }\n\
    ///     start { choose seat(0) { \"stop\" { } } end game }\n\
    ///     winners highest 0\n";
    /// let game = grail::Game::from_source("coin.rules", text).expect("compiles");
    /// assert_eq!(game.name(), "Coin");
    /// assert!(grail::Game::from_source("bad.rules", "game {").is_err());
    /// ```
    pub fn from_source(name: &str, text: &str) -> Result<Game, Diagnostics> {
        crate::load::load_text(name, text).map(Game::from)
    }

    /// The action graph, with its compiled expressions (a [`Program`]
    /// dereferences to the [`Graph`](crate::graph::Graph)).
    pub fn graph(&self) -> &Program {
        &self.prog
    }
    pub fn source(&self) -> &Source {
        &self.data.source
    }
    /// Warnings found while compiling (the game compiled, so no errors).
    pub fn warnings(&self) -> &Diagnostics {
        &self.data.warnings
    }
    /// A stable hash of the rules text, stored in saved games.
    pub fn digest(&self) -> u64 {
        self.data.digest
    }
    pub fn name(&self) -> &str {
        &self.data.graph.tables.name
    }
    pub fn players(&self) -> (usize, usize) {
        let t = &self.data.graph.tables;
        (t.min_players as usize, t.max_players as usize)
    }
    pub fn options(&self) -> &[OptionInfo] {
        &self.data.graph.tables.options
    }
    pub fn option_index(&self, name: &str) -> Option<usize> {
        self.options().iter().position(|o| o.name == name)
    }
    pub fn default_options(&self) -> Vec<i32> {
        self.options().iter().map(|o| o.default).collect()
    }
    /// Set `name=value` in an option vector, checking name and range.
    pub fn set_option(&self, opts: &mut [i32], name: &str, value: &str) -> Result<(), OptionError> {
        let Some(i) = self.option_index(name) else {
            let names: Vec<String> = self.options().iter().map(|o| o.name.clone()).collect();
            return Err(OptionError::Unknown {
                name: name.to_string(),
                suggestion: crate::diag::did_you_mean(name, names.iter().map(String::as_str))
                    .map(str::to_string),
                names,
            });
        };
        let o = &self.options()[i];
        // A number too large for 32 bits is still a number: say the range.
        let wide: i128 = value.parse().map_err(|_| OptionError::NotANumber {
            name: name.to_string(),
            value: value.to_string(),
        })?;
        if wide < i128::from(o.min) || wide > i128::from(o.max) {
            return Err(OptionError::OutOfRange {
                name: name.to_string(),
                min: o.min,
                max: o.max,
                value: wide,
            });
        }
        opts[i] = wide as i32;
        Ok(())
    }

    /// The option values after `NAME=VALUE` settings (a command line's
    /// `--set`) applied in order to the defaults: the one parser of
    /// `--set` for every front end.
    ///
    /// ```
    /// let text = "game \"Race\" { players 2..2 }\n\
    ///     option target = 100 in 10..500 \"points to win\"\n\
    ///     start { choose seat(0) { \"stop\" { } } end game }\n\
    ///     winners highest target\n";
    /// let game = grail::Game::from_source("race.rules", text).expect("compiles");
    /// let opts = game.options_from(&["target=50"]).expect("a setting");
    /// assert_eq!(opts[game.option_index("target").unwrap()], 50);
    /// assert!(game.options_from(&["target"]).is_err());
    /// ```
    pub fn options_from<S: AsRef<str>>(&self, settings: &[S]) -> Result<Vec<i32>, SetError> {
        let mut opts = self.default_options();
        for s in settings {
            let s = s.as_ref();
            let (name, value) = split_setting(s)?;
            self.set_option(&mut opts, name, value)
                .map_err(|error| SetError::Option {
                    setting: s.to_string(),
                    error,
                })?;
        }
        Ok(opts)
    }

    /// The options in `opts` that differ from their defaults, as
    /// `NAME=VALUE` in declaration order: what `--set` would need to give
    /// them back ([`Game::options_from`] reads these).
    pub fn changed_settings(&self, opts: &[i32]) -> Vec<String> {
        self.options()
            .iter()
            .zip(opts)
            .filter(|(o, v)| o.default != **v)
            .map(|(o, v)| format!("{}={v}", o.name))
            .collect()
    }

    /// Whether `players` seats can play this game.
    pub fn check_players(&self, players: usize) -> Result<(), PlayersError> {
        let (min, max) = self.players();
        if players < min || players > max {
            return Err(PlayersError {
                game: self.name().to_string(),
                min,
                max,
                players,
            });
        }
        Ok(())
    }
    pub fn card_count(&self) -> usize {
        self.data.graph.tables.cards.len()
    }
    pub fn card_name(&self, card: usize) -> &str {
        &self.data.graph.tables.cards[card].name
    }
    /// 1-based line of a node, for messages.
    pub fn line_of(&self, phase: u16, node: u32) -> usize {
        let p = &self.data.graph.phases[phase as usize];
        let span = p.spans.get(node as usize).copied().unwrap_or(p.span);
        self.data.source.line_of(span.start)
    }
    /// Where a node is written: for a variant, the file its line is in and
    /// the line there (see [`crate::diag::Source::file_line`]); for a plain
    /// file, `None` and the line.
    pub fn file_line_of(&self, phase: u16, node: u32) -> (Option<std::path::PathBuf>, usize) {
        let (file, line) = self.data.source.file_line(self.line_of(phase, node));
        (file.map(std::path::PathBuf::from), line)
    }
}

impl From<Loaded> for Game {
    fn from(loaded: Loaded) -> Game {
        Game {
            prog: Arc::new(Program::new(loaded.graph.clone())),
            data: Arc::new(loaded),
        }
    }
}

/// Why [`Game::set_option`] refused a setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name; `suggestion` is the closest one, if any.
    Unknown {
        name: String,
        suggestion: Option<String>,
        names: Vec<String>,
    },
    /// The value is not a whole number.
    NotANumber { name: String, value: String },
    /// The value is outside the option's declared range.
    OutOfRange {
        name: String,
        min: i32,
        max: i32,
        value: i128,
    },
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unknown {
                name,
                suggestion: Some(s),
                ..
            } => write!(f, "unknown option `{name}`: did you mean `{s}`?"),
            OptionError::Unknown { name, names, .. } if names.is_empty() => {
                write!(f, "unknown option `{name}`: this game has no options")
            }
            OptionError::Unknown { name, names, .. } => write!(
                f,
                "unknown option `{name}`: the options are {}",
                names.join(", ")
            ),
            OptionError::NotANumber { name, value } => {
                write!(f, "option `{name}` takes a whole number, not `{value}`")
            }
            OptionError::OutOfRange {
                name,
                min,
                max,
                value,
            } => write!(f, "option `{name}` must be in {min}..{max}, not {value}"),
        }
    }
}

impl std::error::Error for OptionError {}

/// Front ends that report errors as text can use `?` on a setting.
impl From<OptionError> for String {
    fn from(e: OptionError) -> String {
        e.to_string()
    }
}

/// Why [`Game::options_from`] refused a list of settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetError {
    /// A setting without `=`.
    NotASetting(String),
    /// A setting [`Game::set_option`] refused.
    Option { setting: String, error: OptionError },
}

impl std::fmt::Display for SetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetError::NotASetting(s) => write!(f, "--set takes NAME=VALUE, not `{s}`"),
            SetError::Option { error, .. } => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for SetError {}

impl From<SetError> for String {
    fn from(e: SetError) -> String {
        e.to_string()
    }
}

/// One `NAME=VALUE` setting split at its first `=`, both sides trimmed:
/// the one reader of the form, for `--set` ([`Game::options_from`]), the
/// REPL's variant files and rulecheck's variant files and `--vary`.
///
/// ```
/// assert_eq!(grail::engine::split_setting(" target = 50"), Ok(("target", "50")));
/// assert!(grail::engine::split_setting("target").is_err());
/// ```
pub fn split_setting(text: &str) -> Result<(&str, &str), SetError> {
    match text.split_once('=') {
        Some((name, value)) => Ok((name.trim(), value.trim())),
        None => Err(SetError::NotASetting(text.to_string())),
    }
}

/// A player count the game is not for ([`Game::check_players`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayersError {
    pub game: String,
    pub min: usize,
    pub max: usize,
    pub players: usize,
}

impl std::fmt::Display for PlayersError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let PlayersError {
            game,
            min,
            max,
            players,
        } = self;
        write!(f, "{game} is for {min} to {max} players, not {players}")
    }
}

impl std::error::Error for PlayersError {}

impl From<PlayersError> for String {
    fn from(e: PlayersError) -> String {
        e.to_string()
    }
}
