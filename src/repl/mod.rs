//! The designer's REPL: `grail play FILE` opens a game and reads commands
//! from a line editor, a script file or a pipe (see docs/repl.md).
//!
//! `session.rs` holds the game being explored and runs one command line;
//! `commands.rs` is the command table (the source of `help` and of the
//! command reference in docs/repl.md) and dispatch; the handlers are in
//! `look.rs` (seeing), `step.rs` (moving, bots, trace), `hint.rs` (`hint`,
//! a search agent's top moves) and `house.rs`
//! (options, restart, save/load/reload, with `saved.rs` for the file format
//! and replays). `complete.rs` and `editor.rs` are the interactive side
//! (completion, hints, history, colour); `script.rs` runs scripts (and is the
//! in-process runner for tests). This file is the CLI entry: arguments and
//! setup.

pub mod commands;
pub mod complete;
pub mod editor;
pub mod hint;
pub mod house;
pub mod look;
pub mod saved;
pub mod script;
pub mod session;
pub mod step;

pub use commands::{COMMANDS, Command, Flow};
pub use script::{run_lines, run_script, script_output, session_output};
pub use session::Session;

use crate::Game;
use std::io::{IsTerminal, Read};
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// The rules file.
    pub file: PathBuf,
    /// Number of players (default: the fewest the game allows).
    #[arg(long, short)]
    pub players: Option<usize>,
    /// Seed for shuffles and random moves (default: a random seed, printed).
    #[arg(long)]
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
    let mut opts = game.default_options();
    for s in sets {
        let Some((name, value)) = s.split_once('=') else {
            return Err(format!("--set takes NAME=VALUE, not '{s}'"));
        };
        game.set_option(&mut opts, name.trim(), value.trim())?;
    }
    Ok(opts)
}

fn random_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (t.as_nanos() as u64) % 1_000_000
}

/// `grail play`: returns the exit code.
pub fn run(args: PlayArgs) -> u8 {
    let game = match Game::load(&args.file) {
        Ok(g) => g,
        Err(d) => {
            eprint!("{}", d.render_auto());
            return 1;
        }
    };
    if !game.warnings().items.is_empty() {
        eprint!("{}", game.warnings().render_auto());
    }
    let opts = match options_from(&game, &args.set) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let players = args.players.unwrap_or(game.players().0);
    let seed = args.seed.unwrap_or_else(random_seed);
    let mut session = match Session::new(&game, players, seed, &opts) {
        Ok(s) => s.with_rules_path(&args.file),
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let script = match &args.script {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(e) => {
                eprintln!("error: cannot read script `{}`: {e}", path.display());
                return 1;
            }
        },
        None if !std::io::stdin().is_terminal() => {
            let mut text = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut text) {
                eprintln!("error: cannot read commands from stdin: {e}");
                return 1;
            }
            Some(text)
        }
        None => None,
    };
    match script {
        Some(text) => {
            if args.seed.is_none() {
                eprintln!("seed {seed} (replay with --seed {seed})");
            }
            let mut out = std::io::stdout().lock();
            // a closed pipe ends the run quietly
            let _ = run_lines(&mut session, &text, args.echo, &mut out);
            0
        }
        None => {
            let history = match (args.no_history, &args.history) {
                (true, _) => None,
                (false, Some(p)) => Some(p.clone()),
                (false, None) => editor::default_history_path(),
            };
            let mut intro = format!(
                "{}: {players} players, seed {seed}. Type `help` for the commands, `quit` to leave.\n",
                session.game.name()
            );
            session.report_position(&mut intro);
            editor::interactive(&mut session, history, &intro)
        }
    }
}
