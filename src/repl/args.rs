//! The leaf of the REPL: what every file shares, importing no other REPL
//! module: the `grail play` arguments and `--set` options, the [`Flow`]
//! after a command, argument parsing (`no_args`, `count_arg`, `parse_seat`,
//! `looks_numeric`) and the move limit of `auto end` and bots. Handlers
//! (`look.rs`, `step.rs`, `house.rs`) depend only downward on it and on
//! `session.rs`; `commands.rs` (the table and dispatch) sits above them.

use crate::Game;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// The rules file.
    pub file: PathBuf,
    /// Number of players (default: the fewest the game allows).
    #[arg(long, short, value_parser = crate::cli_numbers::whole::<usize>, allow_negative_numbers = true)]
    pub players: Option<usize>,
    /// Seed for shuffles and random moves (default: a random seed, printed).
    #[arg(long, value_parser = crate::cli_numbers::whole::<u64>, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Set an option, e.g. `--set target=50` (repeatable; see the `options` command).
    #[arg(long = "set", value_name = "OPT=VALUE")]
    pub set: Vec<String>,
    /// Read commands from this file instead of the keyboard.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// In script mode, print each command as `> command` before its output.
    #[arg(long)]
    pub echo: bool,
    /// Keep the line history in this file (default: $GRAIL_HISTORY, else
    /// $XDG_DATA_HOME/grail/history, else ~/.local/share/grail/history).
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,
    /// Keep no history file.
    #[arg(long, conflicts_with = "history")]
    pub no_history: bool,
}

/// The option values after applying `NAME=VALUE` settings to the defaults.
pub fn options_from(game: &Game, sets: &[String]) -> Result<Vec<i32>, String> {
    Ok(game.options_from(sets)?)
}

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// `auto end` (and bots) stop after this many moves if the game has not ended.
pub const AUTO_END_LIMIT: usize = 100_000;

/// `12`, `-3`, `+4`: meant as a number even when out of range.
pub fn looks_numeric(word: &str) -> bool {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

pub fn no_args(name: &str, args: &[&str]) -> Result<(), String> {
    match args.first() {
        None => Ok(()),
        Some(_) => Err(format!(
            "{name} takes no arguments, got '{}'",
            args.join(" ")
        )),
    }
}

/// A whole number of things, for `undo K`, `auto K`...
pub fn count_arg(cmd: &str, word: &str, what: &str) -> Result<usize, String> {
    match word.parse::<usize>() {
        Ok(k) if k >= 1 => Ok(k),
        _ => Err(format!("{cmd} takes {what}, not '{word}'")),
    }
}

/// `2`, `P2`, `p2` -> seat 2, checked against the number of players `n`.
pub fn parse_seat(n: usize, word: &str) -> Result<usize, String> {
    let digits = word.strip_prefix(['P', 'p']).unwrap_or(word);
    match digits.parse::<usize>() {
        Ok(p) if p < n => Ok(p),
        _ => Err(format!(
            "no seat '{word}'; seats are 0..{} (or P0..P{}), or all",
            n - 1,
            n - 1
        )),
    }
}
